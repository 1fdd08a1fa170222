package graph_test

import (
	"context"
	"strings"
	"testing"

	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/tensor"
)

func TestStatefulErrors(t *testing.T) {
	m := vadLike()
	for _, tc := range []struct {
		carry   map[string]string
		initial map[string]tensor.Value
		want    string
	}{
		{nil, nil, "no output is carried"},
		{map[string]string{"nope": "state"}, nil, `no output "nope"`},
		{map[string]string{"stateN": "nope"}, nil, `no input "nope"`},
		{map[string]string{"stateN": "state", "prob": "state"}, nil, `input "state" is fed by both "prob" and "stateN"`},
		{map[string]string{"stateN": "state"}, map[string]tensor.Value{"audio": tensor.MustNew(tensor.Float, 1, 4)}, `"audio", which no output feeds`},
	} {
		if _, err := graph.NewStateful(m, tc.carry, tc.initial); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v %v: %v, want %q", tc.carry, tc.initial, err, tc.want)
		}
	}

	start := tensor.MustFromSlice([]float32{4, 4}, 1, 2)
	s, err := graph.NewStateful(m, map[string]string{"stateN": "state"}, map[string]tensor.Value{"state": start})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := s.Run(ctx, map[string]tensor.Value{"audio": tensor.MustNew(tensor.Float, 1, 4), "state": start}); err == nil {
		t.Error("a carried input given by the caller was accepted")
	}
	// A failed call leaves the state as it was.
	if _, err := s.Run(ctx, map[string]tensor.Value{"audio": tensor.MustNew(tensor.Float, 1, 5)}); err == nil {
		t.Fatal("a wrong audio shape was accepted")
	}
	if v, _ := s.State("state"); v != tensor.Value(start) {
		t.Errorf("state after a failed call: %v", v)
	}
	if _, err := s.Run(ctx, map[string]tensor.Value{"audio": tensor.MustNew(tensor.Float, 1, 4)}); err != nil {
		t.Fatal(err)
	}
	if v, _ := s.State("state"); v.(*tensor.Tensor).Equal(start) {
		t.Error("the state did not move")
	}
	s.Reset()
	if v, _ := s.State("state"); v != tensor.Value(start) {
		t.Errorf("state after Reset: %v", v)
	}
	if _, ok := s.State("audio"); ok {
		t.Error("audio is not carried")
	}
}
