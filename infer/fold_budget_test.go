package infer_test

import (
	"testing"

	"github.com/onnxshape/onnxshape/infer"
)

// Many constants each under the cap on one folded tensor are folded only
// until their total reaches MaxFoldTotalBytes; the rest stay computed
// (300 constants of 15 MiB took 3 GB).
func TestFoldTotalBudget(t *testing.T) {
	b := newGraph()
	shape := b.ints("shape", 1<<12) // 4,096 float zeros: 16 KiB each
	var outs []string
	for range 10 {
		outs = append(outs, b.op("ConstantOfShape", []string{shape}))
	}
	b.output(outs...)
	m := b.model(13)
	folded, _, st, err := infer.FoldProto(t.Context(), m, "", &infer.Options{MaxFoldTotalBytes: 100 << 10, MaxFoldGrowth: -1})
	if err != nil {
		t.Fatal(err)
	}
	if st.Folded != 6 || len(folded.Graph.Node) != 4 || !st.Limited {
		t.Errorf("under a total of 100 KiB: %v (limited %v), want 6 of 16 KiB folded and 4 left", st, st.Limited)
	}
	// Small contents, which the rules give as dimensions, count as well.
	small := newGraph()
	eight := small.ints("shape", 8)
	outs = outs[:0]
	for range 10 {
		outs = append(outs, small.op("ConstantOfShape", []string{eight}))
	}
	small.output(outs...)
	_, _, st, err = infer.FoldProto(t.Context(), small.model(13), "", &infer.Options{MaxFoldTotalBytes: 100})
	if err != nil || st.Folded > 4 || !st.Limited {
		t.Errorf("32-byte constants under a total of 100 bytes: %v (limited %v), %v", st, st.Limited, err)
	}
	_, _, st, err = infer.FoldProto(t.Context(), m, "", &infer.Options{MaxFoldGrowth: -1})
	if err != nil || st.Folded != 10 || st.Limited {
		t.Errorf("under the default total: %v, %v", st, err)
	}
	_, _, st, err = infer.FoldProto(t.Context(), m, "", &infer.Options{MaxFoldTotalBytes: -1, MaxFoldGrowth: -1})
	if err != nil || st.Folded != 10 || st.Limited {
		t.Errorf("without a total: %v, %v", st, err)
	}
}

// Under the default growth bound, generators whose outputs dwarf their
// inputs stay nodes (ConstantOfShape turned resnet50's 80 KB into 102 MB),
// while small computed values still fold.
func TestFoldGrowthBound(t *testing.T) {
	b := newGraph()
	shape := b.ints("shape", 1<<12) // 16 KiB of zeros from one int64
	var outs []string
	for range 10 {
		outs = append(outs, b.op("ConstantOfShape", []string{shape}))
	}
	b.output(outs...)
	folded, _, st, err := infer.FoldProto(t.Context(), b.model(13), "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if st.Folded != 0 || st.Kept != 10 || len(folded.Graph.Node) != 10 || st.BytesAfter > 2*st.BytesBefore {
		t.Errorf("default bound: %v, want the 10 generators kept", st)
	}
	// With a bound of 1000x, the 16 KiB outputs of an 8-byte input still
	// dwarf it; with no bound they fold.
	_, _, st, _ = infer.FoldProto(t.Context(), b.model(13), "", &infer.Options{MaxFoldGrowth: -1})
	if st.Folded != 10 || st.Kept != 0 {
		t.Errorf("no bound: %v", st)
	}
	small := newGraph()
	eight := small.ints("shape", 8)
	small.output(small.op("ConstantOfShape", []string{eight}))
	_, _, st, _ = infer.FoldProto(t.Context(), small.model(13), "", nil)
	if st.Folded != 1 || st.Kept != 0 {
		t.Errorf("a 32-byte constant is under the floor: %v", st)
	}
}

// A MaxFoldBytes above 2 GiB does not lift the operators' cap on one
// tensor: a 3 GiB Expand stays computed, refused before it allocates.
func TestFoldPerTensorCapNeverBypassed(t *testing.T) {
	b := newGraph()
	one := b.ints("one", 1)
	y := b.op("Expand", []string{one, b.ints("shape", 3<<27)}) // 3 GiB of int64
	b.output(y)
	folded, _, st, err := infer.FoldProto(t.Context(), b.model(13), "", &infer.Options{MaxFoldBytes: 1 << 40, MaxFoldTotalBytes: -1})
	if err != nil {
		t.Fatal(err)
	}
	if st.Folded != 0 || len(folded.Graph.Node) != 1 {
		t.Errorf("a 3 GiB Expand under --max-fold-bytes 1 TiB: %v", st)
	}
}
