package builder

import (
	"context"
	"strings"
	"testing"

	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/onnx"
	"github.com/onnxshape/onnxshape/tensor"
)

// A letterbox pipeline built in Go round-trips through the file format and
// runs in onnxshape with the values the operators give one by one.
func TestBuildRoundTrip(t *testing.T) {
	b := New(21)
	img := b.Input("image", tensor.Uint8, 1, 2, 3, 1)
	nchw := b.Op("Transpose", img, Ints("perm", 0, 3, 1, 2))
	padded := b.Op("Pad", nchw, b.Ints64("pads", 0, 0, 0, 0, 0, 0, 1, 0), None, None, String("mode", "constant"))
	parts := b.OpN("Split", 2, padded, b.Ints64("split", 2, 1), Int("axis", 2))
	b.Output("top", parts[0])
	b.Output("bottom", parts[1])
	data, err := b.Encode()
	if err != nil {
		t.Fatal(err)
	}
	mp, err := onnx.DecodeModel(data)
	if err != nil {
		t.Fatal(err)
	}
	if got := onnx.DescribeType(mp.GetGraph().GetOutput()[0].GetType()); got != "tensor(uint8)[1,1,2,3]" {
		t.Errorf("declared output type %s", got)
	}
	if mp.GetIrVersion() != 10 || mp.GetOpsetImport()[0].GetVersion() != 21 {
		t.Errorf("ir %d opset %v", mp.GetIrVersion(), mp.GetOpsetImport())
	}
	m, err := graph.LoadBytes(data, "")
	if err != nil {
		t.Fatal(err)
	}
	x := tensor.MustFromSlice([]uint8{1, 2, 3, 4, 5, 6}, 1, 2, 3, 1)
	out, err := m.Run(context.Background(), map[string]tensor.Value{"image": x}, nil)
	if err != nil {
		t.Fatal(err)
	}
	top, _ := tensor.ToSlice[uint8](out.Map()["top"].(*tensor.Tensor))
	bottom, _ := tensor.ToSlice[uint8](out.Map()["bottom"].(*tensor.Tensor))
	if string(top) != string([]uint8{1, 2, 3, 4, 5, 6}) || string(bottom) != string([]uint8{0, 0, 0}) {
		t.Errorf("top %v bottom %v", top, bottom)
	}
}

func TestBuildErrors(t *testing.T) {
	cases := []struct {
		name  string
		build func(b *Builder)
		want  string
	}{
		{"no output", func(b *Builder) { b.Input("x", tensor.Float, 2) }, "no output"},
		{"name twice", func(b *Builder) {
			x := b.Input("x", tensor.Float, 2)
			b.Input("x", tensor.Float, 2)
			b.Output("y", b.Op("Identity", x))
		}, "used twice"},
		{"foreign value", func(b *Builder) {
			b.Input("x", tensor.Float, 2)
			b.Output("y", b.Op("Identity", Value{"nope"}))
		}, `input "nope" is not a value`},
		{"bad node", func(b *Builder) {
			x := b.Input("x", tensor.Float, 2, 3)
			b.Output("y", b.Op("Transpose", x, Ints("perm", 0, 0)))
		}, "Transpose"},
		{"unknown operator", func(b *Builder) {
			x := b.Input("x", tensor.Float, 2)
			b.Output("y", b.Op("Conv", x))
		}, "Conv"},
		{"unknown attribute", func(b *Builder) {
			x := b.Input("x", tensor.Float, 2)
			b.Output("y", b.Op("Unsqueeze", x, b.Ints64("axes", 0), Ints("axes", 0)))
		}, "Unsqueeze: Unsqueeze-21 [attribute] attribute axes is not one Unsqueeze-21 takes"},
		{"attribute of another type", func(b *Builder) {
			x := b.Input("x", tensor.Float, 2)
			b.Output("y", b.Op("Concat", x, x, Ints("axis", 0)))
		}, "attribute axis is of type ints, Concat-13 takes it as int"},
		{"rename an input", func(b *Builder) { b.Output("y", b.Input("x", tensor.Float, 2)) }, "cannot be renamed"},
	}
	for _, c := range cases {
		b := New(21)
		c.build(b)
		if _, err := b.ModelProto(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.name, err, c.want)
		}
	}
	if _, err := New(3).ModelProto(); err == nil {
		t.Error("opset 3 must be refused")
	}
	if _, err := New(graph.NewestOpset + 1).ModelProto(); err == nil {
		t.Errorf("opset %d must be refused", graph.NewestOpset+1)
	}
}

// The newest opset builds its operators (SwiGLU-28) with the IR version
// ONNX writes beside it.
func TestNewestOpset(t *testing.T) {
	b := New(graph.NewestOpset)
	gate, value := b.Input("gate", tensor.Float, 2), b.Input("value", tensor.Float, 2)
	b.Output("y", b.Op("SwiGLU", gate, value))
	data, err := b.Encode()
	if err != nil {
		t.Fatal(err)
	}
	mp, err := onnx.DecodeModel(data)
	if err != nil {
		t.Fatal(err)
	}
	if mp.GetIrVersion() != 13 || mp.GetOpsetImport()[0].GetVersion() != graph.NewestOpset {
		t.Errorf("ir %d opset %v", mp.GetIrVersion(), mp.GetOpsetImport())
	}
}

// Named nodes name their output too, and every intermediate value gets its
// declared type (value_info), so a checker sees each node before a run.
func TestNamesAndValueInfo(t *testing.T) {
	b := New(21)
	x := b.Input("x", tensor.Int64, 2, 3)
	mid := b.Op("Transpose", Name("swap"), x)
	b.Output("y", b.Op("Unsqueeze", mid, b.Ints64("axes", 0)))
	m, err := b.ModelProto()
	if err != nil {
		t.Fatal(err)
	}
	if mid.Name() != "swap" || m.GetGraph().GetNode()[0].GetName() != "swap" {
		t.Errorf("node %q, value %q", m.GetGraph().GetNode()[0].GetName(), mid.Name())
	}
	vi := m.GetGraph().GetValueInfo()
	if len(vi) != 1 || vi[0].GetName() != "swap" || onnx.DescribeType(vi[0].GetType()) != "tensor(int64)[3,2]" {
		t.Errorf("value_info %v", vi)
	}
	b2 := New(21)
	y := b2.Input("y", tensor.Int64, 2)
	b2.Op("Identity", Name("n"), y)
	b2.Op("Identity", Name("n"), y)
	if _, err := b2.ModelProto(); err == nil || !strings.Contains(err.Error(), "used twice") {
		t.Errorf("a node name used twice: %v", err)
	}
}
