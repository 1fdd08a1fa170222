package infer

import (
	"github.com/onnxshape/onnxshape/graph"
	"math"

	"github.com/onnxshape/onnxshape/tensor"
)

// Elementwise operators: the output has the broadcast shape of the inputs
// (numpy rules, every version from 7; before 7 the second input was
// broadcast to the first when the node said so) and the type of the first
// input, or bool for comparisons and logic. When the inputs are small
// known vectors, shape arithmetic (Shape -> Gather -> Mul -> Concat) is
// carried out on their elements as dimensions.

func init() {
	register(binary(tensor.Undefined, addElems), "Add")
	register(binary(tensor.Undefined, subElems), "Sub")
	register(binary(tensor.Undefined, mulElems), "Mul")
	register(binary(tensor.Undefined, divElems), "Div")
	register(binary(tensor.Undefined, modElems), "Mod")
	register(binary(tensor.Undefined, nil), "Pow", "BitShift", "BitwiseAnd", "BitwiseOr", "BitwiseXor", "PRelu")
	register(binary(tensor.Bool, equalElems), "Equal")
	register(binary(tensor.Bool, lessElems), "Less")
	register(binary(tensor.Bool, greaterElems), "Greater")
	register(binary(tensor.Bool, nil), "LessOrEqual", "GreaterOrEqual", "And", "Or", "Xor")
	register(variadic(maxElems2), "Max")
	register(variadic(minElems2), "Min")
	register(variadic(nil), "Sum", "Mean")
	register(whereRule, "Where")
	register(swigluRule, "SwiGLU")
	register(unary(negElems), "Neg")
	register(unary(absElems), "Abs")
	register(unary(identityElems), "Identity", "Floor", "Ceil", "Round")
	register(unary(nil),
		"Relu", "Sigmoid", "Tanh", "Exp", "Log", "Sqrt", "Reciprocal", "Sign", "Erf",
		"Sin", "Cos", "Tan", "Asin", "Acos", "Atan", "Sinh", "Cosh", "Asinh", "Acosh", "Atanh",
		"LeakyRelu", "Elu", "Selu", "Celu", "HardSigmoid", "HardSwish", "Softplus", "Softsign",
		"Gelu", "Mish", "ThresholdedRelu", "Shrink", "Swish", "Clip", "Softmax", "LogSoftmax", "Hardmax",
		"BitwiseNot", "LRN", "CumSum", "Trilu", "Scatter", "ScatterElements",
		"ScatterND", "ReverseSequence", "MeanVarianceNormalization", "RandomNormalLike",
		"RandomUniformLike")
	register(unary(notElems), "Not")
	register(boolOut(unary(nil)), "IsNaN", "IsInf")
	register(bernoulliRule, "Bernoulli")
	register(castRule, "Cast")
	register(bitCastRule, "BitCast")
	register(castLikeRule, "CastLike")
	register(dropoutRule, "Dropout")
}

// elemOp computes one element of the output from the elements of the
// inputs; ok is false when it cannot be known.
type elemOp func(dt tensor.DataType, a, b graph.Dim) (graph.Dim, bool)

// broadcastShapes returns the numpy broadcast of the shapes: each output
// dimension is the larger of the aligned input dimensions (max(N, M) when
// both are symbolic: the larger is right whenever the broadcast is valid).
func (c *call) broadcastShapes(vals ...*Value) ([]graph.Dim, bool, error) {
	rank := 0
	for _, v := range vals {
		if v == nil {
			continue
		}
		if !v.Ranked {
			return nil, false, nil
		}
		rank = max(rank, len(v.Shape))
	}
	out := make([]graph.Dim, rank)
	for i := range out {
		out[i] = graph.Const(1)
	}
	for _, v := range vals {
		if v == nil {
			continue
		}
		off := rank - len(v.Shape)
		for k, d := range v.Shape {
			o := out[off+k]
			ov, oknown := o.Value()
			dv, dknown := d.Value()
			switch {
			case oknown && ov == 1:
				out[off+k] = d
			case dknown && dv == 1, o.Equal(d):
			case oknown && dknown:
				return nil, false, c.errorf("broadcast", "dimensions %d and %d do not broadcast", ov, dv)
			case dknown:
				out[off+k] = d
			case oknown:
			default:
				out[off+k] = o.Max(d)
			}
		}
	}
	return out, true, nil
}

