package graph

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/onnxshape/onnxshape/tensor"
)

// Result is the outputs of a run by name, with accessors that return an
// error, never panic, for a misspelled name or a value of another kind.
type Result map[string]tensor.Value

// Value returns the output name; the error lists the outputs there are.
func (r Result) Value(name string) (tensor.Value, error) {
	v, ok := r[name]
	if !ok {
		names := make([]string, 0, len(r))
		for n := range r {
			names = append(names, fmt.Sprintf("%q", n))
		}
		sort.Strings(names)
		return nil, fmt.Errorf("graph: the run has no output %q (it has %s)", name, strings.Join(names, ", "))
	}
	return v, nil
}

// Tensor returns the output name as a tensor; it is an error when the
// output is a sequence or an optional (read those with Value).
func (r Result) Tensor(name string) (*tensor.Tensor, error) {
	v, err := r.Value(name)
	if err != nil {
		return nil, err
	}
	t, ok := v.(*tensor.Tensor)
	if !ok || t == nil {
		return nil, fmt.Errorf("graph: output %q is %s, not a tensor", name, describe(v))
	}
	return t, nil
}

// describe is v.Describe(), "nothing" for a nil value.
func describe(v tensor.Value) string {
	if v == nil || isNilValue(v) {
		return "nothing"
	}
	return v.Describe()
}

// RunTensors is Run for inputs that are all tensors, returning the outputs
// as a Result.
func (m *Model) RunTensors(ctx context.Context, inputs map[string]*tensor.Tensor, o *RunOptions) (Result, error) {
	values := make(map[string]tensor.Value, len(inputs))
	for name, t := range inputs {
		values[name] = t
	}
	return m.RunResult(ctx, values, o)
}

// RunResult is Run returning the outputs as a Result.
func (m *Model) RunResult(ctx context.Context, inputs map[string]tensor.Value, o *RunOptions) (Result, error) {
	out, err := m.Run(ctx, inputs, o)
	if err != nil {
		return nil, err
	}
	return Result(out), nil
}
