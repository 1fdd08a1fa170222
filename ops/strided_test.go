package ops

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/onnxshape/onnxshape/tensor"
)

// naiveCopy is the definition of copyPlan, index by index.
func naiveCopy(p copyPlan, get func(int) any, set func(int, any)) {
	n := 1
	for _, d := range p.shape {
		n *= d
	}
	idx := make([]int, len(p.shape))
	for e := 0; e < n; e++ {
		rem := e
		for k := len(p.shape) - 1; k >= 0; k-- {
			idx[k] = rem % p.shape[k]
			rem /= p.shape[k]
		}
		d, s := p.dstOff, p.srcOff
		for k := range idx {
			d += idx[k] * p.dstStrides[k]
			s += idx[k] * p.srcStrides[k]
		}
		set(d, get(s))
	}
}

// planDefinition returns a tensor of src's type and shape dstShape filled
// from src by the definition of p (naiveCopy), zero where p writes nothing.
func planDefinition(p copyPlan, src *tensor.Tensor, dstShape ...int) *tensor.Tensor {
	want := tensor.MustNew(src.DataType(), dstShape...)
	if src.DataType() == tensor.String {
		s, w := src.Strings(), want.Strings()
		naiveCopy(p, func(i int) any { return s[i] }, func(i int, v any) { w[i] = v.(string) })
		return want
	}
	size := src.DataType().Size()
	s, w := src.Bytes(), want.Bytes()
	naiveCopy(p, func(i int) any { return s[i*size : (i+1)*size] }, func(i int, v any) { copy(w[i*size:], v.([]byte)) })
	return want
}

// randomPlan returns a plan that reads every source element through a
// random permutation, with some axes reversed or broadcast.
func randomPlan(r *rand.Rand, big bool) (plan copyPlan, srcShape []int) {
	rank := r.IntN(5)
	shape := make([]int, rank)
	for i := range shape {
		shape[i] = 1 + r.IntN(5)
		if big && r.IntN(2) == 0 {
			shape[i] = 40 + r.IntN(40)
		}
	}
	srcStrides := contiguousStrides(shape)
	srcOff := 0
	for k := range shape {
		switch r.IntN(5) {
		case 0: // reverse the axis
			srcOff += (shape[k] - 1) * srcStrides[k]
			srcStrides[k] = -srcStrides[k]
		case 1: // broadcast: read index 0 only
			srcStrides[k] = 0
		}
	}
	perm := r.Perm(rank)
	p := copyPlan{shape: make([]int, rank), srcStrides: make([]int, rank), srcOff: srcOff}
	for i, k := range perm {
		p.shape[i] = shape[k]
		p.srcStrides[i] = srcStrides[k]
	}
	p.dstStrides = contiguousStrides(p.shape)
	return p, shape
}

func TestCopyPlanMatchesDefinition(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	types := []tensor.DataType{tensor.Uint8, tensor.Float16, tensor.Float, tensor.Int64, tensor.Complex128, tensor.String}
	for i := 0; i < 400; i++ {
		dt := types[i%len(types)]
		p, srcShape := randomPlan(r, i%10 == 0)
		t.Run(fmt.Sprintf("%d-%v-%v", i, dt, p.shape), func(t *testing.T) {
			src := randomTensor(r, dt, srcShape)
			want := planDefinition(p, src, p.shape...)
			orig := src.Clone()
			// As the plan runs, and again with every output streamed.
			for _, opt := range []*Options{{Threads: 2}, {Threads: 2, streamFrom: 1}} {
				got := tensor.MustNew(dt, p.shape...)
				p.run(opt, got, src)
				if !got.Equal(want) {
					t.Fatalf("plan %+v, streamed %v: copy differs from its definition", p, opt.streamFrom > 0)
				}
				if !src.Equal(orig) {
					t.Fatal("the source was modified")
				}
			}
		})
	}
}

// randomTensor returns a tensor of random bits (random strings for String).
func randomTensor(r *rand.Rand, dt tensor.DataType, shape []int) *tensor.Tensor {
	x := tensor.MustNew(dt, shape...)
	if dt == tensor.String {
		s := x.Strings()
		for i := range s {
			s[i] = fmt.Sprint(r.IntN(1000))
		}
		return x
	}
	b := x.Bytes()
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return x
}

func TestSimplifyMergesContiguousAxes(t *testing.T) {
	p := copyPlan{shape: []int{2, 1, 3, 4}, dstStrides: []int{12, 99, 4, 1}, srcStrides: []int{12, 7, 4, 1}}
	q, ok := p.simplify()
	if !ok || len(q.shape) != 1 || q.shape[0] != 24 {
		t.Fatalf("a contiguous copy must become one block, got %+v", q)
	}
	if _, ok := (copyPlan{shape: []int{3, 0}, dstStrides: []int{0, 1}, srcStrides: []int{0, 1}}).simplify(); ok {
		t.Fatal("a zero-sized plan moves nothing")
	}
}

