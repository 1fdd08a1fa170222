package ops

import (
	"math/rand/v2"
	"testing"

	"github.com/onnxshape/onnxshape/ops/internal/movement"
	"github.com/onnxshape/onnxshape/tensor"
)

func TestTranspose(t *testing.T) {
	y, err := Transpose(tensor.MustFromSlice([]float32{1, 2, 3, 4, 5, 6}, 2, 3), TransposeOptions{})
	checkRule(t, err, "")
	checkFloats(t, y, []int{3, 2}, []float32{1, 4, 2, 5, 3, 6})

	cases := []struct {
		name string
		in   []int
		perm []int
		want []int
		rule string
	}{
		// The cases of the ONNX node tests test_transpose_*.
		{name: "default", in: []int{2, 3, 4}, want: []int{4, 3, 2}},
		{name: "all permutations 0", in: []int{2, 3, 4}, perm: []int{0, 1, 2}, want: []int{2, 3, 4}},
		{name: "all permutations 1", in: []int{2, 3, 4}, perm: []int{0, 2, 1}, want: []int{2, 4, 3}},
		{name: "all permutations 2", in: []int{2, 3, 4}, perm: []int{1, 0, 2}, want: []int{3, 2, 4}},
		{name: "all permutations 3", in: []int{2, 3, 4}, perm: []int{1, 2, 0}, want: []int{3, 4, 2}},
		{name: "all permutations 4", in: []int{2, 3, 4}, perm: []int{2, 0, 1}, want: []int{4, 2, 3}},
		{name: "all permutations 5", in: []int{2, 3, 4}, perm: []int{2, 1, 0}, want: []int{4, 3, 2}},
		// More.
		{name: "scalar", in: []int{}, want: []int{}},
		{name: "scalar, empty perm", in: []int{}, perm: []int{}, want: []int{}},
		{name: "zero-sized", in: []int{2, 0, 3}, perm: []int{2, 0, 1}, want: []int{3, 2, 0}},
		{name: "NCHW to NHWC", in: []int{2, 16, 9, 11}, perm: []int{0, 2, 3, 1}, want: []int{2, 9, 11, 16}},
		{name: "tiled", in: []int{40, 70}, perm: []int{1, 0}, want: []int{70, 40}},
		{name: "too short", in: []int{2, 3}, perm: []int{0}, rule: "perm"},
		{name: "too long", in: []int{2, 3}, perm: []int{0, 1, 2}, rule: "perm"},
		{name: "empty reverses", in: []int{2, 3}, perm: []int{}, want: []int{3, 2}},
		{name: "repeated", in: []int{2, 3}, perm: []int{1, 1}, rule: "perm"},
		{name: "negative", in: []int{2, 3}, perm: []int{-1, 0}, rule: "perm"},
		{name: "out of range", in: []int{2, 3}, perm: []int{2, 0}, rule: "perm"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			x := iota32(c.in...)
			c0 := x.Clone()
			attrs := map[string]Attribute{}
			if c.perm != nil {
				attrs["perm"] = Attribute{Type: AttrInts, Ints: toInt64s(c.perm)}
			}
			y, err := runNode(nil, "Transpose", 25, attrs, x)
			checkRule(t, err, c.rule)
			unchanged(t, x, c0)
			if err != nil {
				return
			}
			perm := c.perm
			if len(perm) == 0 {
				perm = make([]int, len(c.in))
				for k := range perm {
					perm[k] = len(perm) - 1 - k
				}
			}
			want := transposeOracle(x, perm)
			if !tensor.SameShape(y.Shape(), c.want) || !y.Equal(want) {
				t.Fatalf("got %v %v, want %v %v", y.Shape(), mustFloats(y), c.want, mustFloats(want))
			}
			if s, err := transposeShape(opRef{"Transpose", 25}, c.in, c.perm); err != nil || !tensor.SameShape(s, c.want) {
				t.Fatalf("transposeShape = %v, %v; want %v", s, err, c.want)
			}
		})
	}
}

