// Softmax computes, for each slice of the input along its axis,
// exp(x - m) / sum(exp(x - m)), m the largest element of the slice (which changes nothing in exact arithmetic and keeps exp from overflowing).
// The axis and its meaning, the types and the kernel are those of the
// softmax family (below).
//
// Versions: 1 (coerced to 2-D at axis, default 1), 11 (negative axis), 13
// (along one axis, default -1; bfloat16). Types: float16, float, double,
// bfloat16; float16 and bfloat16 are computed in float32. The exponential
// of float32 is exp32, a fixed float32 algorithm within 0.9 units in the
// last place (reference/exp32.go); that of double, and every one under
// the SONNX profile (whose softmax "refers to ONNX operator exp"), is
// math.Exp rounded to the computing type. Sums are in the lane order of
// reference/sumlanes.go.

package ops

import (
	"github.com/onnxshape/onnxshape/ops/internal/reduce"
	"github.com/onnxshape/onnxshape/tensor"
)

var softmaxOp = softmaxOperator{name: "Softmax", kind: reduce.Softmax}

func init() { registerSoftmax(softmaxOp) }

// SoftmaxOptions are Softmax's attributes.
type SoftmaxOptions struct {
	// Axis is the axis normalized, in [-r, r-1]; nil means -1, the ONNX
	// default (write Axis: new(1) to set it).
	Axis *int
}

// Softmax returns the softmax of x along o.Axis (ONNX Softmax, version 13).
func Softmax(x *tensor.Tensor, o SoftmaxOptions, opts ...Option) (*tensor.Tensor, error) {
	op := opRef{"Softmax", 13}
	opt, err := callOptions(op, opts)
	if err != nil {
		return nil, err
	}
	axis := -1
	if o.Axis != nil {
		axis = *o.Axis
	}
	return softmaxOp.run(opt, op, x, int64(axis))
}

// What Softmax, LogSoftmax and Hardmax share: the axis and its two
// meanings, the types, and the run of the engine (ops/internal/reduce).
//
// Before version 13 the input is coerced to 2-D at axis (default 1): the
// operator works on rows of every element from axis on, as one vector.
// From 13 on it works along the one axis (default -1).
//
// Under the SONNX profile Softmax (based on Softmax 13; LogSoftmax and
// Hardmax are not in the profile's operator set) also checks, with the ids
// of the working group's informal specification (safety-related-profile/
// sonnx/ops/spec/informal/softmax/softmax.md in onnx/working-groups):
// axis [C1] axis >= 0 ([R1], transient), axis [C2] axis < rank, TYPES
// float16, float, double. Its special values (a slice holding NaN or +inf
// gives NaN everywhere, -inf gives 0) are this implementation's in both
// profiles, but for a slice of -inf only: 0 under the profile, as the
// specification writes it, NaN (0/0) under ONNX, as ONNX's reference gives.

// softmaxOperator is one operator of the softmax family.
type softmaxOperator struct {
	name string
	kind reduce.SoftmaxKind
}

func registerSoftmax(s softmaxOperator) {
	register(s.name, []int{1, 11, 13}, [2]int{1, 1}, [2]int{1, 1}, s.node)
	declareAttrs(s.name, AttrSpec{Name: "axis", Type: AttrInt})
}

func (s softmaxOperator) node(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	x, err := n.requiredInput(in, 0, "input")
	if err != nil {
		return nil, err
	}
	def := int64(-1)
	if n.Version < 13 {
		def = 1
	}
	axis, err := n.Int("axis", def)
	if err != nil {
		return nil, err
	}
	y, err := s.run(opt, n.op(), x, axis)
	if err != nil {
		return nil, err
	}
	return values(y), nil
}

// softmaxLayout checks the type and the axis and returns the slices the
// operator works on.
func softmaxLayout(op opRef, x *tensor.Tensor, axis int64, sonnx bool) (reduce.Layout, error) {
	if sonnx && x.DataType() == tensor.BFloat16 {
		return reduce.Layout{}, op.errorf("TYPES", "input is bfloat16; the profile allows float16, float and double")
	}
	switch x.DataType() {
	case tensor.Float16, tensor.Float, tensor.Double:
	case tensor.BFloat16:
		if op.version < 13 {
			return reduce.Layout{}, op.errorf("type", "input is bfloat16, which version %d does not accept", op.version)
		}
	default:
		return reduce.Layout{}, op.errorf("type", "input is %v, which version %d does not accept", x.DataType(), op.version)
	}
	shape := x.Shape()
	r := len(shape)
	if sonnx && axis < 0 {
		return reduce.Layout{}, op.errorf("axis [C1]", "axis is %d: the profile takes axis >= 0 ([R1])", axis)
	}
	a, ok := normalizeAxis(axis, r)
	if !ok {
		return reduce.Layout{}, op.errorf(reductionRuleID(sonnx, "axis", "axis [C2]"), "axis %d is outside [%d, %d] (input rank %d)", axis, -r, r-1, r)
	}
	l := reduce.Layout{Outer: 1, N: 1, Inner: 1}
	for i, d := range shape {
		switch {
		case i < a:
			l.Outer *= d
		case i == a || op.version < 13:
			l.N *= d
		default:
			l.Inner *= d
		}
	}
	return l, nil
}

// run checks x and axis and returns the operator's output.
func (s softmaxOperator) run(opt *Options, op opRef, x *tensor.Tensor, axis int64) (*tensor.Tensor, error) {
	opt = opt.orDefault()
	sonnx := s.kind == reduce.Softmax && opt.Profile == ProfileSONNX
	l, err := softmaxLayout(op, x, axis, sonnx)
	if err != nil {
		return nil, err
	}
	y, err := opt.newOverwritten(op, x.DataType(), x.Shape())
	if err != nil {
		return nil, err
	}
	if x.DataType() == tensor.Double {
		err = softmaxAs[float64](opt, op, s.kind, l, x, y, sonnx)
	} else {
		err = softmaxAs[float32](opt, op, s.kind, l, x, y, sonnx)
	}
	if err != nil {
		return nil, err
	}
	return y, nil
}

func softmaxAs[A float32 | float64](opt *Options, op opRef, kind reduce.SoftmaxKind, l reduce.Layout, x, y *tensor.Tensor, sonnx bool) error {
	xs, err := reduceLoad[A](opt, op, x)
	if err != nil {
		return err
	}
	ys, flush, err := reduceOut[A](opt, op, y)
	if err != nil {
		return err
	}
	if err := reduce.RunSoftmax(kind, l, xs, ys, sonnx, opt.streams(y.ByteLen(), x.ByteLen()), reduceParallel(opt, op)); err != nil {
		return err
	}
	flush()
	return nil
}
