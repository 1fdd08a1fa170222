package reference

// The reductions, the softmax family, ArgMax/ArgMin, CumSum, TopK and the
// pooling operators: the fast kernels of package ops and the reference
// kernels give the same bits on random inputs of every type each version
// accepts, random shapes (empty ones included) and random attributes.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/x448/float16"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// familyNumericTypes are every type some operator of the family takes.
var familyNumericTypes = []tensor.DataType{
	tensor.Float, tensor.Double, tensor.Float16, tensor.BFloat16, tensor.Int8, tensor.Uint8, tensor.Int16,
	tensor.Uint16, tensor.Int32, tensor.Uint32, tensor.Int64, tensor.Uint64, tensor.Bool,
}

// familyTensor returns a tensor of type dt and shape with random elements:
// small numbers mostly, and for the float types now and then a NaN, an
// infinity, a signed zero or a repeated value, so that ties, NaN rules and
// overflow are exercised.
func familyTensor(rng *rand.Rand, dt tensor.DataType, shape []int) *tensor.Tensor {
	t := tensor.MustNew(dt, shape...)
	n := t.Len()
	b := t.Bytes()
	f := make([]float64, n)
	for i := range f {
		switch r := rng.IntN(40); {
		case r == 0:
			f[i] = math.NaN()
		case r == 1:
			f[i] = math.Inf(1 - 2*rng.IntN(2))
		case r == 2:
			f[i] = math.Copysign(0, -1)
		case r < 8 && i > 0:
			f[i] = f[rng.IntN(i)]
		default:
			f[i] = math.Round(rng.NormFloat64()*8*64) / 64
		}
	}
	for i, v := range f {
		switch dt {
		case tensor.Float:
			littleEndian.PutUint32(b[4*i:], math.Float32bits(float32(v)))
		case tensor.Double:
			littleEndian.PutUint64(b[8*i:], math.Float64bits(v*1.0000001))
		case tensor.Float16:
			littleEndian.PutUint16(b[2*i:], uint16(float16.Fromfloat32(float32(v))))
		case tensor.BFloat16:
			littleEndian.PutUint16(b[2*i:], uint16(tensor.BF16FromFloat32(float32(v))))
		case tensor.Bool:
			b[i] = byte(rng.IntN(2))
		default:
			// Integers: the whole range, so that sums and products wrap.
			for k := range dt.Size() {
				b[i*dt.Size()+k] = byte(rng.Uint32())
			}
			if rng.IntN(3) == 0 { // and small values, so that ties happen
				clear(b[i*dt.Size() : (i+1)*dt.Size()])
				b[i*dt.Size()] = byte(rng.IntN(4))
			}
		}
	}
	return t
}

// familyShape returns a shape of rank lo to hi with dims 0 to 4 (rarely 0).
func familyShape(rng *rand.Rand, lo, hi int) []int {
	shape := make([]int, lo+rng.IntN(hi-lo+1))
	for i := range shape {
		shape[i] = 1 + rng.IntN(4)
		if rng.IntN(15) == 0 {
			shape[i] = 0
		}
	}
	return shape
}

func familyIntAttr(v int64) ops.Attribute    { return ops.Attribute{Type: ops.AttrInt, Int: v} }
func familyIntsAttr(v []int64) ops.Attribute { return ops.Attribute{Type: ops.AttrInts, Ints: v} }

