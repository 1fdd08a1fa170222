package graph_test

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/onnxshape/onnxshape/builder"
	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/tensor"
)

// twoBranches: x -> Transpose -> t -> Unsqueeze -> u -> Neg -> y, and
// z -> Reshape to shape -> bad, which fails for a shape of other than 4
// elements.
func twoBranches(t *testing.T) *graph.Model {
	b := builder.New(21)
	x := b.Input("x", tensor.Float, 2, 3)
	z := b.Input("z", tensor.Float, 2, 2)
	tr := b.Op("Transpose", x, builder.Ints("perm", 1, 0), builder.Name("t"))
	u := b.Op("Unsqueeze", tr, b.Constant("axes", tensor.MustFromSlice([]int64{0})), builder.Name("u"))
	b.Output("y", b.Op("Neg", u))
	b.Output("bad", b.Op("Reshape", z, b.Input("shape", tensor.Int64, 1)))
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

func TestOutputsRunsOnlyWhatTheyNeed(t *testing.T) {
	m := twoBranches(t)
	ctx := context.Background()
	x := tensor.MustFromSlice([]float32{1, 2, 3, 4, 5, 6}, 2, 3)
	z := tensor.MustNew(tensor.Float, 2, 2)
	// The whole graph fails in the Reshape of z.
	seven := tensor.MustFromSlice([]int64{7})
	if _, err := m.Run(ctx, map[string]tensor.Value{"x": x, "z": z, "shape": seven}, nil); err == nil {
		t.Fatal("the full run did not fail")
	}
	// t and u need neither z nor the Reshape; u is read by Neg after it,
	// and returned all the same.
	o := &graph.RunOptions{Outputs: []string{"u", "t", "x", "axes"}}
	for run := range 3 { // again: prepared nodes reuse their headers
		out, err := m.Run(ctx, map[string]tensor.Value{"x": x}, o)
		if err != nil {
			t.Fatal(err)
		}
		want := tensor.MustFromSlice([]float32{1, 4, 2, 5, 3, 6}, 3, 2)
		if out.Len() != 4 || !out.Map()["t"].(*tensor.Tensor).Equal(want) ||
			!reflect.DeepEqual(out.Map()["u"].(*tensor.Tensor).Shape(), []int{1, 3, 2}) ||
			out.Map()["x"] != tensor.Value(x) || !out.Map()["axes"].(*tensor.Tensor).Equal(tensor.MustFromSlice([]int64{0})) {
			t.Fatalf("run %d: %v", run, out)
		}
		if run == 0 {
			defer func(first *tensor.Tensor) { // what the caller holds stays intact
				if !first.Equal(want) {
					t.Errorf("a later run changed the value of t returned first: %v", first)
				}
			}(out.Map()["t"].(*tensor.Tensor))
		}
	}
	// The graph's own outputs, asked for by name, are those of a full run.
	out, err := m.Run(ctx, map[string]tensor.Value{"x": x}, &graph.RunOptions{Outputs: []string{"y"}})
	if err != nil || out.Len() != 1 || out.Map()["y"].(*tensor.Tensor).Shape()[0] != 1 {
		t.Fatalf("y: %v, %v", out, err)
	}
	// With a pool, the returned values are the caller's until released.
	pool := graph.NewPool()
	if _, err := m.Run(ctx, map[string]tensor.Value{"x": x}, &graph.RunOptions{Outputs: []string{"t"}, Pool: pool}); err != nil {
		t.Fatal(err)
	}
}

func TestOutputsErrors(t *testing.T) {
	m := twoBranches(t)
	ctx := context.Background()
	x := tensor.MustNew(tensor.Float, 2, 3)
	_, err := m.Run(ctx, map[string]tensor.Value{"x": x}, &graph.RunOptions{Outputs: []string{"tt"}})
	if !errors.Is(err, graph.ErrInvalidInput) || !strings.Contains(err.Error(), `the model has no value "tt"; closest: "t"`) {
		t.Errorf("unknown name: %v", err)
	}
	_, err = m.Run(ctx, map[string]tensor.Value{"x": x}, &graph.RunOptions{Outputs: []string{"t", "t"}})
	if !errors.Is(err, graph.ErrInvalidInput) || !strings.Contains(err.Error(), "asked for twice") {
		t.Errorf("twice: %v", err)
	}
	// What the selection reads must be given.
	_, err = m.Run(ctx, nil, &graph.RunOptions{Outputs: []string{"u"}})
	if !errors.Is(err, graph.ErrInvalidInput) || !strings.Contains(err.Error(), `input "x"`) {
		t.Errorf("x missing: %v", err)
	}
	if names := m.ValueNames(); !reflect.DeepEqual(names, []string{"x", "z", "shape", "t", "u", "y", "bad"}) {
		t.Errorf("ValueNames = %v", names)
	}
}