// elementwise returns the output value of elementwise inputs with element
// type dt, computing its elements with op when the inputs are small known
// vectors.
func (c *call) elementwise(dt tensor.DataType, op elemOp, vals ...*Value) (*Value, error) {
	shape, ok, err := c.broadcastShapes(vals...)
	if err != nil {
		return nil, err
	}
	if !ok {
		return Unknown(dt), nil
	}
	out := ranked(dt, shape)
	if op == nil || len(shape) > 1 || vals[0] == nil || !exactType(vals[0].Type) {
		return out, nil
	}
	n := 1
	if len(shape) == 1 {
		x, known := shape[0].Value()
		if !known || x > maxElems {
			return out, nil
		}
		n = int(x)
	}
	elems := make([]graph.Dim, n)
	for i := range elems {
		var acc graph.Dim
		for k, v := range vals {
			if v == nil || v.Elems == nil {
				return out, nil
			}
			e := v.Elems[0]
			if len(v.Elems) > 1 {
				e = v.Elems[i]
			} else if len(v.Elems) == 0 {
				return out, nil
			}
			if k == 0 {
				acc = e
				continue
			}
			r, ok := op(vals[0].Type, acc, e)
			if !ok {
				return out, nil
			}
			acc = r
		}
		elems[i] = acc
	}
	out.Elems = elems
	return out, nil
}

func binary(result tensor.DataType, op elemOp) rule {
	return func(c *call, in []*Value) ([]*Value, error) {
		dt := result
		if dt == tensor.Undefined {
			dt = typeOf(in, 0)
		}
		a, b := input(in, 0), input(in, 1)
		if c.version() < 7 {
			// Before 7 the output has the first input's shape: the second
			// equals it or, with broadcast=1, fits into it.
			return []*Value{withType(a, dt)}, nil
		}
		out, err := c.elementwise(dt, op, a, b)
		return []*Value{out}, err
	}
}

// swigluRule: A's shape and type; SwiGLU does not broadcast, so B must
// have A's shape, which is refused when both are known to differ.
func swigluRule(c *call, in []*Value) ([]*Value, error) {
	a, b := input(in, 0), input(in, 1)
	if a.Rank() >= 0 && b.Rank() >= 0 {
		if a.Rank() != b.Rank() {
			return nil, c.errorf("shape", "B of rank %d must have A's rank %d (SwiGLU does not broadcast)", b.Rank(), a.Rank())
		}
		for k, d := range a.Shape {
			av, aknown := d.Value()
			bv, bknown := b.Shape[k].Value()
			if aknown && bknown && av != bv {
				return nil, c.errorf("shape", "B's dimension %d is %d, A's is %d (SwiGLU does not broadcast)", k, bv, av)
			}
		}
	}
	return []*Value{same(a)}, nil
}

func variadic(op elemOp) rule {
	return func(c *call, in []*Value) ([]*Value, error) {
		out, err := c.elementwise(typeOf(in, 0), op, in...)
		return []*Value{out}, err
	}
}