// familySameRun runs node n on in with the fast kernel of package ops and the
// reference kernel and fails t unless both fail or both give the same bits.
func familySameRun(t *testing.T, n *ops.Node, in []tensor.Value, what string) {
	t.Helper()
	s, err := ops.Lookup("", n.OpType, n.Version)
	if err != nil || s.Since != n.Version {
		t.Fatalf("%s-%d: no fast kernel: %v", n.OpType, n.Version, err)
	}
	ref, ok := Kernel("", n.OpType, n.Version)
	if !ok {
		t.Fatalf("%s-%d: no reference kernel", n.OpType, n.Version)
	}
	for _, profile := range []ops.Profile{ops.ProfileONNX, ops.ProfileSONNX} {
		opt := &ops.Options{Profile: profile}
		fast, ferr := s.Run(opt, n, in)
		slow, rerr := ref(opt, n, in)
		var ef, er *ops.Error
		if (ferr != nil) != (rerr != nil) || (ferr != nil && (!errors.As(ferr, &ef) || !errors.As(rerr, &er) || ef.Rule != er.Rule)) {
			t.Fatalf("%s-%d %s under %v: fast error %v, reference error %v", n.OpType, n.Version, what, profile, ferr, rerr)
		}
		if ferr != nil {
			continue
		}
		if len(fast) != len(slow) {
			t.Fatalf("%s-%d %s: %d outputs, reference %d", n.OpType, n.Version, what, len(fast), len(slow))
		}
		for i := range fast {
			a, b := fast[i].(*tensor.Tensor), slow[i].(*tensor.Tensor)
			if a.DataType() != b.DataType() || !slices.Equal(a.Shape(), b.Shape()) || !familySameBits(a.DataType(), a.Bytes(), b.Bytes()) {
				t.Fatalf("%s-%d %s under %v: output %d differs:\nfast      %v %v %v %x\nreference %v %v %v %x", n.OpType, n.Version, what, profile, i,
					a.DataType(), a.Shape(), a, a.Bytes(), b.DataType(), b.Shape(), b, b.Bytes())
			}
		}
	}
}

// familySameBits reports whether two tensors' bytes of type dt are the same, a
// NaN matching any NaN: the sign and payload of a NaN that arithmetic makes
// from two NaNs depend on the order the compiler gives the operands.
func familySameBits(dt tensor.DataType, a, b []byte) bool {
	if bytes.Equal(a, b) {
		return true
	}
	if len(a) != len(b) {
		return false
	}
	size := dt.Size()
	isNaN := func(e []byte) bool {
		switch dt {
		case tensor.Float:
			return littleEndian.Uint32(e)&0x7FFFFFFF > 0x7F800000
		case tensor.Double:
			return littleEndian.Uint64(e)&0x7FFFFFFFFFFFFFFF > 0x7FF0000000000000
		case tensor.Float16:
			return littleEndian.Uint16(e)&0x7FFF > 0x7C00
		case tensor.BFloat16:
			return littleEndian.Uint16(e)&0x7FFF > 0x7F80
		}
		return false
	}
	for i := 0; i < len(a); i += size {
		ea, eb := a[i:i+size], b[i:i+size]
		if !bytes.Equal(ea, eb) && !(isNaN(ea) && isNaN(eb)) {
			return false
		}
	}
	return true
}

// familyTypes returns the types of familyNumericTypes that version v of op
// runs on, as its fast kernel says (the reference must agree on the rest,
// which familySameRun checks with one tensor of each).
func familyTypes(t *testing.T, n *ops.Node, in func(dt tensor.DataType) []tensor.Value) []tensor.DataType {
	var ok []tensor.DataType
	for _, dt := range familyNumericTypes {
		s, _ := ops.Lookup("", n.OpType, n.Version)
		if _, err := s.Run(nil, n, in(dt)); err == nil {
			ok = append(ok, dt)
		}
		familySameRun(t, n, in(dt), "type "+dt.String())
	}
	return ok
}

func TestReductionsMatchReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	reductions := map[string]struct {
		versions  []int
		axesInput int
	}{
		"ReduceSum": {[]int{1, 11, 13}, 13}, "ReduceMean": {[]int{1, 11, 13, 18}, 18},
		"ReduceMax": {[]int{1, 11, 12, 13, 18, 20}, 18}, "ReduceMin": {[]int{1, 11, 12, 13, 18, 20}, 18},
		"ReduceProd": {[]int{1, 11, 13, 18}, 18}, "ReduceL1": {[]int{1, 11, 13, 18}, 18},
		"ReduceL2": {[]int{1, 11, 13, 18}, 18}, "ReduceLogSum": {[]int{1, 11, 13, 18}, 18},
		"ReduceLogSumExp": {[]int{1, 11, 13, 18}, 18}, "ReduceSumSquare": {[]int{1, 11, 13, 18}, 18},
	}
	for name, r := range reductions {
		for _, v := range r.versions {
			node := func(axes []int64, keep, noop int64) (*ops.Node, []tensor.Value) {
				n := &ops.Node{OpType: name, Version: v, NumOutputs: 1, Attrs: map[string]ops.Attribute{"keepdims": familyIntAttr(keep)}}
				var extra []tensor.Value
				if v < r.axesInput {
					if axes != nil {
						n.Attrs["axes"] = familyIntsAttr(axes)
					}
				} else {
					n.Attrs["noop_with_empty_axes"] = familyIntAttr(noop)
					if axes != nil {
						extra = append(extra, tensor.MustFromSlice(axes, len(axes)))
					}
				}
				return n, extra
			}
			n0, _ := node(nil, 1, 0)
			types := familyTypes(t, n0, func(dt tensor.DataType) []tensor.Value {
				return []tensor.Value{familyTensor(rng, dt, []int{2, 3})}
			})
			if len(types) == 0 {
				t.Fatalf("%s-%d accepts no type", name, v)
			}
			for _, dt := range types {
				for range 30 {
					shape := familyShape(rng, 0, 4)
					var axes []int64
					for a := range shape {
						if rng.IntN(2) == 0 {
							axes = append(axes, int64(a-len(shape)*rng.IntN(2)))
						}
					}
					if rng.IntN(4) == 0 {
						axes = nil
					}
					n, extra := node(axes, int64(rng.IntN(2)), int64(rng.IntN(2)))
					in := append([]tensor.Value{familyTensor(rng, dt, shape)}, extra...)
					familySameRun(t, n, in, fmt.Sprintf("%v %v axes %v %v", dt, shape, axes, n.Attrs))
				}
			}
		}
	}
}

// familyAxisTests runs, for every version of op and every type it accepts, 40
// random inputs of rank lo to hi through both engines; attrs returns the
// node's attributes and extra inputs for an input of a given shape.
func familyAxisTests(t *testing.T, rng *rand.Rand, op string, versions []int, lo, hi int,
	attrs func(v int, shape []int) (map[string]ops.Attribute, []tensor.Value)) {
	t.Helper()
	for _, v := range versions {
		probe := []int{2, 3, 2}
		a, extra := attrs(v, probe)
		n0 := &ops.Node{OpType: op, Version: v, NumOutputs: 2, Attrs: a}
		types := familyTypes(t, n0, func(dt tensor.DataType) []tensor.Value {
			return append([]tensor.Value{familyTensor(rng, dt, probe)}, extra...)
		})
		if len(types) == 0 {
			t.Fatalf("%s-%d accepts no type", op, v)
		}
		for _, dt := range types {
			for range 40 {
				shape := familyShape(rng, lo, hi)
				a, extra := attrs(v, shape)
				n := &ops.Node{OpType: op, Version: v, NumOutputs: 2, Attrs: a}
				in := append([]tensor.Value{familyTensor(rng, dt, shape)}, extra...)
				familySameRun(t, n, in, fmt.Sprintf("%v %v %v %v", dt, shape, a, extra))
			}
		}
	}
}

// familyAxis is an axis of a shape of rank r, negative half of the time
// where negative is allowed.
func familyAxis(rng *rand.Rand, r int, negative bool) int64 {
	if r == 0 {
		return 0
	}
	a := int64(rng.IntN(r))
	if negative && rng.IntN(2) == 0 {
		a -= int64(r)
	}
	return a
}

func TestAxisOperatorsMatchReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, op := range []string{"ArgMax", "ArgMin"} {
		familyAxisTests(t, rng, op, []int{1, 11, 12, 13}, 1, 4, func(v int, shape []int) (map[string]ops.Attribute, []tensor.Value) {
			a := map[string]ops.Attribute{"axis": familyIntAttr(familyAxis(rng, len(shape), v > 1)), "keepdims": familyIntAttr(int64(rng.IntN(2)))}
			if v >= 12 {
				a["select_last_index"] = familyIntAttr(int64(rng.IntN(2)))
			}
			return a, nil
		})
	}
	for _, op := range []string{"Softmax", "LogSoftmax", "Hardmax"} {
		familyAxisTests(t, rng, op, []int{1, 11, 13}, 1, 4, func(v int, shape []int) (map[string]ops.Attribute, []tensor.Value) {
			return map[string]ops.Attribute{"axis": familyIntAttr(familyAxis(rng, len(shape), v > 1))}, nil
		})
	}
	cumulativeAttrs := func(v int, shape []int) (map[string]ops.Attribute, []tensor.Value) {
		a := map[string]ops.Attribute{"exclusive": familyIntAttr(int64(rng.IntN(2))), "reverse": familyIntAttr(int64(rng.IntN(2)))}
		axis := familyAxis(rng, len(shape), true)
		if rng.IntN(2) == 0 {
			return a, []tensor.Value{tensor.Scalar(int32(axis))}
		}
		return a, []tensor.Value{tensor.MustFromSlice([]int64{axis}, 1)}
	}
	familyAxisTests(t, rng, "CumSum", []int{11, 14}, 1, 4, cumulativeAttrs)
	familyAxisTests(t, rng, "CumProd", []int{26}, 1, 4, cumulativeAttrs)
	familyAxisTests(t, rng, "TopK", []int{1, 10, 11, 24}, 1, 4, func(v int, shape []int) (map[string]ops.Attribute, []tensor.Value) {
		axis := familyAxis(rng, len(shape), v >= 11)
		k := int64(0)
		if d := shape[(int(axis)+len(shape))%len(shape)]; d > 0 {
			k = int64(rng.IntN(d + 1))
		}
		a := map[string]ops.Attribute{"axis": familyIntAttr(axis)}
		if v >= 11 {
			a["largest"], a["sorted"] = familyIntAttr(int64(rng.IntN(2))), familyIntAttr(1)
		}
		if v < 10 {
			a["k"] = familyIntAttr(k)
			return a, nil
		}
		return a, []tensor.Value{tensor.MustFromSlice([]int64{k}, 1)}
	})
}

func TestPoolingMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	window := func(v int, shape []int, dilations, ceil bool) map[string]ops.Attribute {
		r := len(shape) - 2
		var kernel, strides, pads, dil []int64
		for range r {
			kernel = append(kernel, int64(1+rng.IntN(3)))
			strides = append(strides, int64(1+rng.IntN(3)))
			dil = append(dil, int64(1+rng.IntN(2)))
		}
		for i := range 2 * r {
			pads = append(pads, int64(rng.IntN(int(kernel[i%r]))))
		}
		a := map[string]ops.Attribute{"kernel_shape": familyIntsAttr(kernel), "strides": familyIntsAttr(strides)}
		switch rng.IntN(4) {
		case 0:
			a["auto_pad"] = ops.Attribute{Type: ops.AttrString, String: []string{"SAME_UPPER", "SAME_LOWER", "VALID"}[rng.IntN(3)]}
		default:
			a["pads"] = familyIntsAttr(pads)
			if ceil && rng.IntN(2) == 0 {
				a["ceil_mode"] = familyIntAttr(1)
			}
		}
		if dilations && rng.IntN(2) == 0 {
			a["dilations"] = familyIntsAttr(dil)
		}
		return a
	}
	spatial := func() []int {
		shape := []int{1 + rng.IntN(2), 1 + rng.IntN(2)}
		for range 1 + rng.IntN(3) {
			shape = append(shape, 1+rng.IntN(6))
		}
		return shape
	}
	for _, v := range []int{1, 7, 10, 11, 19, 22} {
		for range 60 {
			shape := spatial()
			a := window(v, shape, v >= 19, v >= 10)
			if v >= 7 {
				a["count_include_pad"] = familyIntAttr(int64(rng.IntN(2)))
			}
			for _, dt := range []tensor.DataType{tensor.Float, tensor.Double, tensor.Float16, tensor.BFloat16} {
				n := &ops.Node{OpType: "AveragePool", Version: v, NumOutputs: 1, Attrs: a}
				familySameRun(t, n, []tensor.Value{familyTensor(rng, dt, shape)}, fmt.Sprintf("%v %v %v", dt, shape, a))
			}
		}
	}
	for _, v := range []int{1, 2, 11, 18, 22} {
		for range 40 {
			shape := spatial()
			a := window(v, shape, v >= 18, v >= 18)
			if v == 1 {
				a["p"] = ops.Attribute{Type: ops.AttrFloat, Float: float32(1 + rng.IntN(3))}
			} else {
				a["p"] = familyIntAttr(int64(1 + rng.IntN(3)))
			}
			for _, dt := range []tensor.DataType{tensor.Float, tensor.Double, tensor.Float16, tensor.BFloat16} {
				n := &ops.Node{OpType: "LpPool", Version: v, NumOutputs: 1, Attrs: a}
				familySameRun(t, n, []tensor.Value{familyTensor(rng, dt, shape)}, fmt.Sprintf("%v %v %v", dt, shape, a))
			}
		}
	}
	for _, op := range []string{"GlobalAveragePool", "GlobalMaxPool", "GlobalLpPool"} {
		versions := []int{1, 22}
		if op == "GlobalLpPool" {
			versions = []int{1, 2, 22}
		}
		familyAxisTests(t, rng, op, versions, 3, 5, func(v int, shape []int) (map[string]ops.Attribute, []tensor.Value) {
			a := map[string]ops.Attribute{}
			if op == "GlobalLpPool" && v == 1 {
				a["p"] = ops.Attribute{Type: ops.AttrFloat, Float: float32(1 + rng.IntN(3))}
			} else if op == "GlobalLpPool" {
				a["p"] = familyIntAttr(int64(1 + rng.IntN(3)))
			}
			return a, nil
		})
	}
}

