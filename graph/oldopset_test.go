package graph_test

import (
	"context"
	"slices"
	"testing"

	"github.com/onnxshape/onnxshape/builder"
	"github.com/onnxshape/onnxshape/tensor"
)

// Models exported by older tools use the first forms of the operators:
// Slice-1 with starts/ends/axes attributes, Split-2 with a split attribute,
// Squeeze-1 and Unsqueeze-1 with axes attributes, Pad-2 with pads and
// value attributes. An opset-7 model of them loads, resolves those versions
// and runs with exact values.
func TestOldOpsetModel(t *testing.T) {
	b := builder.New(7)
	x := b.Input("x", tensor.Float, 1, 4, 6)
	sq := b.Op("Squeeze", x, builder.Ints("axes", 0))                                                               // [4 6]
	sl := b.Op("Slice", sq, builder.Ints("starts", 1, 0), builder.Ints("ends", 3, 100), builder.Ints("axes", 0, 1)) // [2 6]
	parts := b.OpN("Split", 2, sl, builder.Int("axis", 1), builder.Ints("split", 2, 4))                             // [2 2], [2 4]
	un := b.Op("Unsqueeze", parts[0], builder.Ints("axes", 0))                                                      // [1 2 2]
	pad := b.Op("Pad", parts[1], builder.Ints("pads", 0, 1, 0, 0), builder.Float("value", -1), builder.String("mode", "constant"))
	b.Output("un", un)
	b.Output("pad", pad)
	m := load(t, b)
	v := make([]float32, 24)
	for i := range v {
		v[i] = float32(i)
	}
	out, err := m.Run(context.Background(), map[string]tensor.Value{"x": tensor.MustFromSlice(v, 1, 4, 6)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	gotUn, _ := tensor.ToSlice[float32](out.Map()["un"].(*tensor.Tensor))
	gotPad, _ := tensor.ToSlice[float32](out.Map()["pad"].(*tensor.Tensor))
	if !slices.Equal(gotUn, []float32{6, 7, 12, 13}) || !slices.Equal(out.Map()["un"].(*tensor.Tensor).Shape(), []int{1, 2, 2}) {
		t.Errorf("un = %v %v", gotUn, out.Map()["un"].(*tensor.Tensor).Shape())
	}
	if !slices.Equal(gotPad, []float32{-1, 8, 9, 10, 11, -1, 14, 15, 16, 17}) {
		t.Errorf("pad = %v", gotPad)
	}
}
