package ops_test

import (
	"math/rand/v2"
	"testing"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/reference"
	"github.com/onnxshape/onnxshape/tensor"
)

// ScatterND without a reduction gives what the reference engine gives
// whether its slices cover the output (data is then not copied), cover it
// with repeats (the last update wins), or cover part of it; slices that
// never overlap are written across cores when they are many bytes.
func TestScatterNDCoverage(t *testing.T) {
	s, err := ops.Lookup("", "ScatterND", 18)
	if err != nil {
		t.Fatal(err)
	}
	ref, ok := reference.Kernel("", "ScatterND", s.Since)
	if !ok {
		t.Fatal("no reference ScatterND")
	}
	r := rand.New(rand.NewPCG(26, 18))
	types := []tensor.DataType{tensor.Float, tensor.Uint8, tensor.Int64, tensor.Float16}
	for iter := range 120 {
		ds := []int{1 + r.IntN(6), 1 + r.IntN(5), 2 + r.IntN(40)}
		if iter%10 == 0 {
			ds = []int{16, 8, 2048} // 256 slices of 8 KB and more: across cores
		}
		k := 1 + r.IntN(2)
		slots := ds[0]
		if k == 2 {
			slots *= ds[1]
		}
		var tuples []int
		switch iter % 3 {
		case 0: // every slot once, shuffled
			tuples = r.Perm(slots)
		case 1: // every slot, some twice
			tuples = append(r.Perm(slots), r.Perm(slots)[:r.IntN(slots)+1]...)
		default: // some slots
			tuples = r.Perm(slots)[:r.IntN(slots)]
		}
		idx := make([]int64, 0, len(tuples)*k)
		for _, v := range tuples {
			if k == 1 {
				idx = append(idx, int64(v)-int64(r.IntN(2)*ds[0]))
			} else {
				idx = append(idx, int64(v/ds[1]), int64(v%ds[1]))
			}
		}
		dt := types[r.IntN(len(types))]
		us := append([]int{len(tuples)}, ds[k:]...)
		data, upd := randomTensor(t, r, dt, ds), randomTensor(t, r, dt, us)
		it := tensor.MustFromSlice(idx, len(tuples), k)
		node := &ops.Node{OpType: "ScatterND", Version: s.Since, NumOutputs: 1}
		in := []tensor.Value{data, it, upd}
		got, err := s.Run(nil, node, in)
		if err != nil {
			t.Fatalf("%d: %v", iter, err)
		}
		want, err := ref(nil, node, in)
		if err != nil {
			t.Fatalf("%d: reference: %v", iter, err)
		}
		if !got[0].(*tensor.Tensor).Equal(want[0].(*tensor.Tensor)) {
			t.Fatalf("%d: %v data %v, %d tuples of %d: outputs differ", iter, dt, ds, len(tuples), k)
		}
	}
}
