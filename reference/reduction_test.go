package reference

// The reductions, the softmax family, ArgMax/ArgMin, CumSum, TopK and the
// pooling operators: the fast kernels of package ops and the reference
// kernels give the same bits on random inputs of every type each version
// accepts, random shapes (empty ones included) and random attributes.

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/x448/float16"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// numericTypes are every type some operator of the family takes.
var numericTypes = []tensor.DataType{
	tensor.Float, tensor.Double, tensor.Float16, tensor.BFloat16, tensor.Int8, tensor.Uint8, tensor.Int16,
	tensor.Uint16, tensor.Int32, tensor.Uint32, tensor.Int64, tensor.Uint64, tensor.Bool,
}

// randomTensor returns a tensor of type dt and shape with random elements:
// small numbers mostly, and for the float types now and then a NaN, an
// infinity, a signed zero or a repeated value, so that ties, NaN rules and
// overflow are exercised.
func randomTensor(rng *rand.Rand, dt tensor.DataType, shape []int) *tensor.Tensor {
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
			le.PutUint32(b[4*i:], math.Float32bits(float32(v)))
		case tensor.Double:
			le.PutUint64(b[8*i:], math.Float64bits(v*1.0000001))
		case tensor.Float16:
			le.PutUint16(b[2*i:], uint16(float16.Fromfloat32(float32(v))))
		case tensor.BFloat16:
			le.PutUint16(b[2*i:], uint16(tensor.BF16FromFloat32(float32(v))))
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

// randomShape returns a shape of rank lo to hi with dims 0 to 4 (rarely 0).
func randomShape(rng *rand.Rand, lo, hi int) []int {
	shape := make([]int, lo+rng.IntN(hi-lo+1))
	for i := range shape {
		shape[i] = 1 + rng.IntN(4)
		if rng.IntN(15) == 0 {
			shape[i] = 0
		}
	}
	return shape
}

func intAttr(v int64) ops.Attribute    { return ops.Attribute{Type: ops.AttrInt, Int: v} }
func intsAttr(v []int64) ops.Attribute { return ops.Attribute{Type: ops.AttrInts, Ints: v} }

// sameRun runs node n on in with the fast kernel of package ops and the
// reference kernel and fails t unless both fail or both give the same bits.
func sameRun(t *testing.T, n *ops.Node, in []tensor.Value, what string) {
	t.Helper()
	s, err := ops.Lookup("", n.OpType, n.Version)
	if err != nil || s.Since != n.Version {
		t.Fatalf("%s-%d: no fast kernel: %v", n.OpType, n.Version, err)
	}
	ref, ok := Kernel("", n.OpType, n.Version)
	if !ok {
		t.Fatalf("%s-%d: no reference kernel", n.OpType, n.Version)
	}
	fast, ferr := s.Run(&ops.Options{}, n, in)
	slow, rerr := ref(&ops.Options{}, n, in)
	if (ferr != nil) != (rerr != nil) {
		t.Fatalf("%s-%d %s: fast error %v, reference error %v", n.OpType, n.Version, what, ferr, rerr)
	}
	if ferr != nil {
		return
	}
	if len(fast) != len(slow) {
		t.Fatalf("%s-%d %s: %d outputs, reference %d", n.OpType, n.Version, what, len(fast), len(slow))
	}
	for i := range fast {
		a, b := fast[i].(*tensor.Tensor), slow[i].(*tensor.Tensor)
		if a.DataType() != b.DataType() || !slices.Equal(a.Shape(), b.Shape()) || !bytes.Equal(a.Bytes(), b.Bytes()) {
			t.Fatalf("%s-%d %s: output %d differs:\nfast      %v %v %v\nreference %v %v %v", n.OpType, n.Version, what, i,
				a.DataType(), a.Shape(), a, b.DataType(), b.Shape(), b)
		}
	}
}

// acceptedTypes returns the types of numericTypes that version v of op
// runs on, as its fast kernel says (the reference must agree on the rest,
// which sameRun checks with one tensor of each).
func acceptedTypes(t *testing.T, n *ops.Node, in func(dt tensor.DataType) []tensor.Value) []tensor.DataType {
	var ok []tensor.DataType
	for _, dt := range numericTypes {
		s, _ := ops.Lookup("", n.OpType, n.Version)
		if _, err := s.Run(nil, n, in(dt)); err == nil {
			ok = append(ok, dt)
		}
		sameRun(t, n, in(dt), "type "+dt.String())
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
				n := &ops.Node{OpType: name, Version: v, NumOutputs: 1, Attrs: map[string]ops.Attribute{"keepdims": intAttr(keep)}}
				var extra []tensor.Value
				if v < r.axesInput {
					if axes != nil {
						n.Attrs["axes"] = intsAttr(axes)
					}
				} else {
					n.Attrs["noop_with_empty_axes"] = intAttr(noop)
					if axes != nil {
						extra = append(extra, tensor.MustFromSlice(axes, len(axes)))
					}
				}
				return n, extra
			}
			n0, _ := node(nil, 1, 0)
			types := acceptedTypes(t, n0, func(dt tensor.DataType) []tensor.Value {
				return []tensor.Value{randomTensor(rng, dt, []int{2, 3})}
			})
			if len(types) == 0 {
				t.Fatalf("%s-%d accepts no type", name, v)
			}
			for _, dt := range types {
				for range 30 {
					shape := randomShape(rng, 0, 4)
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
					in := append([]tensor.Value{randomTensor(rng, dt, shape)}, extra...)
					sameRun(t, n, in, fmt.Sprintf("%v %v axes %v %v", dt, shape, axes, n.Attrs))
				}
			}
		}
	}
}
