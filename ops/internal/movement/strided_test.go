package movement

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/onnxshape/onnxshape/tensor"
)

// naiveCopy is the definition of Plan, index by index.
func naiveCopy(p Plan, get func(int) any, set func(int, any)) {
	n := 1
	for _, d := range p.Shape {
		n *= d
	}
	idx := make([]int, len(p.Shape))
	for e := 0; e < n; e++ {
		rem := e
		for k := len(p.Shape) - 1; k >= 0; k-- {
			idx[k] = rem % p.Shape[k]
			rem /= p.Shape[k]
		}
		d, s := p.DstOff, p.SrcOff
		for k := range idx {
			d += idx[k] * p.DstStrides[k]
			s += idx[k] * p.SrcStrides[k]
		}
		set(d, get(s))
	}
}

// planDefinition returns a tensor of src's type and shape dstShape filled
// from src by the definition of p (naiveCopy), zero where p writes nothing.
func planDefinition(p Plan, src *tensor.Tensor, dstShape ...int) *tensor.Tensor {
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
func randomPlan(r *rand.Rand, big bool) (plan Plan, srcShape []int) {
	rank := r.IntN(5)
	shape := make([]int, rank)
	for i := range shape {
		shape[i] = 1 + r.IntN(5)
		if big && r.IntN(2) == 0 {
			shape[i] = 40 + r.IntN(40)
		}
	}
	srcStrides := ContiguousStrides(shape)
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
	p := Plan{Shape: make([]int, rank), SrcStrides: make([]int, rank), SrcOff: srcOff}
	for i, k := range perm {
		p.Shape[i] = shape[k]
		p.SrcStrides[i] = srcStrides[k]
	}
	p.DstStrides = ContiguousStrides(p.Shape)
	return p, shape
}

func TestCopyPlanMatchesDefinition(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	types := []tensor.DataType{tensor.Uint8, tensor.Float16, tensor.Float, tensor.Int64, tensor.Complex128, tensor.String}
	for i := 0; i < 400; i++ {
		dt := types[i%len(types)]
		p, srcShape := randomPlan(r, i%10 == 0)
		t.Run(fmt.Sprintf("%d-%v-%v", i, dt, p.Shape), func(t *testing.T) {
			src := randomTensor(r, dt, srcShape)
			want := planDefinition(p, src, p.Shape...)
			orig := src.Clone()
			// As the plan runs, and again with every output streamed.
			for _, env := range []Env{{Threads: 2}, {Threads: 2, StreamFrom: 1}} {
				got := tensor.MustNew(dt, p.Shape...)
				p.Run(env, got, src)
				if !got.Equal(want) {
					t.Fatalf("plan %+v, streamed %v: copy differs from its definition", p, env.StreamFrom > 0)
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
	p := Plan{Shape: []int{2, 1, 3, 4}, DstStrides: []int{12, 99, 4, 1}, SrcStrides: []int{12, 7, 4, 1}}
	q, ok := p.simplify()
	if !ok || len(q.Shape) != 1 || q.Shape[0] != 24 {
		t.Fatalf("a contiguous copy must become one block, got %+v", q)
	}
	if _, ok := (Plan{Shape: []int{3, 0}, DstStrides: []int{0, 1}, SrcStrides: []int{0, 1}}).simplify(); ok {
		t.Fatal("a zero-sized plan moves nothing")
	}
}

func BenchmarkTransposeNCHWtoNHWC(b *testing.B) {
	shape := []int{8, 64, 112, 112}
	src := tensor.MustNew(tensor.Float, shape...)
	dst := tensor.MustNew(tensor.Float, 8, 112, 112, 64)
	s := ContiguousStrides(shape)
	p := Plan{Shape: []int{8, 112, 112, 64}, DstStrides: ContiguousStrides([]int{8, 112, 112, 64}),
		SrcStrides: []int{s[0], s[2], s[3], s[1]}}
	b.SetBytes(int64(len(dst.Bytes())))
	for b.Loop() {
		p.Run(Env{}, dst, src)
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
			p := Plan{
				Shape:      []int{rows, hf, f, n},
				DstStrides: []int{hf * n * f, n * f, 1, f},
				SrcStrides: []int{span + n, 0, gap, 1},
			}
			if gap < 0 {
				p.SrcOff = span
			}
			// An odd destination offset: lines not 8-byte aligned.
			p.DstOff = c % 2
			src := randomTensor(r, dt, []int{rows * (span + n)})
			want := planDefinition(p, src, rows*hf*n*f+1)
			for _, env := range []Env{{Threads: 1}, {Threads: 2, StreamFrom: 1}} {
				got := tensor.MustNew(dt, rows*hf*n*f+1)
				p.Run(env, got, src)
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
			p := Plan{Shape: []int{rows, n}, DstStrides: []int{n, 1}, SrcStrides: []int{2 * n, 2}, SrcOff: r.IntN(2)}
			src := randomTensor(r, dt, []int{p.SrcOff + rows*2*n})
			want, got := planDefinition(p, src, rows*n), tensor.MustNew(dt, rows*n)
			p.Run(Env{Threads: 1}, got, src)
			if !got.Equal(want) {
				t.Fatalf("%v, %d rows of %d, offset %d: the copy differs from its definition", dt, rows, n, p.SrcOff)
			}
		}
	}
}

// Tile's and Expand's plans replicate their blocks of rows from the output;
// a repeat whose block would not be in the cache is walked from the source.
func TestRepeatedBlock(t *testing.T) {
	for _, c := range []struct {
		p    Plan
		want int
	}{
		// Expand [1,64,1,112] to [8,64,112,112]: the H repeat (a block of
		// one row); the N repeat's block is 3.2 MB.
		{Plan{Shape: []int{8, 64, 112, 112}, DstStrides: ContiguousStrides([]int{8, 64, 112, 112}), SrcStrides: []int{0, 112, 0, 1}}, 2},
		// Tile [8,64,56,56] by [1,1,2,2]: the H repeat, whose block holds
		// the W repeat.
		{Plan{Shape: []int{512, 2, 56, 2, 56}, DstStrides: ContiguousStrides([]int{512, 2, 56, 2, 56}), SrcStrides: []int{3136, 0, 56, 0, 1}}, 1},
		// No repeat.
		{Plan{Shape: []int{4, 5}, DstStrides: []int{5, 1}, SrcStrides: []int{5, 1}}, -1},
		// A repeat of a strided destination.
		{Plan{Shape: []int{4, 5}, DstStrides: []int{1, 4}, SrcStrides: []int{0, 1}}, -1},
	} {
		if got := repeatedBlock(c.p, 4); got != c.want {
			t.Errorf("%+v: axis %d, want %d", c.p, got, c.want)
		}
	}
}
