package reference

import (
	"fmt"
	"math"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// Agree reports whether the outputs of the fast engine (package ops) and of
// the reference engine for node n on inputs in agree: bit for bit, except
// where the evaluation order of floating-point arithmetic legitimately
// differs. That is only the linear and cubic modes of Resize and Upsample,
// whose fast kernel computes float, float16 and bfloat16 in float32 and
// sums axis by axis; there each element must lie within
//
//	(r+1) * 4 * eps * G^r * M
//
// of the reference, r being the rank, M the largest finite |x| of the input,
// G the filter's gain (1 for linear, 2 for cubic: the sum of the absolute
// weights is below it) and eps the unit roundoff of the narrower of the
// computing and the output type (2^-24 for float, 2^-11 for float16, 2^-8 for
// bfloat16, 2^-53 for double); for the integer types, within 1, since a
// value half-way between two integers may be rounded either way. And
// Attention, whose bound attentionBound states (agree_attention.go). NaN
// must meet NaN and an infinity the same infinity.
func Agree(n *ops.Node, in []tensor.Value, fast, ref []tensor.Value) error {
	if len(fast) != len(ref) {
		return fmt.Errorf("%d outputs from the fast engine, %d from the reference", len(fast), len(ref))
	}
	for k := range fast {
		if err := agreeValue(n, in, fast[k], ref[k]); err != nil {
			return fmt.Errorf("output %d: %w", k, err)
		}
	}
	return nil
}

func agreeValue(n *ops.Node, in []tensor.Value, fast, ref tensor.Value) error {
	switch r := ref.(type) {
	case *tensor.Tensor:
		f, ok := fast.(*tensor.Tensor)
		if !ok || f == nil || r == nil {
			return fmt.Errorf("fast %s, reference %s", describe(fast), describe(ref))
		}
		return agreeTensor(n, in, f, r)
	case *tensor.Sequence:
		f, ok := fast.(*tensor.Sequence)
		if !ok || f == nil || r == nil || f.ElemType != r.ElemType || len(f.Items) != len(r.Items) {
			return fmt.Errorf("fast %s, reference %s", describe(fast), describe(ref))
		}
		for i := range r.Items {
			if err := agreeTensor(n, in, f.Items[i], r.Items[i]); err != nil {
				return fmt.Errorf("item %d: %w", i, err)
			}
		}
		return nil
	case *tensor.Optional:
		f, ok := fast.(*tensor.Optional)
		if !ok || f == nil || r == nil || (f.Value == nil) != (r.Value == nil) {
			return fmt.Errorf("fast %s, reference %s", describe(fast), describe(ref))
		}
		if r.Value == nil {
			return nil
		}
		return agreeValue(n, in, f.Value, r.Value)
	}
	return fmt.Errorf("fast %s, reference %s", describe(fast), describe(ref))
}

func describe(v tensor.Value) string {
	if v == nil {
		return "no value"
	}
	return v.Describe()
}

func agreeTensor(n *ops.Node, in []tensor.Value, fast, ref *tensor.Tensor) error {
	if fast.DataType() != ref.DataType() || !tensor.SameShape(fast.Shape(), ref.Shape()) {
		return fmt.Errorf("fast %s, reference %s", fast.Describe(), ref.Describe())
	}
	if fast.Equal(ref) || equalButNaNPayloads(fast, ref) {
		return nil
	}
	bound, ok := resizeBound(n, in, ref.DataType())
	if !ok {
		bound, ok = attentionBound(n, in, ref.DataType())
	}
	if !ok {
		return fmt.Errorf("the engines differ (bit for bit) at element %v", firstDifference(fast, ref))
	}
	f, err1 := fast.Float64s()
	r, err2 := ref.Float64s()
	if err1 != nil || err2 != nil {
		return fmt.Errorf("the engines differ at element %v", firstDifference(fast, ref))
	}
	for i := range r {
		a, b := f[i], r[i]
		switch {
		case a == b:
		case math.IsNaN(a) || math.IsNaN(b) || math.IsInf(a, 0) || math.IsInf(b, 0):
			return fmt.Errorf("element %v: fast %v, reference %v", unravel(i, ref.Shape()), a, b)
		case math.Abs(a-b) > bound:
			return fmt.Errorf("element %v: fast %v, reference %v, more than the bound %g apart", unravel(i, ref.Shape()), a, b, bound)
		}
	}
	return nil
}

// resizeBound returns the bound Agree states for a linear or cubic Resize
// or Upsample with output type dt, and false for any other node.
func resizeBound(n *ops.Node, in []tensor.Value, dt tensor.DataType) (float64, bool) {
	if (n.OpType != "Resize" && n.OpType != "Upsample") || len(in) == 0 {
		return 0, false
	}
	mode, _ := n.Str("mode", "nearest")
	gain := 1.0
	switch mode {
	case "linear":
	case "cubic":
		gain = 2
	default:
		return 0, false
	}
	if dt.IsInteger() {
		return 1, true
	}
	x, ok := in[0].(*tensor.Tensor)
	if !ok || x == nil {
		return 0, false
	}
	values, err := x.Float64s()
	if err != nil {
		return 0, false
	}
	m := 0.0
	for _, v := range values {
		if !math.IsInf(v, 0) && !math.IsNaN(v) {
			m = max(m, math.Abs(v))
		}
	}
	var eps float64
	switch dt {
	case tensor.Float:
		eps = 0x1p-24
	case tensor.Float16:
		eps = 0x1p-11
	case tensor.BFloat16:
		eps = 0x1p-8
	case tensor.Double:
		eps = 0x1p-53
	default:
		return 0, false
	}
	r := float64(x.Rank())
	return (r + 1) * 4 * eps * math.Pow(gain, r) * m, true
}

// firstDifference returns the multi-index of the first element at which
// two tensors of one type and shape differ, bit for bit.
func firstDifference(a, b *tensor.Tensor) []int {
	if a.DataType() == tensor.String {
		for i, s := range a.Strings() {
			if s != b.Strings()[i] {
				return unravel(i, a.Shape())
			}
		}
		return nil
	}
	size := a.DataType().Size()
	ab, bb := a.Bytes(), b.Bytes()
	for i := 0; i*size < len(ab); i++ {
		if string(ab[i*size:(i+1)*size]) != string(bb[i*size:(i+1)*size]) {
			return unravel(i, a.Shape())
		}
	}
	return nil
}

// equalButNaNPayloads reports whether two float tensors hold the same
// values, a NaN meeting any NaN: neither ONNX nor IEEE 754 fixes the
// payload of a NaN an operation returns (x86 and ARM differ), and the two
// engines compute 16-bit floats along different paths.
func equalButNaNPayloads(fast, ref *tensor.Tensor) bool {
	if !fast.DataType().IsFloat() {
		return false
	}
	f, err1 := fast.Float64s()
	r, err2 := ref.Float64s()
	if err1 != nil || err2 != nil {
		return false
	}
	for i := range r {
		a, b := f[i], r[i]
		if !(math.IsNaN(a) && math.IsNaN(b)) && (a != b || math.Signbit(a) != math.Signbit(b)) {
			return false
		}
	}
	return true
}
