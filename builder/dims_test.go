package builder_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/onnxshape/onnxshape/builder"
	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/tensor"
)

// One model with symbolic height and width runs on images of any size, and
// declares its outputs with the names of the dimensions they follow.
func TestSymbolicInput(t *testing.T) {
	b := builder.New(21)
	img := b.InputDims("image", tensor.Uint8, graph.Const(1), graph.Sym("H"), graph.Sym("W"), graph.Const(3))
	nchw := b.Op("Transpose", img, builder.Ints("perm", 0, 3, 1, 2))
	b.Output("pixels", nchw)
	b.Output("shape", b.Op("Shape", nchw))
	m, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	if got := m.Inputs()[0].Describe(); got != "tensor(uint8)[1,H,W,3]" {
		t.Errorf("input declared %s", got)
	}
	if got := m.Outputs()[0].Describe(); got != "tensor(uint8)[1,3,H,W]" {
		t.Errorf("output declared %s", got)
	}
	if got := m.Outputs()[1].Describe(); got != "tensor(int64)[4]" {
		t.Errorf("shape output declared %s", got)
	}
	for _, hw := range [][2]int{{2, 5}, {7, 3}} {
		res, err := m.Run(context.Background(), map[string]tensor.Value{
			"image": tensor.MustNew(tensor.Uint8, 1, hw[0], hw[1], 3)}, nil)
		if err != nil {
			t.Fatal(err)
		}
		p, _ := res.Tensor("pixels")
		if !tensor.SameShape(p.Shape(), []int{1, 3, hw[0], hw[1]}) {
			t.Errorf("%v: pixels %v", hw, p.Shape())
		}
	}
}

func TestBuilderMessagesAndOutputs(t *testing.T) {
	// A value that is already a graph output gets a second name, and
	// still reads as an input of later nodes.
	b := builder.New(21)
	x := b.Input("x", tensor.Float, 2, 3)
	y := b.Op("Transpose", x)
	b.Output("y", y)
	b.Output("y2", y)
	z := b.Op("Transpose", y)
	b.Output("z", z)
	m, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	res, err := m.Run(context.Background(), map[string]tensor.Value{"x": tensor.MustNew(tensor.Float, 2, 3)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for name, shape := range map[string][]int{"y": {3, 2}, "y2": {3, 2}, "z": {2, 3}} {
		if v, err := res.Tensor(name); err != nil || !tensor.SameShape(v.Shape(), shape) {
			t.Errorf("%s: %v, %v", name, v, err)
		}
	}

	for _, tc := range []struct {
		name  string
		build func(b *builder.Builder)
		want  string
	}{
		{"negative dim", func(b *builder.Builder) { b.Input("x", tensor.Float, -1) }, "InputDims"},
		{"bad dim", func(b *builder.Builder) { b.InputDims("x", tensor.Float, graph.Sym("?")) }, "neither a size"},
		{"output of None", func(b *builder.Builder) { b.Output("y", builder.None) }, "None"},
		{"output name twice", func(b *builder.Builder) {
			x := b.Input("x", tensor.Float, 1)
			b.Output("y", b.Op("Identity", x))
			b.Output("y", b.Op("Identity", x))
		}, `"y" is used twice`},
		{"input name twice", func(b *builder.Builder) {
			b.Input("x", tensor.Float, 1)
			b.Input("x", tensor.Float, 2)
		}, `value name "x" is used twice: an input, a constant or an output already has it`},
		{"empty name", func(b *builder.Builder) { b.Input("", tensor.Float, 1) }, "a value needs a name"},
		{"symbolic size and name", func(b *builder.Builder) {
			b.InputDims("x", tensor.Float, graph.Sym("N").Mul(graph.Const(2)))
		}, `input "x": dimension 0`},
		{"foreign value", func(b *builder.Builder) {
			other := builder.New(21)
			b.Op("Identity", other.Input("elsewhere", tensor.Float, 1))
		}, `Identity: input "elsewhere" is not a value of this builder`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := builder.New(21)
			tc.build(b)
			_, err := b.Encode()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want %q", err, tc.want)
			}
		})
	}
}

func TestSaveAndWriteTo(t *testing.T) {
	b := builder.New(21)
	b.Output("y", b.Op("Identity", b.Input("x", tensor.Float, 2)))
	var buf bytes.Buffer
	n, err := b.WriteTo(&buf)
	if err != nil || n != int64(buf.Len()) || n == 0 {
		t.Fatalf("WriteTo: %d, %v", n, err)
	}
	path := filepath.Join(t.TempDir(), "m.onnx")
	if err := b.Save(path); err != nil {
		t.Fatal(err)
	}
	saved, err := os.ReadFile(path)
	if err != nil || !bytes.Equal(saved, buf.Bytes()) {
		t.Fatalf("Save wrote %d bytes, WriteTo %d: %v", len(saved), buf.Len(), err)
	}
	if _, err := graph.Load(path); err != nil {
		t.Fatal(err)
	}
	// A model that does not build writes nothing.
	broken := filepath.Join(t.TempDir(), "broken.onnx")
	if err := builder.New(21).Save(broken); err == nil {
		t.Fatal("saved a model without outputs")
	}
	if _, err := os.Stat(broken); !os.IsNotExist(err) {
		t.Errorf("a broken model left a file: %v", err)
	}
}

// A zero Builder reports that it is not initialised; it never panics.
func TestZeroBuilder(t *testing.T) {
	var b builder.Builder
	b.Describe("m", "")
	x := b.Input("x", tensor.Float, 2)
	y := b.InputDims("y", tensor.Float, graph.Sym("N"))
	b.Output("z", b.Op("Concat", x, y, builder.Int("axis", 0)))
	if _, err := b.Encode(); err == nil || !strings.Contains(err.Error(), "builder.New") {
		t.Fatalf("got %v", err)
	}
}
