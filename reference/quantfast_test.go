package reference

import (
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// The fast paths of QuantizeLinear (float32 to uint8 and int8) and
// DequantizeLinear (uint8 and int8 to float32), per tensor and per axis,
// agree with the reference at every edge: NaN, infinities, -0, exact
// halves (round half to even), values past int32 and past the type
// (saturation), extreme zero points (int32 wrap-around), odd lengths and
// runs longer than one piece of the engine.
func TestQuantizeFastPathsAgree(t *testing.T) {
	r := rand.New(rand.NewPCG(26, 1))
	edges := []float32{0, float32(math.Copysign(0, -1)), 0.5, -0.5, 1.5, 2.5, -2.5, 127.5, 128.5, -128.5, 254.5, 255.5, 256,
		float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), 1e10, -1e10, 2147483520, -2147483648, 2147483648, 3e9, -3e9,
		math.MaxFloat32, -math.MaxFloat32, 1e-45}
	floatX := func(shape ...int) *tensor.Tensor {
		x := tensor.MustNew(tensor.Float, shape...)
		v := elemsOf[float32](x)
		for i := range v {
			if r.IntN(3) == 0 {
				v[i] = edges[r.IntN(len(edges))]
			} else {
				v[i] = float32(r.NormFloat64() * 200)
			}
		}
		return x
	}
	scaleT := func(shape ...int) *tensor.Tensor {
		s := tensor.MustNew(tensor.Float, shape...)
		v := elemsOf[float32](s)
		for i := range v {
			v[i] = []float32{1, 0.5, 0.37, 3, -2, 1e-30, 1e30, float32(math.Inf(1)), 0, float32(math.NaN()), 0.01}[r.IntN(11)]
		}
		return s
	}
	for _, qt := range []tensor.DataType{tensor.Uint8, tensor.Int8} {
		zeroT := func(shape ...int) *tensor.Tensor {
			z := tensor.MustNew(qt, shape...)
			b := z.Bytes()
			for i := range b {
				b[i] = []byte{0, 255, 128, 127, 1, byte(r.IntN(256))}[r.IntN(6)]
			}
			return z
		}
		qT := func(shape ...int) *tensor.Tensor {
			q := tensor.MustNew(qt, shape...)
			for i := range q.Bytes() {
				q.Bytes()[i] = byte(r.IntN(256))
			}
			return q
		}
		for _, version := range []int{10, 13, 19, 21} {
			for trial := range 30 {
				shape := []int{1 + r.IntN(4), 1 + r.IntN(67)}
				if trial == 0 {
					shape = []int{2, 40000} // more than one piece per run
				}
				axis := r.IntN(2)
				attrs := map[string]ops.Attribute{}
				var sshape []int
				switch {
				case version >= 13 && trial%3 == 1:
					sshape = []int{shape[axis]}
					attrs["axis"] = intAttribute(int64(axis))
				case trial%3 == 2:
					sshape = []int{1}
				}
				if version >= 21 {
					attrs["output_dtype"] = intAttribute(int64(qt))
				}
				scale, zero := scaleT(sshape...), zeroT(sshape...)
				x := floatX(shape...)
				bothEngines(t, &ops.Node{OpType: "QuantizeLinear", Version: version, Attrs: attrs}, x, scale, zero)
				delete(attrs, "output_dtype")
				if qt == tensor.Uint8 {
					bothEngines(t, &ops.Node{OpType: "QuantizeLinear", Version: version, Attrs: attrs}, x, scale)
				}
				q := qT(shape...)
				bothEngines(t, &ops.Node{OpType: "DequantizeLinear", Version: version, Attrs: attrs}, q, scale, zero)
				bothEngines(t, &ops.Node{OpType: "DequantizeLinear", Version: version, Attrs: attrs}, q, scale)
			}
		}
	}
}

func elemsOf[E any](t *tensor.Tensor) []E {
	b := t.Bytes()
	if len(b) == 0 {
		return nil
	}
	var e E
	return unsafe.Slice((*E)(unsafe.Pointer(&b[0])), len(b)/int(unsafe.Sizeof(e)))
}
