package profile

import "fmt"

// The requirements trace (onnxshape trace --json): for every item of the
// specifications the profile checks, where it comes from, the code that
// checks it before and while the model runs, and the tests that break and
// meet it. It is made from Rules, the table docs/sonnx.md prints, so the
// two cannot differ.

// TraceItem is one item of the trace.
type TraceItem struct {
	// Key names the item as docs/sonnx.md and findings do: "GR1",
	// "Clip L [C1]".
	Key string `json:"key"`
	// Op is the operator ("" for a profile-wide rule) and ID its id.
	Op string `json:"op,omitempty"`
	ID string `json:"id"`
	// Spec is where the item is stated: the working group's specification
	// of Op at its pinned version, or the profile's rules.
	Spec      string `json:"spec"`
	Statement string `json:"statement"`
	Fix       string `json:"fix"`
	// Checkers are the functions that decide the item before the model
	// runs (the check, and the fast kernels it runs), as package.function.
	Checkers []string `json:"checked_by"`
	// Refusers are the functions that refuse a violation while the model
	// runs under the profile (the reference engine's, or the runner's);
	// empty when the check alone decides the item.
	Refusers []string `json:"refused_at_run_time_by"`
	// Tests are the go test -run names of the profile package's cases:
	// the violating model, the satisfying one, and (for an item checked at
	// run time) the run that refuses it.
	Tests TraceTests `json:"tests"`
}

// TraceTests are the tests of one item.
type TraceTests struct {
	Violated  string `json:"violated"`
	Satisfied string `json:"satisfied"`
	RunTime   string `json:"run_time,omitempty"`
}

// Trace returns the requirements trace, one item per row of Rules, in
// their order.
func Trace() []TraceItem {
	items := make([]TraceItem, 0, len(Rules))
	for _, r := range Rules {
		spec := "profile-wide rule (docs/sonnx.md, sonnx-notes.md and the working group's general restrictions)"
		if r.Op != "" {
			spec = fmt.Sprintf("onnx/working-groups safety-related-profile/sonnx/ops/spec/informal/%s", specFile(r.Op))
			if v := specs[r.Op].Version; v > 0 {
				spec += fmt.Sprintf(", %s version %d", r.Op, v)
			}
		}
		items = append(items, TraceItem{
			Key: r.Key(), Op: r.Op, ID: r.ID, Spec: spec, Statement: r.Statement, Fix: r.Fix,
			Checkers: append([]string{}, r.Checkers...), Refusers: append([]string{}, r.Refusers...),
			Tests: TraceTests{Violated: r.Test, Satisfied: r.Satisfied, RunTime: r.RunTime},
		})
	}
	return items
}

// specFile is the path of op's informal specification in the working
// group's folder.
func specFile(op string) string {
	switch op {
	case "BatchNormalization":
		return "batchnormalization/batch_normalization.md"
	}
	l := []rune{}
	for _, c := range op {
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		l = append(l, c)
	}
	return string(l) + "/" + string(l) + ".md"
}
