package sonnxrule

import "github.com/onnxshape/onnxshape/tensor"

// The constraints of the working group's specifications of elementwise
// operators (onnx/working-groups, safety-related-profile/sonnx/ops/spec/
// informal/<op>/<op>.md) that the kernels of both engines check under the
// profile, and the profile's check before the model runs. Each id is the
// specification's own: the E_<OP>_<VARIANT>_CONSTR_<TENSOR>_<n> ids of
// Abs, Add, Sub, Mul, Div and Less name the variant (FLOAT for float16,
// float and double, INT for the integers); Pow and Where number their
// constraints per tensor ([C1] on A, condition, ...).

// Value constraints.
const (
	// AbsLeast is Abs (int)'s X != minint: the absolute value of a signed
	// type's least value does not exist in the type.
	AbsLeast = "E_ABS_INT_CONSTR_X_020"
	// DivZero is Div (int)'s B[i] != 0.
	DivZero = "E_DIV_INT_CONSTR_B_0030"
	// PowNegative is Pow (int)'s B[i] >= 0.
	PowNegative = "B [C3]"
	// PowType is Pow's type consistency: B has A's type (ONNX lets the
	// exponent's type differ).
	PowType = "B [C2]"
)

// sameShape holds, for each operator whose specification forbids
// broadcasting, the id of its shape consistency constraint ("Tensors A, B
// and C shall have the same shape") for a float and an integer element
// type.
var sameShape = map[string][2]string{
	"Add":   {"E_ADD_FLOAT_CONSTR_A_0010", "E_ADD_INT_CONSTR_A_0010"},
	"Sub":   {"E_SUB_FLOAT_CONSTR_A_0010", "E_SUB_INT_CONSTR_A_0010"},
	"Mul":   {"E_MUL_FLOAT_CONSTR_A_0010", "E_MUL_INT_CONSTR_A_0010"},
	"Div":   {"E_DIV_FLOAT_CONSTR_A_0010", "E_DIV_INT_CONSTR_A_0010"},
	"Less":  {"E_LESS_FLOAT_CONSTR_A_010", "E_LESS_INT_CONSTR_A_010"},
	"Pow":   {"A [C1]", "A [C1]"},
	"Where": {"condition [C1]", "condition [C1]"},
}

// SameShape returns the id of the constraint of op's SONNX specification
// that its inputs have one shape (no broadcasting) when its data (A, or X
// of Where) has element type dt, and "" when the specification has none.
func SameShape(op string, dt tensor.DataType) string {
	ids, ok := sameShape[op]
	if !ok {
		return ""
	}
	if dt.IsInteger() {
		return ids[1]
	}
	return ids[0]
}

// SameShapeIDs lists every id SameShape returns, for op.
func SameShapeIDs(op string) []string {
	ids, ok := sameShape[op]
	switch {
	case !ok:
		return nil
	case ids[0] == ids[1]:
		return ids[:1]
	}
	return ids[:]
}
