package ops

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/onnxshape/onnxshape/ops/internal/movement"
	"github.com/onnxshape/onnxshape/tensor"
)

// TestStitchAgainstElements runs Concat and Split on random shapes, wide and
// narrow rows (stitch and the plan per part), empty parts, every element
// size and on one and several cores with stretches that start inside a row,
// against an element-by-element oracle.
func TestStitchAgainstElements(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	types := []tensor.DataType{tensor.Uint8, tensor.Float16, tensor.Float, tensor.Double, tensor.Complex128, tensor.String}
	stitched := 0
	for c := range 200 {
		dt := types[c%len(types)]
		rank := 1 + rng.IntN(4)
		shape := randomShape(rng, rank, 1, 6)
		k := rng.IntN(rank)
		// Every seventh case is large enough to run on several cores.
		large := c%7 == 0
		if large {
			size, rows := dt.Size(), 1
			if dt == tensor.String {
				size = 16
			}
			for _, n := range shape[:rank-1] {
				rows *= n
			}
			shape[rank-1] = 300_000/(size*rows) + rng.IntN(100)
		} else if rng.IntN(2) == 0 {
			shape[rank-1] = 16 + rng.IntN(40)
		}
		parts := 1 + rng.IntN(4)
		sizes := make([]int, parts)
		inputs := make([]*tensor.Tensor, parts)
		for i := range inputs {
			s := slices.Clone(shape)
			if k != rank-1 || !large {
				s[k] = rng.IntN(4) // 0 included: an empty part
			}
			sizes[i] = s[k]
			inputs[i] = randomOf(rng, dt, s)
		}
		out := slices.Clone(shape)
		out[k] = 0
		for _, n := range sizes {
			out[k] += n
		}
		if _, ok := movement.NewStitch(tensor.MustNew(dt, out...), inputs, k); ok {
			stitched++
		}
		for _, threads := range []int{1, 3} {
			opt := &Options{Threads: threads}
			y, err := concat(opt, opRef{"Concat", 13}, inputs, k)
			if err != nil {
				t.Fatalf("case %d: Concat: %v", c, err)
			}
			wantElements(t, y, concatOracle(inputs, sizes, k), out, func(idx []int) []int { return idx })
			x := y
			got, err := split(opt, opRef{"Split", 18}, x, splitParams{axis: k, split: sizes})
			if err != nil {
				t.Fatalf("case %d: Split: %v", c, err)
			}
			for i, p := range got {
				wantElements(t, p, inputs[i], inputs[i].Shape(), func(idx []int) []int { return idx })
			}
		}
	}
	t.Logf("%d of 200 cases took stitch", stitched)
	if stitched < 40 || stitched > 160 {
		t.Fatalf("%d of 200 cases took stitch: both paths need cover", stitched)
	}
}

// TestStitchLargeRows joins and cuts rows of 64 KB and more (copyBytes's
// REP MOVSB on amd64), on one core and on several.
func TestStitchLargeRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 13))
	a, b := randomOf(rng, tensor.Float, []int{3, 17000}), randomOf(rng, tensor.Float, []int{3, 20001})
	for _, threads := range []int{1, 3} {
		opt := &Options{Threads: threads}
		y, err := concat(opt, opRef{"Concat", 13}, []*tensor.Tensor{a, b}, 1)
		if err != nil {
			t.Fatal(err)
		}
		wantElements(t, y, concatOracle([]*tensor.Tensor{a, b}, []int{17000, 20001}, 1), []int{3, 37001}, func(idx []int) []int { return idx })
		parts, err := split(opt, opRef{"Split", 18}, y, splitParams{axis: 1, split: []int{17000, 20001}})
		if err != nil {
			t.Fatal(err)
		}
		if !parts[0].Equal(a) || !parts[1].Equal(b) {
			t.Fatalf("%d threads: Split does not give the inputs of Concat back", threads)
		}
	}
}