// whereRule: the broadcast of condition, X and Y, of X's type.
func whereRule(c *call, in []*Value) ([]*Value, error) {
	cond, x, y := input(in, 0), input(in, 1), input(in, 2)
	out, err := c.elementwise(typeOf(in, 1), nil, cond, x, y)
	if err != nil || out.Rank() > 1 || cond == nil || x == nil || y == nil || cond.Elems == nil || x.Elems == nil || y.Elems == nil {
		return []*Value{out}, err
	}
	n := 1
	if out.Rank() == 1 {
		k, ok := out.Shape[0].Value()
		if !ok {
			return []*Value{out}, nil
		}
		n = int(k)
	}
	pick := func(v *Value, i int) graph.Dim {
		if len(v.Elems) == 1 {
			return v.Elems[0]
		}
		return v.Elems[i]
	}
	elems := make([]graph.Dim, n)
	for i := range elems {
		if len(cond.Elems) == 0 || len(x.Elems) == 0 || len(y.Elems) == 0 {
			return []*Value{out}, nil
		}
		b, ok := pick(cond, i).Value()
		if !ok {
			return []*Value{out}, nil
		}
		if b != 0 {
			elems[i] = pick(x, i)
		} else {
			elems[i] = pick(y, i)
		}
	}
	out.Elems = elems
	return []*Value{out}, nil
}

// unary keeps the input's shape and type; op computes known elements.
func unary(op func(a graph.Dim) (graph.Dim, bool)) rule {
	return func(c *call, in []*Value) ([]*Value, error) {
		x := input(in, 0)
		out := same(x)
		if op != nil && x != nil && x.Elems != nil {
			elems := make([]graph.Dim, len(x.Elems))
			for i, e := range x.Elems {
				r, ok := op(e)
				if !ok {
					return []*Value{out}, nil
				}
				elems[i] = r
			}
			out.Elems = elems
		}
		return []*Value{out}, nil
	}
}

// boolOut makes a rule whose first output is bool.
func boolOut(r rule) rule {
	return func(c *call, in []*Value) ([]*Value, error) {
		out, err := r(c, in)
		if err == nil {
			out[0].Type = tensor.Bool
		}
		return out, err
	}
}

// castRule: the input's shape, of type "to"; integers stay dimensions.
func castRule(c *call, in []*Value) ([]*Value, error) {
	x := input(in, 0)
	to := tensor.DataType(c.int("to", 0))
	out := withType(x, to)
	if x != nil && x.Elems != nil {
		switch {
		case to == tensor.Bool:
			if xs, ok := knownInts(x); ok {
				out.Elems = make([]graph.Dim, len(xs))
				for i, v := range xs {
					out.Elems[i] = boolDim(v != 0)
				}
			}
		case castKeeps(to, x.Elems):
			out.Elems = x.Elems
		}
	}
	return []*Value{out}, nil
}

// bitCastRule: the input's shape, of type to (onnxshape reinterprets only
// between types of one bit width, so the shape stays).
func bitCastRule(c *call, in []*Value) ([]*Value, error) {
	return []*Value{withType(input(in, 0), tensor.DataType(c.int("to", 0)))}, nil
}

// bernoulliRule: the input's shape, of type dtype (the input's by default).
func bernoulliRule(c *call, in []*Value) ([]*Value, error) {
	out := same(input(in, 0))
	if c.node.Has("dtype") {
		out.Type = tensor.DataType(c.int("dtype", 0))
	}
	return []*Value{out}, nil
}

func castLikeRule(c *call, in []*Value) ([]*Value, error) {
	x := input(in, 0)
	out := withType(x, typeOf(in, 1))
	if x != nil && castKeeps(out.Type, x.Elems) {
		out.Elems = x.Elems
	}
	return []*Value{out}, nil
}

// exactType reports whether arithmetic on dimensions gives the elements of
// type dt exactly: the types shapes are computed in, not the narrow ones
// that would wrap around.
func exactType(dt tensor.DataType) bool {
	switch dt {
	case tensor.Int64, tensor.Int32, tensor.Float, tensor.Double, tensor.Bool:
		return true
	}
	return false
}

// castKeeps reports whether a cast to dt keeps the values of elems: the
// wide types do for the sizes shape arithmetic deals in; int32 does for
// the numbers it holds (a symbolic size is taken to fit).
func castKeeps(dt tensor.DataType, elems []graph.Dim) bool {
	switch dt {
	case tensor.Int64, tensor.Float, tensor.Double:
		return true
	case tensor.Int32:
		for _, d := range elems {
			if v, ok := d.Value(); ok && (v < math.MinInt32 || v > math.MaxInt32) {
				return false
			}
		}
		return true
	}
	return false
}