// TestFamilyCancelled checks that both engines stop a cancelled run with
// the [cancelled] rule.
func TestFamilyCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	x := tensor.MustNew(tensor.Float, 1, 2, 8, 8)
	for _, n := range []*ops.Node{
		{OpType: "ReduceMean", Version: 18, NumOutputs: 1},
		{OpType: "Softmax", Version: 13, NumOutputs: 1},
		{OpType: "ArgMax", Version: 13, NumOutputs: 1},
		{OpType: "GlobalAveragePool", Version: 22, NumOutputs: 1},
		{OpType: "AveragePool", Version: 22, NumOutputs: 1, Attrs: map[string]ops.Attribute{"kernel_shape": familyIntsAttr([]int64{3, 3})}},
	} {
		fast, _ := ops.Lookup("", n.OpType, n.Version)
		ref, _ := Kernel("", n.OpType, n.Version)
		for engine, run := range map[string]ops.Kernel{"fast": fast.Run, "reference": ref} {
			_, err := run(ops.NewOptions(ops.WithContext(ctx)), n, []tensor.Value{x})
			var e *ops.Error
			if !errors.Is(err, context.Canceled) || !errors.As(err, &e) || e.Rule != "cancelled" {
				t.Errorf("%s %s: got %v, want a [cancelled] error", engine, n.OpType, err)
			}
		}
	}
}

// TestSoftmaxLongRowsMatchReference runs rows long enough for the fast
// kernels' vector loops (eight at a time), with NaN, infinities, signed
// zeros and repeats among them.
func TestSoftmaxLongRowsMatchReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, op := range []string{"Softmax", "LogSoftmax"} {
		for _, shape := range [][]int{{3, 37}, {2, 64}, {1, 8}, {5, 9}, {4, 200}} {
			for range 20 {
				for _, dt := range []tensor.DataType{tensor.Float, tensor.Float16, tensor.Double} {
					n := &ops.Node{OpType: op, Version: 13, NumOutputs: 1}
					familySameRun(t, n, []tensor.Value{familyTensor(rng, dt, shape)}, fmt.Sprintf("%v %v", dt, shape))
				}
				// Finite values only, over a wide range, so that the vector
				// loops run to the end of the rows.
				v := make([]float32, shape[0]*shape[1])
				for i := range v {
					v[i] = float32(rng.NormFloat64() * 30)
				}
				for _, axis := range []int64{0, 1} { // columns and rows
					n := &ops.Node{OpType: op, Version: 13, NumOutputs: 1, Attrs: map[string]ops.Attribute{"axis": familyIntAttr(axis)}}
					familySameRun(t, n, []tensor.Value{tensor.MustFromSlice(v, shape...)}, fmt.Sprintf("finite %v axis %d", shape, axis))
				}
			}
		}
	}
}
