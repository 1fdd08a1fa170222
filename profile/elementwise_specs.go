package profile

import (
	"fmt"
	"strings"

	"github.com/onnxshape/onnxshape/internal/sonnxrule"
	"github.com/onnxshape/onnxshape/tensor"
)

// The constraints of the working group's specifications of the elementwise
// operators onnxshape admits (specs gives their versions and types): Abs,
// Relu, Sigmoid, Tanh, Exp, Log, Sqrt (one input; the output's shape is the
// input's, which the declarations' comparison GR3 covers), Add, Sub, Mul,
// Div, Less, Pow and Where (no broadcasting: the inputs have one shape),
// and the value constraints of Abs (int), Div (int) and Pow (int).
// internal/sonnxrule holds their ids, which the kernels of both engines
// report under the profile too.
//
// Not transcribed (undecided, SPEC): Neg, whose text is preliminary (it
// names no ONNX version and says nothing of the least integer, whose
// negation the type cannot hold).

// checkSameShape is the shape consistency constraint of an operator whose
// specification forbids broadcasting: every input has one shape. Inputs
// whose shapes are not all known leave it to run time, where the kernel
// checks it.
func (c *checker) checkSameShape(nc *nodeCheck) {
	data := 0
	if nc.op() == "Where" {
		data = 1
	}
	dt := tensor.Float
	if data < len(nc.in) && nc.in[data] != nil && nc.in[data].dtype != tensor.Undefined {
		dt = nc.in[data].dtype
	}
	id := sonnxrule.SameShape(nc.op(), dt)
	if id == "" {
		return
	}
	var first *known
	firstName := ""
	for i, name := range nc.np.GetInput() {
		if name == "" || i >= len(nc.in) {
			continue
		}
		k := nc.in[i]
		if !k.fullShape() {
			nc.deferRules([]string{id}, "the shape of input %d (%q) is not known before the model runs: %s", i, name, c.inferred.describe(name, k))
			return
		}
		if first == nil {
			first, firstName = k, name
			continue
		}
		if !tensor.SameShape(first.dims, k.dims) {
			nc.finding(id, fmt.Sprintf("input %q has shape %s and input %q %s: the SONNX specification of %s does not broadcast, its inputs have one shape",
				firstName, shapeString(first.dims), name, shapeString(k.dims), nc.op()),
				fmt.Sprintf("give the inputs of %s one shape (expand the smaller one explicitly, with Expand)", nc.op()))
			return
		}
	}
}

// checkPowType is Pow's B [C2]: the exponent B has the type of the base A
// (ONNX lets them differ).
func (c *checker) checkPowType(nc *nodeCheck) {
	if len(nc.in) < 2 || nc.in[0] == nil || nc.in[1] == nil {
		return
	}
	a, b := nc.in[0].dtype, nc.in[1].dtype
	if a == tensor.Undefined || b == tensor.Undefined || a == b {
		return
	}
	nc.finding(sonnxrule.PowType, fmt.Sprintf("the exponent B is %v and the base A %v: the SONNX specification of Pow gives them one type", b, a),
		"convert the exponent to the base's type (Cast)")
}

// checkElementwise runs the checks above on the operators they concern.
func (c *checker) checkElementwise(nc *nodeCheck) {
	if _, ok := specs[nc.op()]; !ok {
		return
	}
	c.checkSameShape(nc)
	if nc.op() == "Pow" {
		c.checkPowType(nc)
	}
}

// valueConstrained reports whether input i of the node carries a value
// constraint of its operator's specification for its element type (Abs's
// signed X, Div's and Pow's integer B), so that a stand-in cannot check it.
func valueConstrained(nc *nodeCheck, i int) bool {
	if i >= len(nc.in) || nc.in[i] == nil {
		return false
	}
	dt := nc.in[i].dtype
	switch nc.op() {
	case "Abs":
		return i == 0 && (dt == tensor.Undefined || dt.IsInteger() && dt.IsSigned())
	case "Div", "Pow":
		return i == 1 && (dt == tensor.Undefined || dt.IsInteger())
	case "BatchNormalization":
		return i == 4 // input_var [C3]
	}
	return false
}

// elementwiseRules are the rows of the elementwise operators, after the
// other operators' in Rules.
func elementwiseRules() []Rule {
	var rows []Rule
	types := func(op string) Rule {
		s := specs[op]
		what := "X and Y are"
		switch {
		case s.FixedOutput:
			what = "A and B are"
		case s.Inputs != nil:
			what = "X, Y and the output are"
		case s.DataInputs < 0:
			what = "A, B and C are"
		case op == "Pow":
			what = "A (X) and C are"
		}
		return rule(op, ruleTypes, fmt.Sprintf("%s %s (%s-%d's type list; type consistency, one type for the inputs and the output, is ONNX's own constraint, GR3)", what, typeNames(s.Types), op, s.Version),
			fmt.Sprintf("give %s a tensor of one of the listed types", op), "profile.checkSpecTypes")
	}
	sameShape := func(op string) {
		for _, id := range sonnxrule.SameShapeIDs(op) {
			variant := ""
			switch {
			case strings.Contains(id, "_FLOAT_"):
				variant = " (float variant)"
			case strings.Contains(id, "_INT_"):
				variant = " (integer variant)"
			}
			rows = append(rows, rule(op, id, fmt.Sprintf("shape consistency%s: the inputs and the output have one shape, no broadcasting", variant),
				fmt.Sprintf("give the inputs of %s one shape (expand the smaller one explicitly, with Expand)", op),
				"profile.checkSameShape", "ops.sameShapes"))
		}
	}
	for _, op := range []string{"Abs", "Relu", "Sigmoid", "Tanh", "Exp", "Log", "Sqrt"} {
		rows = append(rows, types(op))
		if op == "Abs" {
			rows = append(rows, rule(op, sonnxrule.AbsLeast, "X != minint: a signed X holds no least value of its type (whose absolute value the type cannot hold); a constant X is searched, one known at run time is undecided",
				"keep the least value of the type out of Abs's input (clip it to minint+1)", "ops.refuseAbsLeast"))
		}
	}
	for _, op := range []string{"Add", "Sub", "Mul", "Div", "Less"} {
		rows = append(rows, types(op))
		sameShape(op)
		if op == "Div" {
			rows = append(rows, rule(op, sonnxrule.DivZero, "for an integer B, B[i] != 0 for every i: a constant B is searched, one known at run time is undecided",
				"keep zeros out of an integer divisor", "ops.refuseZeroDivisor"))
		}
	}
	rows = append(rows, types("Pow"))
	sameShape("Pow")
	rows = append(rows,
		rule("Pow", sonnxrule.PowType, "B has A's type (ONNX lets the exponent's type differ)",
			"convert the exponent to the base's type (Cast)", "profile.checkPowType", "ops.powSONNX"),
		rule("Pow", sonnxrule.PowNegative, "for integer A and B, B[i] >= 0 for every i: a constant B is searched, one known at run time is undecided",
			"give a non-negative integer exponent (or compute in floats)", "ops.powSONNX"))
	rows = append(rows, types("Where"))
	sameShape("Where")
	return rows
}
