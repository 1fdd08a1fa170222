// Range creates the 1-D tensor start, start+delta, start+2*delta, ... up
// to limit, exclusive: number_of_elements = max(ceil((limit - start) /
// delta), 0), output[i] = start + i*delta.
//
// Versions: 11 (float, double, int16, int32, int64) and 27, which adds
// float16 and bfloat16 and the stash_type attribute: the type those two
// compute in, float (1, the default) or double (11); it has no effect on
// the other types.
//
// Rules: [input] start, limit and delta are scalars (a one-element tensor
// is read as one) of one type the version allows; [delta] delta is not
// zero (numpy and onnxruntime refuse it; the specification divides by
// it); [stash_type] float or double, the two its function body and the
// reference evaluator accept; [size] the output fits the size limit.
//
// Floats follow the reference evaluator (numpy's arange): the count in
// float64, each element start + i*delta in the input's precision (for
// float16 and bfloat16, stash_type's), rounded to the type once.

package ops

import (
	"math"
	"math/big"

	"github.com/onnxshape/onnxshape/ops/internal/convert"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("Range", []int{11, 27}, [2]int{3, 3}, [2]int{1, 1}, rangeNode)
	declareAttrs("Range", AttrSpec{Name: "stash_type", Type: AttrInt, From: 27})
}

// Range returns start, start+delta, ... up to limit, exclusive: three
// scalar tensors of one type (ONNX Range, version 27, stash_type float).
func Range(start, limit, delta *tensor.Tensor, opts ...Option) (*tensor.Tensor, error) {
	op := opRef{"Range", 27}
	opt, err := callOptions(op, opts)
	if err != nil {
		return nil, err
	}
	return rangeOf(opt, op, start, limit, delta, tensor.Float)
}

func rangeNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	var args [3]*tensor.Tensor
	for i, name := range []string{"start", "limit", "delta"} {
		t, err := n.requiredInput(in, i, name)
		if err != nil {
			return nil, err
		}
		args[i] = t
	}
	stash := tensor.Float
	if n.Version >= 27 {
		s, err := n.Int("stash_type", int64(tensor.Float))
		if err != nil {
			return nil, err
		}
		stash = tensor.DataType(s)
	}
	y, err := rangeOf(opt, n.op(), args[0], args[1], args[2], stash)
	if err != nil {
		return nil, err
	}
	return values(y), nil
}

func rangeTypeAllowed(dt tensor.DataType, version int) bool {
	switch dt {
	case tensor.Float, tensor.Double, tensor.Int16, tensor.Int32, tensor.Int64:
		return true
	case tensor.Float16, tensor.BFloat16:
		return version >= 27
	}
	return false
}

// rangeCount returns the number of elements of Range over the inputs' exact
// values (floats as float64, integers exactly).
func rangeCount(op opRef, start, limit, delta *tensor.Tensor) (int, error) {
	dt := start.DataType()
	if dt.IsInteger() {
		v := make([]int64, 3)
		for i, t := range []*tensor.Tensor{start, limit, delta} {
			x, _ := int64sOf(t)
			if x == nil {
				f, _ := t.Float64s()
				v[i] = int64(f[0])
			} else {
				v[i] = x[0]
			}
		}
		if v[2] == 0 {
			return 0, op.errorf("delta", "delta is 0")
		}
		// ceil((limit - start) / delta), exactly
		diff := new(big.Int).Sub(big.NewInt(v[1]), big.NewInt(v[0]))
		d := big.NewInt(v[2])
		q, m := new(big.Int).QuoRem(diff, d, new(big.Int))
		if m.Sign() != 0 && (m.Sign() > 0) == (d.Sign() > 0) {
			q.Add(q, big.NewInt(1))
		}
		if q.Sign() <= 0 {
			return 0, nil
		}
		if !q.IsInt64() || q.Int64() > math.MaxInt32*int64(1<<31) || q.Int64() > math.MaxInt { // an int of 32 bits holds less
			return 0, op.errorf("size", "%v elements", q)
		}
		return int(q.Int64()), nil
	}
	f := make([]float64, 3)
	for i, t := range []*tensor.Tensor{start, limit, delta} {
		x, _ := t.Float64s()
		f[i] = x[0]
	}
	if f[2] == 0 {
		return 0, op.errorf("delta", "delta is 0")
	}
	c := math.Ceil((f[1] - f[0]) / f[2])
	switch {
	case c != c:
		return 0, op.errorf("input", "the count of elements is NaN (start %v, limit %v, delta %v)", f[0], f[1], f[2])
	case c <= 0:
		return 0, nil
	case c > 1<<53 || c > math.MaxInt:
		return 0, op.errorf("size", "%v elements", c)
	}
	return int(c), nil
}

