package ops

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/onnxshape/onnxshape/ops/internal/movement"
	"github.com/onnxshape/onnxshape/tensor"
)

// TestStreamsPolicy pins when the copy engine streams: from streamMin bytes
// written and read, a broadcast counting what it reads, never where the
// platform has no streaming stores.
func TestStreamsPolicy(t *testing.T) {
	half := movement.StreamMin / 2
	for _, c := range []struct {
		written, source int
		want            bool
	}{
		{half, half, true},                                 // a transpose at the threshold
		{half - 4, half, false},                            // just below
		{25_690_112, 28 << 10, false},                      // Expand: 25.7 MB from 28 KB stays in the cache
		{movement.StreamMin, movement.StreamMin * 4, true}, // a Slice of a larger source
		{0, 0, false},
	} {
		want := c.want && movement.HaveStreamStores
		if got := (*Options)(nil).streams(c.written, c.source); got != want {
			t.Errorf("streams(%d, %d) = %v, want %v", c.written, c.source, got, want)
		}
	}
	if movement.HaveStreamStores && !(&Options{streamFrom: 1}).streams(1, 1) {
		t.Error("streamFrom does not lower the threshold")
	}
}

// TestStreamedOperators runs the operators whose copies stream on outputs
// streamed and not, on every element size, and wants the same bytes.
func TestStreamedOperators(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	for _, dt := range []tensor.DataType{tensor.Uint8, tensor.Float16, tensor.Float, tensor.Double, tensor.Complex128} {
		x := randomTensor(rng, dt, []int{2, 12, 20, 36})
		wide := randomTensor(rng, dt, []int{200, 4096 / dt.Size()})
		runs := []struct {
			name string
			f    func(opt *Options) (*tensor.Tensor, error)
		}{
			{"Transpose to NHWC", func(opt *Options) (*tensor.Tensor, error) {
				return transpose(opt, opRef{"Transpose", 21}, x, []int{0, 2, 3, 1})
			}},
			{"Transpose to NCHW", func(opt *Options) (*tensor.Tensor, error) {
				return transpose(opt, opRef{"Transpose", 21}, x, []int{0, 3, 1, 2})
			}},
			{"SpaceToDepth", func(opt *Options) (*tensor.Tensor, error) {
				return spaceToDepth(opt, opRef{"SpaceToDepth", 13}, x, 2)
			}},
			{"Tile", func(opt *Options) (*tensor.Tensor, error) {
				return tile(opt, opRef{"Tile", 13}, x, []int{1, 2, 1, 2})
			}},
			// Rows of 4 KB and more: the tiles for strides that share cache
			// sets, taller when streamed.
			{"Transpose 2-D", func(opt *Options) (*tensor.Tensor, error) {
				return transpose(opt, opRef{"Transpose", 21}, wide, []int{1, 0})
			}},
		}
		for _, r := range runs {
			want, err := r.f(&Options{Threads: 2})
			if err != nil {
				t.Fatalf("%v %s: %v", dt, r.name, err)
			}
			got, err := r.f(&Options{Threads: 2, streamFrom: 1})
			if err != nil {
				t.Fatalf("%v %s streamed: %v", dt, r.name, err)
			}
			if !got.Equal(want) {
				t.Errorf("%v %s: the streamed output differs", dt, r.name)
			}
			if r.name == "Transpose 2-D" && !isTransposeOf(got, wide) {
				t.Errorf("%v %s: the output is not the transpose", dt, r.name)
			}
		}
	}
}

// isTransposeOf reports whether y, of shape [n, m], holds x's [m, n]
// elements transposed, byte for byte.
func isTransposeOf(y, x *tensor.Tensor) bool {
	m, n, size := x.Shape()[0], x.Shape()[1], x.DataType().Size()
	yb, xb := y.Bytes(), x.Bytes()
	for i := range m {
		for j := range n {
			if !bytes.Equal(yb[(j*m+i)*size:][:size], xb[(i*n+j)*size:][:size]) {
				return false
			}
		}
	}
	return true
}

// TestStreamedFunctions runs the float32 functions whose large calls
// stream their stores (Exp, Sigmoid, Tanh, Erf, Softsign) with and
// without streaming, one and two threads, on rows whose streamed parts
// start past a head, and wants the same bits.
func TestStreamedFunctions(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	x := randomOf(rng, tensor.Float, []int{3, 40001})
	for op, version := range map[string]int{"Exp": 13, "Sigmoid": 13, "Tanh": 13, "Erf": 13, "Softsign": 22} {
		want, err := runNode(&Options{Threads: 1}, op, version, nil, x)
		if err != nil {
			t.Fatal(op, err)
		}
		for _, threads := range []int{1, 2} {
			got, err := runNode(&Options{Threads: threads, streamFrom: 1}, op, version, nil, x)
			if err != nil {
				t.Fatal(op, err)
			}
			if !bytes.Equal(got.Bytes(), want.Bytes()) {
				t.Errorf("%s, %d threads: the streamed output differs", op, threads)
			}
		}
	}
}
