package elementwise

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/onnxshape/onnxshape/tensor"
)

// RunSingle gives what the walk gives, for the vectorized and the plain
// loops, on scalars and one-element tensors of any rank.
func TestRunSingleMatchesWalk(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	add := BinarySpans[float32, float32, float32]{
		Both: func(o, a, b []float32) {
			for i := range o {
				o[i] = a[i] + b[i]
			}
		},
		Left: func(o []float32, a float32, b []float32) {
			for i := range o {
				o[i] = a + b[i]
			}
		},
		Right: func(o, a []float32, b float32) {
			for i := range o {
				o[i] = a[i] + b
			}
		},
	}
	less := Binary(func(a, b int64) bool { return a < b })
	shapes := [][]int{{}, {1}, {1, 1, 1}}
	for _, sa := range shapes {
		for _, sb := range shapes {
			out := sa
			if len(sb) > len(sa) {
				out = sb
			}
			for _, k := range []BinaryKernel{add, Vectorized("Add", add)} {
				a, b := tensor.MustNew(tensor.Float, sa...), tensor.MustNew(tensor.Float, sb...)
				Elems[float32](a)[0], Elems[float32](b)[0] = rng.Float32(), float32(math.Inf(-1))*float32(rng.IntN(2))
				got, want := tensor.MustNew(tensor.Float, out...), tensor.MustNew(tensor.Float, out...)
				if ok, err := RunSingle(Config{}, k, got, a, b); !ok || err != nil {
					t.Fatalf("%T has no single path", k)
				}
				if err := k.Run(Config{Threads: 1}, NewWalk(out, sa, sb), want, a, b); err != nil {
					t.Fatal(err)
				}
				if !got.Equal(want) {
					t.Errorf("%v + %v: %v, want %v", sa, sb, got, want)
				}
			}
			a, b := tensor.MustNew(tensor.Int64, sa...), tensor.MustNew(tensor.Int64, sb...)
			Elems[int64](a)[0], Elems[int64](b)[0] = rng.Int64N(3), rng.Int64N(3)
			got, want := tensor.MustNew(tensor.Bool, out...), tensor.MustNew(tensor.Bool, out...)
			if _, err := RunSingle(Config{}, less, got, a, b); err != nil {
				t.Fatal(err)
			}
			if err := less.Run(Config{Threads: 1}, NewWalk(out, sa, sb), want, a, b); err != nil {
				t.Fatal(err)
			}
			if !got.Equal(want) {
				t.Errorf("%v < %v: %v, want %v", sa, sb, got, want)
			}
		}
	}
	// A kernel without the path says so.
	if ok, _ := RunSingle(Config{}, halfBinary[float32]{f32: add}, nil, nil, nil); ok {
		t.Error("the 16-bit kernel claims a single path")
	}
}