func rangeOf(opt *Options, op opRef, start, limit, delta *tensor.Tensor, stash tensor.DataType) (*tensor.Tensor, error) {
	opt = opt.orDefault()
	dt := start.DataType()
	for _, t := range []*tensor.Tensor{start, limit, delta} {
		if t.DataType() != dt || !rangeTypeAllowed(dt, op.version) {
			return nil, op.errorf("input", "start, limit and delta must have one type among those of %s-%d, got %v, %v, %v",
				op.name, op.version, start.DataType(), limit.DataType(), delta.DataType())
		}
		if t.Len() != 1 || (t.Rank() > 1 || (opt.Profile == ProfileSONNX && t.Rank() != 0)) {
			return nil, op.errorf("input", "start, limit and delta must be scalars, got shape %v", t.Shape())
		}
	}
	if (dt == tensor.Float16 || dt == tensor.BFloat16) && stash != tensor.Float && stash != tensor.Double {
		return nil, op.errorf("stash_type", "stash_type must be float (1) or double (11), got %d", int(stash))
	}
	if err := rangeSONNX(opt, op, delta); err != nil {
		return nil, err
	}
	count, err := rangeCount(op, start, limit, delta)
	if err != nil {
		return nil, err
	}
	y, err := opt.newOverwritten(op, dt, []int{count})
	if err != nil {
		return nil, err
	}
	b := y.Bytes()
	switch dt {
	case tensor.Int16:
		s, d := int16(scalarValue[int64](start)), int16(scalarValue[int64](delta))
		for i, o := 0, asElems[int16](b); i < count; i++ {
			o[i] = s + int16(i)*d
		}
	case tensor.Int32:
		s, d := int32(scalarValue[int64](start)), int32(scalarValue[int64](delta))
		for i, o := 0, asElems[int32](b); i < count; i++ {
			o[i] = s + int32(i)*d
		}
	case tensor.Int64:
		s, d := scalarValue[int64](start), scalarValue[int64](delta)
		for i, o := 0, asElems[int64](b); i < count; i++ {
			o[i] = s + int64(i)*d
		}
	case tensor.Double:
		s, d := scalarValue[float64](start), scalarValue[float64](delta)
		for i, o := 0, asElems[float64](b); i < count; i++ {
			o[i] = s + float64(float64(i)*d) // no fused multiply-add
		}
	case tensor.Float16, tensor.BFloat16:
		if stash == tensor.Double {
			// In float64, then rounded to the type once, as Cast rounds.
			s, d := scalarValue[float64](start), scalarValue[float64](delta)
			var chunk [256]float64
			for at := 0; at < count; at += len(chunk) {
				part := chunk[:min(len(chunk), count-at)]
				for k := range part {
					part[k] = s + float64(float64(at+k)*d)
				}
				convert.EncodeFloats(y, at, part, convert.Options{})
			}
			break
		}
		fallthrough
	default: // float, and float16 and bfloat16 computed in float
		s, d := float32(scalarValue[float64](start)), float32(scalarValue[float64](delta))
		for i := range count {
			x := s + float32(float32(i)*d)
			switch dt {
			case tensor.Float:
				asElems[float32](b)[i] = x
			case tensor.Float16:
				asElems[uint16](b)[i] = convert.F32ToF16(math.Float32bits(x))
			default:
				asElems[uint16](b)[i] = convert.F32ToBF16(x)
			}
		}
	}
	return y, nil
}

// scalarValue returns the value of a one-element tensor as T (int64 for integer
// tensors, float64 for float ones).
func scalarValue[T int64 | float64](t *tensor.Tensor) T {
	var zero T
	if _, ok := any(zero).(int64); ok {
		v, _ := int64sOf(t)
		if v == nil {
			w := asElems[int16](t.Bytes())
			return T(w[0])
		}
		return T(v[0])
	}
	f, _ := t.Float64s()
	return T(f[0])
}
