package ops

import (
	"math"
	"testing"

	"github.com/onnxshape/onnxshape/tensor"
)

// fuzzBytes hands out the fuzzer's bytes as small numbers.
type fuzzBytes []byte

func (b *fuzzBytes) next() int {
	if len(*b) == 0 {
		return 0
	}
	v := int((*b)[0])
	*b = (*b)[1:]
	return v
}

// pick returns one of the choices.
func pick[T any](b *fuzzBytes, choices ...T) T { return choices[b.next()%len(choices)] }

// FuzzPadResize runs Pad and Resize on shapes, pads, scales, sizes, rois and
// modes taken from the fuzzer's bytes, with a 1 MiB tensor limit: errors are
// fine, panics are not, and neither is an input that changes.
//
//	go test ./ops -run XXX -fuzz FuzzPadResize -fuzztime 5m
func FuzzPadResize(f *testing.F) {
	f.Add([]byte{2, 3, 4, 1, 2, 250, 7, 9, 0, 1})
	f.Add([]byte{1, 5, 0, 3, 200, 100, 2, 2, 1, 1, 1})
	f.Fuzz(func(t *testing.T, data []byte) {
		b := fuzzBytes(data)
		r := b.next() % 5
		shape := make([]int, r)
		for k := range shape {
			shape[k] = b.next() % 6
		}
		dt := pick(&b, tensor.Float, tensor.Uint8, tensor.String, tensor.Int64, tensor.Float16, tensor.Bool)
		x := tensor.MustNew(dt, shape...)
		if dt == tensor.Float {
			v := asElems[float32](x.Bytes())
			for i := range v {
				v[i] = float32(b.next()) - 100
			}
		}
		orig := x.Clone()
		opt := &Options{MaxTensorBytes: 1 << 20}
		if b.next()%2 == 0 {
			p := padParams{mode: pick(&b, "constant", "edge", "reflect", "wrap", "bad")}
			for range 2 * r {
				p.pads = append(p.pads, pick(&b, 0, 1, 2, -1, -3, 7, math.MaxInt/4, -(math.MaxInt/4), math.MaxInt))
			}
			_, _ = pad(opt, opRef{"Pad", 25}, nil, x, p)
		} else {
			p := resizeParams{
				mode:          pick(&b, "nearest", "linear", "cubic"),
				coord:         pick(&b, "half_pixel", "half_pixel_symmetric", "pytorch_half_pixel", "align_corners", "asymmetric", "tf_crop_and_resize"),
				nearest:       pick(&b, "round_prefer_floor", "round_prefer_ceil", "floor", "ceil"),
				cubicA:        -0.75,
				exclude:       b.next()%2 == 0,
				antialias:     b.next()%2 == 0,
				keepAspect:    pick(&b, "stretch", "not_larger", "not_smaller"),
				extrapolation: float64(b.next()),
			}
			if b.next()%2 == 0 {
				for range r {
					p.scales = append(p.scales, pick(&b, 1, 2, 0.5, 0.37, 3.3, 1e-30, 1e30, 0, math.NaN(), 1e-6))
				}
			} else {
				for range r {
					p.sizes = append(p.sizes, pick(&b, 0, 1, 3, 7, 1000, math.MaxInt/4))
				}
			}
			for range 2 * r {
				p.roi = append(p.roi, pick(&b, 0, 1, 0.5, -2, 3, math.NaN(), math.Inf(1)))
			}
			_, _ = resize(opt, opRef{"Resize", 19}, nil, x, p)
		}
		if !x.Equal(orig) {
			t.Fatalf("the input changed")
		}
	})
}
