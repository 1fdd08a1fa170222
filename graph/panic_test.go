package graph

import (
	"errors"
	"strings"
	"testing"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// A kernel that panics is a bug in onnxshape; the run reports it as an error
// naming the node instead of crashing the caller.
func TestKernelPanicBecomesError(t *testing.T) {
	st := step{
		index: 4,
		node:  &ops.Node{Name: "boom", OpType: "Transpose", Version: 13},
		schema: &ops.Schema{Name: "Transpose", Since: 13, Run: func(*ops.Options, *ops.Node, []tensor.Value) ([]tensor.Value, error) {
			var s []int
			_ = s[3]
			return nil, nil
		}},
		in:  []int{0},
		out: []int{1},
	}
	err := runStep(&st, EngineFast, 2)
	var p *PanicError
	if !errors.As(err, &p) {
		t.Fatalf("got %v, want a PanicError", err)
	}
	if want := `internal error in node "boom" (Transpose-13): runtime error: index out of range`; !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("got %q, want %q...", err, want)
	}
}

func TestKernelMissingOutput(t *testing.T) {
	st := step{
		node: &ops.Node{OpType: "Split", Version: 18},
		schema: &ops.Schema{Run: func(*ops.Options, *ops.Node, []tensor.Value) ([]tensor.Value, error) {
			return []tensor.Value{tensor.Scalar[float32](1)}, nil
		}},
		out: []int{0, -1, 1},
	}
	err := runStep(&st, EngineFast, 2)
	if err == nil || err.Error() != "node #0 (Split-18): the kernel produced no output #2" {
		t.Fatalf("got %v", err)
	}
}