func BenchmarkTransposeNCHWtoNHWC(b *testing.B) {
	shape := []int{8, 64, 112, 112}
	src := tensor.MustNew(tensor.Float, shape...)
	dst := tensor.MustNew(tensor.Float, 8, 112, 112, 64)
	s := contiguousStrides(shape)
	p := copyPlan{shape: []int{8, 112, 112, 64}, dstStrides: contiguousStrides([]int{8, 112, 112, 64}),
		srcStrides: []int{s[0], s[2], s[3], s[1]}}
	b.SetBytes(int64(len(dst.Bytes())))
	for b.Loop() {
		p.run(nil, dst, src)
	}
}

func BenchmarkMemcpySameBytes(b *testing.B) {
	src := tensor.MustNew(tensor.Float, 8, 64, 112, 112)
	dst := tensor.MustNew(tensor.Float, 8, 64, 112, 112)
	b.SetBytes(int64(len(dst.Bytes())))
	for b.Loop() {
		copy(dst.Bytes(), src.Bytes())
	}
}

// A string output too large for a 16-byte header per element must be
// refused by the size check, not overflow it (found by FuzzOperators).
func TestCheckSizeHugeStrings(t *testing.T) {
	s, err := Lookup("", "Expand", 13)
	if err != nil {
		t.Fatal(err)
	}
	x := tensor.MustFromSlice([]string{"a"})
	shape := tensor.MustFromSlice([]int64{math.MaxInt64})
	for _, opt := range []*Options{nil, {MaxTensorBytes: -1}} {
		if _, err := s.Run(opt, &Node{OpType: "Expand", Version: 13}, []tensor.Value{x, shape}); err == nil {
			t.Fatalf("%+v: a string tensor of MaxInt64 elements must be refused", opt)
		}
	}
	if err := (&Options{}).checkSize(opRef{"Expand", 13}, tensor.String, []int{math.MaxInt / 8}); !errors.Is(err, ErrLimit) {
		t.Fatalf("got %v", err)
	}
}

// TestInterleaveRowsPlans runs plans that interleave f source rows gap
// elements apart (DepthToSpace's blocks, the interleaveRows path), and with
// gap 0 repeat each element f times (nearest Resize by an integer factor),
// with outer axes repeated too, on every element size, against the plan's
// definition.
func TestInterleaveRowsPlans(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 3))
	for _, dt := range []tensor.DataType{tensor.Uint8, tensor.Float16, tensor.Float, tensor.Int64, tensor.Complex128, tensor.String} {
		for c := range 16 {
			f := 1 + c%4
			rows, hf, n := 1+r.IntN(5), 1+r.IntN(3), 1+r.IntN(40)
			gap := []int{0, n, n + 3, -n - 2}[c/4]
			// Output [rows, hf, n, f]: axis hf repeats rows, element k of
			// each group of f comes from the row k*gap further on.
			span := (f - 1) * max(gap, -gap)
			p := copyPlan{
				shape:      []int{rows, hf, f, n},
				dstStrides: []int{hf * n * f, n * f, 1, f},
				srcStrides: []int{span + n, 0, gap, 1},
			}
			if gap < 0 {
				p.srcOff = span
			}
			src := randomTensor(r, dt, []int{rows * (span + n)})
			want := planDefinition(p, src, rows*hf*n*f)
			for _, opt := range []*Options{{Threads: 1}, {Threads: 2, streamFrom: 1}} {
				got := tensor.MustNew(dt, rows*hf*n*f)
				p.run(opt, got, src)
				if !got.Equal(want) {
					t.Fatalf("%v, %d rows %d apart, %d rows of %d repeated %d times: the copy differs from its definition", dt, f, gap, rows, n, hf)
				}
			}
		}
	}
}

// TestStep2Plans runs rows that take every other source element (Slice
// with step 2, the pickEven path for 4-byte elements) on every element
// size and many widths, against the plan's definition.
func TestStep2Plans(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 9))
	for _, dt := range []tensor.DataType{tensor.Uint8, tensor.Float16, tensor.Float, tensor.Int32, tensor.Double} {
		for n := 1; n <= 40; n++ {
			rows := 1 + r.IntN(4)
			p := copyPlan{shape: []int{rows, n}, dstStrides: []int{n, 1}, srcStrides: []int{2 * n, 2}, srcOff: r.IntN(2)}
			src := randomTensor(r, dt, []int{p.srcOff + rows*2*n})
			want, got := planDefinition(p, src, rows*n), tensor.MustNew(dt, rows*n)
			p.run(&Options{Threads: 1}, got, src)
			if !got.Equal(want) {
				t.Fatalf("%v, %d rows of %d, offset %d: the copy differs from its definition", dt, rows, n, p.srcOff)
			}
		}
	}
}
