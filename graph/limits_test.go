package graph_test

import (
	"context"
	"errors"
	"testing"

	"github.com/onnxshape/onnxshape/builder"
	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// Two Tiles of 4 KiB each, then a Reshape (a view): the run allocates 8 KiB.
func tiles(t *testing.T) *graph.Model {
	b := builder.New(21)
	x := b.Input("x", tensor.Float, 1, 256)
	reps := b.Ints64("reps", 4, 1)
	a := b.Op("Tile", x, reps)
	c := b.Op("Tile", x, reps)
	flat := b.Op("Reshape", c, b.Ints64("shape", -1), builder.Int("allowzero", 0))
	b.Output("a", a)
	b.Output("flat", flat)
	return load(t, b)
}

func TestRunByteCap(t *testing.T) {
	m := tiles(t)
	in := map[string]tensor.Value{"x": tensor.MustNew(tensor.Float, 1, 256)}
	run := func(o *graph.RunOptions) error {
		_, err := m.Run(context.Background(), in, o)
		return err
	}
	if err := run(nil); err != nil {
		t.Fatalf("default caps: %v", err)
	}
	if err := run(&graph.RunOptions{MaxRunBytes: 8192}); err != nil {
		t.Fatalf("the Reshape view must cost nothing: %v", err)
	}
	// The second Tile would pass the run's cap: refused before it allocates.
	err := run(&graph.RunOptions{MaxRunBytes: 6000})
	var ne *graph.NodeError
	if !errors.Is(err, ops.ErrLimit) || !errors.As(err, &ne) || ne.Index != 1 {
		t.Fatalf("got %v, want the second Tile refused with ErrLimit", err)
	}
	// One tensor's cap applies too.
	if err := run(&graph.RunOptions{MaxTensorBytes: 1000}); !errors.Is(err, ops.ErrLimit) {
		t.Fatalf("tensor cap: %v", err)
	}
	if err := run(&graph.RunOptions{MaxRunBytes: -1}); err != nil {
		t.Fatalf("no cap: %v", err)
	}
}

// load encodes a built model and loads it back, as a file would be.
func load(t *testing.T, b *builder.Builder) *graph.Model {
	t.Helper()
	data, err := b.Encode()
	if err != nil {
		t.Fatal(err)
	}
	m, err := graph.LoadBytes(data, "")
	if err != nil {
		t.Fatal(err)
	}
	return m
}
