// Package sonnxrule names the SONNX rules that more than one package
// checks: the model runner (graph) when a run produces a value, and the
// profile checker (profile) before the model runs.
package sonnxrule

// Declared is the rule a value that disagrees with its declaration
// breaks, for operator op: the operator's own output constraint where its
// SONNX specification states one (Unsqueeze's output shape, Concat's output
// type), else GR3 (no implicit conversion: shapes and types change only
// through explicit operators). shape tells a shape from a type mismatch.
func Declared(op string, shape bool) string {
	switch {
	case op == "Unsqueeze" && shape:
		return "Y [C1]"
	case op == "Concat" && !shape:
		return "concat_output [C1]"
	}
	return "GR3"
}
