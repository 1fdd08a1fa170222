package movement

import (
	"testing"

	"github.com/onnxshape/onnxshape/tensor"
)

// The copy engine on the shapes of the standard benchmark cases,
// without the model runner around it, beside a plain copy of the same
// bytes. Run with
//
//	go test ./ops -run XXX -bench CopyPlan -cpuprofile cpu.prof
//
// The output tensors are allocated once, so these measure the copy alone;
// `onnxshape bench` measures a whole run, output allocation included.

// permutedPlan is the plan of a transpose of a contiguous tensor of shape in
// by perm into a contiguous output.
func permutedPlan(in []int, perm []int) Plan {
	inStrides := ContiguousStrides(in)
	out := make([]int, len(in))
	src := make([]int, len(in))
	for i, p := range perm {
		out[i] = in[p]
		src[i] = inStrides[p]
	}
	return Plan{Shape: out, DstStrides: ContiguousStrides(out), SrcStrides: src}
}

// swapInner exchanges the two innermost axes of p: the same copy, walked in
// another order.
func swapInner(p Plan) Plan {
	r := len(p.Shape)
	q := Plan{Shape: append([]int{}, p.Shape...), DstStrides: append([]int{}, p.DstStrides...),
		SrcStrides: append([]int{}, p.SrcStrides...), DstOff: p.DstOff, SrcOff: p.SrcOff}
	for _, s := range [][]int{q.Shape, q.DstStrides, q.SrcStrides} {
		s[r-1], s[r-2] = s[r-2], s[r-1]
	}
	return q
}

// fill writes every byte of b: memory never written maps to the kernel's
// one zero page, which would make reading it look free.
func fill(b []byte) {
	for i := range b {
		b[i] = byte(i)
	}
}

func benchPlan(b *testing.B, p Plan, dstElems, srcElems int, threads int) {
	dst := tensor.MustNew(tensor.Float, dstElems)
	src := tensor.MustNew(tensor.Float, srcElems)
	fill(src.Bytes())
	env := Env{Threads: threads}
	n := 4
	for _, d := range p.Shape {
		n *= d
	}
	b.SetBytes(int64(n))
	b.ResetTimer()
	for b.Loop() {
		p.Run(env, dst, src)
	}
}

func BenchmarkCopyPlan(b *testing.B) {
	nchw := []int{8, 64, 112, 112}
	const big = 8 * 64 * 112 * 112
	cases := []struct {
		name     string
		plan     Plan
		dst, src int
	}{
		{"contiguous", Plan{Shape: nchw, DstStrides: ContiguousStrides(nchw), SrcStrides: ContiguousStrides(nchw)}, big, big},
		{"nchw_nhwc", permutedPlan(nchw, []int{0, 2, 3, 1}), big, big},
		{"nhwc_nchw", permutedPlan([]int{8, 112, 112, 64}, []int{0, 3, 1, 2}), big, big},
		{"transpose_2d", permutedPlan([]int{2048, 2048}, []int{1, 0}), 2048 * 2048, 2048 * 2048},
		// Slice with steps 2 on H and W.
		{"slice_step2", Plan{Shape: []int{8, 64, 56, 56},
			DstStrides: ContiguousStrides([]int{8, 64, 56, 56}),
			SrcStrides: []int{64 * 112 * 112, 112 * 112, 2 * 112, 2}}, big / 4, big},
		// Expand [1,64,1,112] to [8,64,112,112]: broadcast on N and H.
		{"expand", Plan{Shape: nchw, DstStrides: ContiguousStrides(nchw),
			SrcStrides: []int{0, 112, 0, 1}}, big, 64 * 112},
		// Tile [8,64,56,56] by [1,1,2,2]: each row twice, each block of rows twice.
		{"tile_1122", Plan{Shape: []int{8, 64, 2, 56, 2, 56},
			DstStrides: ContiguousStrides([]int{8, 64, 2, 56, 2, 56}),
			SrcStrides: []int{64 * 56 * 56, 56 * 56, 0, 56, 0, 1}}, big, big / 4},
		// One of the two inputs of Concat on axis 3: rows of 56 into rows of 112.
		{"concat_axis3_half", Plan{Shape: []int{8, 64, 112, 56},
			DstStrides: []int{64 * 112 * 112, 112 * 112, 112, 1},
			SrcStrides: ContiguousStrides([]int{8, 64, 112, 56})}, big, big / 2},
		// DepthToSpace DCR of [8,256,56,56] by 2 as a 6-D transpose.
		{"depthtospace_dcr", permutedPlan([]int{8, 2, 2, 64, 56, 56}, []int{0, 3, 4, 1, 5, 2}), big, big},
		// The same plan with its two inner axes swapped: the inner loop runs
		// along W (contiguous in the source, stride 2 in the output).
		// SpaceToDepth of [8,64,112,112] by 2: each output row reads every
		// other element of an input row.
		{"spacetodepth", permutedPlan([]int{8, 64, 56, 2, 56, 2}, []int{0, 3, 5, 1, 2, 4}), big, big},
		// Nearest Resize/Upsample by 2 of [8,64,56,56]: each row's elements
		// twice over (interleaveRows), each output row twice.
		{"nearest_2x", Plan{Shape: []int{8, 64, 56, 2, 2, 56},
			DstStrides: []int{64 * 112 * 112, 112 * 112, 2 * 112, 112, 1, 2},
			SrcStrides: []int{64 * 56 * 56, 56 * 56, 56, 0, 0, 1}}, big, big / 4},
		{"depthtospace_dcr_w_inner", swapInner(permutedPlan([]int{8, 2, 2, 64, 56, 56}, []int{0, 3, 4, 1, 5, 2})), big, big},
	}
	for _, c := range cases {
		for _, threads := range []int{1, 2} {
			name := c.name + "/threads=" + string(rune('0'+threads))
			b.Run(name, func(b *testing.B) { benchPlan(b, c.plan, c.dst, c.src, threads) })
		}
	}
}

// BenchmarkMemcpy is the yardstick: one copy() of the bytes of a
// [8,64,112,112] float32 tensor.
func BenchmarkMemcpy(b *testing.B) {
	const n = 8 * 64 * 112 * 112 * 4
	dst, src := make([]byte, n), make([]byte, n)
	fill(src)
	b.SetBytes(n)
	for b.Loop() {
		copy(dst, src)
	}
}

// BenchmarkNewTensor is what a run pays before it copies anything: the
// allocation (and zeroing) of a [8,64,112,112] float32 output.
func BenchmarkNewTensor(b *testing.B) {
	b.SetBytes(8 * 64 * 112 * 112 * 4)
	for b.Loop() {
		if _, err := tensor.New(tensor.Float, 8, 64, 112, 112); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkNewTensorAndCopy is the floor of any run that allocates its
// output: a fresh [8,64,112,112] float32 tensor, then one copy() into it.
func BenchmarkNewTensorAndCopy(b *testing.B) {
	const n = 8 * 64 * 112 * 112 * 4
	src := make([]byte, n)
	fill(src)
	b.SetBytes(n)
	for b.Loop() {
		t, err := tensor.New(tensor.Float, 8, 64, 112, 112)
		if err != nil {
			b.Fatal(err)
		}
		copy(t.Bytes(), src)
	}
}
