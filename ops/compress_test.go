package ops

import (
	"bytes"
	"testing"

	"github.com/onnxshape/onnxshape/tensor"
)

// TestCompressAcrossCores checks a Compress large enough to be shared
// between cores against the plain walk of its definition, on blocks of
// one element (no axis: the 4-byte path) and of whole channel planes.
func TestCompressAcrossCores(t *testing.T) {
	x := tensor.MustNew(tensor.Float, 4, 64, 3000)
	for i := range x.Bytes() {
		x.Bytes()[i] = byte(i * 7)
	}
	f := elems[float32](x)
	one := int64(1)
	for _, c := range []struct {
		axis *int64
		dim  int
	}{{&one, 64}, {nil, x.Len()}} {
		cond := tensor.MustNew(tensor.Bool, c.dim)
		for i := range c.dim {
			cond.Bytes()[i] = byte(min(1, i%3))
		}
		var want []float32
		if c.axis == nil {
			for i, v := range f {
				if cond.Bytes()[i] != 0 {
					want = append(want, v)
				}
			}
		} else {
			for o := range 4 {
				for ch := range 64 {
					if cond.Bytes()[ch] != 0 {
						want = append(want, f[(o*64+ch)*3000:(o*64+ch+1)*3000]...)
					}
				}
			}
		}
		for _, threads := range []int{1, 2} {
			y, err := Compress(x, cond, CompressOptions{Axis: c.axis}, WithThreads(threads))
			if err != nil {
				t.Fatal(err)
			}
			w := tensor.MustNew(tensor.Float, len(want))
			copy(elems[float32](w), want)
			if !bytes.Equal(y.Bytes(), w.Bytes()) {
				t.Errorf("axis %v, threads %d: Compress differs from its definition", c.axis, threads)
			}
		}
	}
}