// Transpose-1 and -13 are the same operator for the node kernel.
func TestTransposeVersions(t *testing.T) {
	x := iota32(2, 3)
	for _, v := range []int{1, 13, 21, 23, 24, 25} {
		y, err := runNode(nil, "Transpose", v, map[string]Attribute{"perm": ints(1, 0)}, x)
		checkRule(t, err, "")
		checkFloats(t, y, []int{3, 2}, []float32{0, 3, 1, 4, 2, 5})
	}
}

// transposeOracle is Transpose computed element by element.
func transposeOracle(x *tensor.Tensor, perm []int) *tensor.Tensor {
	return oracle(x, movement.Permuted(x.Shape(), perm), func(idx []int) []int {
		src := make([]int, len(idx))
		for k, a := range perm {
			src[a] = idx[k]
		}
		return src
	})
}

func toInt64s(v []int) []int64 {
	out := make([]int64, len(v))
	for i, x := range v {
		out[i] = int64(x)
	}
	return out
}

// Transposing by a permutation then by its inverse gives back the input,
// for random shapes, permutations and types; each transpose matches the
// element-by-element oracle.
func TestTransposeProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, dt := range typesUnderTest {
		for range 30 {
			in := randomShape(rng, rng.IntN(6), 1, 9)
			if rng.IntN(8) == 0 && len(in) >= 2 {
				in[0], in[len(in)-1] = 40+rng.IntN(30), 33+rng.IntN(30) // big enough to be tiled
			}
			x := randomValidTensor(rng, dt, in)
			c := x.Clone()
			perm := rng.Perm(len(in))
			inv := make([]int, len(perm))
			for k, a := range perm {
				inv[a] = k
			}
			y, err := Transpose(x, TransposeOptions{Perm: perm})
			if err != nil {
				t.Fatal(err)
			}
			if !y.Equal(transposeOracle(x, perm)) {
				t.Fatalf("%v %v perm %v: differs from the oracle", dt, in, perm)
			}
			z, err := Transpose(y, TransposeOptions{Perm: inv})
			if err != nil {
				t.Fatal(err)
			}
			if !z.Equal(x) {
				t.Fatalf("%v %v perm %v: the inverse permutation does not give back the input", dt, in, perm)
			}
			unchanged(t, x, c)
		}
	}
}

// Every type that ONNX has moves through Transpose.
func TestTransposeAllTypes(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, dt := range tensor.AllTypes() {
		x := randomValidTensor(rng, dt, []int{3, 4, 5})
		y, err := Transpose(x, TransposeOptions{Perm: []int{2, 0, 1}})
		if err != nil || !y.Equal(transposeOracle(x, []int{2, 0, 1})) {
			t.Fatalf("%v: wrong transpose (%v)", dt, err)
		}
	}
}

func TestTransposeSizeLimit(t *testing.T) {
	x := iota32(16, 16)
	_, err := runNode(&Options{MaxTensorBytes: 100}, "Transpose", 25, nil, x)
	checkRule(t, err, "size")
}

// BenchmarkTransposeOp moves a float32 NCHW batch [8, 64, 112, 112] (25.7
// MB) to NHWC through the operator, on every core and on one, beside a
// plain copy() of as many bytes into a new tensor (allocation included on
// both sides).
func BenchmarkTransposeOp(b *testing.B) {
	x := tensor.MustNew(tensor.Float, 8, 64, 112, 112)
	b.Run("NCHW_to_NHWC", func(b *testing.B) {
		b.SetBytes(int64(len(x.Bytes())))
		for b.Loop() {
			if _, err := Transpose(x, TransposeOptions{Perm: []int{0, 2, 3, 1}}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("NCHW_to_NHWC_1_thread", func(b *testing.B) {
		b.SetBytes(int64(len(x.Bytes())))
		for b.Loop() {
			if _, err := transpose(&Options{Threads: 1}, opRef{"Transpose", 25}, x, []int{0, 2, 3, 1}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("copy_same_bytes", func(b *testing.B) {
		b.SetBytes(int64(len(x.Bytes())))
		for b.Loop() {
			dst := tensor.MustNew(tensor.Float, 8, 112, 112, 64)
			copy(dst.Bytes(), x.Bytes())
		}
	})
}