// dropoutRule: the output and the optional mask (bool from version 10)
// have the input's shape.
func dropoutRule(c *call, in []*Value) ([]*Value, error) {
	x := input(in, 0)
	mask := same(x)
	if c.version() >= 10 {
		mask.Type = tensor.Bool
	}
	out := same(x)
	out.Elems = nil
	if x != nil {
		out.Elems = x.Elems
	}
	return []*Value{out, mask}, nil
}

func boolDim(b bool) graph.Dim {
	if b {
		return graph.Const(1)
	}
	return graph.Const(0)
}

func addElems(_ tensor.DataType, a, b graph.Dim) (graph.Dim, bool) { return a.Add(b), true }
func subElems(_ tensor.DataType, a, b graph.Dim) (graph.Dim, bool) { return a.Sub(b), true }
func mulElems(_ tensor.DataType, a, b graph.Dim) (graph.Dim, bool) { return a.Mul(b), true }

// divElems divides integers toward zero as ONNX does; a symbolic quotient
// is a floor, the same for the nonnegative sizes shape arithmetic divides.
// A float quotient is known only when it is exact.
func divElems(dt tensor.DataType, a, b graph.Dim) (graph.Dim, bool) {
	y, yknown := b.Value()
	if yknown && y == 0 {
		return graph.Dim{}, false
	}
	if x, ok := a.Value(); ok && yknown {
		if dt.IsFloat() && x%y != 0 {
			return graph.Dim{}, false
		}
		return graph.Const(x / y), true
	}
	if q, ok := a.DivExact(b); ok {
		return q, true
	}
	if dt.IsFloat() {
		return graph.Dim{}, false
	}
	return a.FloorDiv(b), true
}

func modElems(dt tensor.DataType, a, b graph.Dim) (graph.Dim, bool) {
	if dt.IsFloat() {
		return graph.Dim{}, false
	}
	if y, ok := b.Value(); ok && y == 0 {
		return graph.Dim{}, false
	}
	return a.Mod(b), true
}

func maxElems2(_ tensor.DataType, a, b graph.Dim) (graph.Dim, bool) { return a.Max(b), true }
func minElems2(_ tensor.DataType, a, b graph.Dim) (graph.Dim, bool) { return a.Min(b), true }

// equalElems is known when the difference of the sides is known, or of a
// known sign (N == -1 is false: a size is never negative), as exporters
// test a shape for -1 before an Expand.
func equalElems(_ tensor.DataType, a, b graph.Dim) (graph.Dim, bool) {
	diff := a.Sub(b)
	if v, ok := diff.Value(); ok {
		return boolDim(v == 0), true
	}
	if diff.Sign() != 0 {
		return graph.Const(0), true
	}
	return graph.Dim{}, false
}

func lessElems(_ tensor.DataType, a, b graph.Dim) (graph.Dim, bool) {
	diff := b.Sub(a)
	if v, ok := diff.Value(); ok {
		return boolDim(v > 0), true
	}
	switch diff.Sign() {
	case 1:
		return graph.Const(1), true
	case -1:
		return graph.Const(0), true
	}
	return graph.Dim{}, false
}

func greaterElems(dt tensor.DataType, a, b graph.Dim) (graph.Dim, bool) { return lessElems(dt, b, a) }

func negElems(a graph.Dim) (graph.Dim, bool)      { return a.Neg(), true }
func identityElems(a graph.Dim) (graph.Dim, bool) { return a, true }

func absElems(a graph.Dim) (graph.Dim, bool) {
	x, ok := a.Value()
	if !ok {
		return graph.Dim{}, false
	}
	return graph.Const(abs(x)), true
}

func notElems(a graph.Dim) (graph.Dim, bool) {
	x, ok := a.Value()
	if !ok {
		return graph.Dim{}, false
	}
	return boolDim(x == 0), true
}
