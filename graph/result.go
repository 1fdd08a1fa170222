package graph

import (
	"fmt"
	"strings"

	"github.com/onnxshape/onnxshape/tensor"
)

// Result is the outputs of a run: their names in the model's order (that of
// RunOptions.Outputs when the run asked for values by name) and their
// values, with accessors that return an error, never panic, for a
// misspelled name or a value of another kind. The zero Result has no
// outputs.
type Result struct {
	names  []string
	values []tensor.Value // by position in names
	// index is the position of each name in names, made once for the
	// model (or the selection of RunOptions.Outputs) and shared by its
	// runs' Results: a run makes no map of its outputs.
	index map[string]int
}

// newResult is the Result of values, named names in that order; index
// maps each name to its position.
func newResult(names []string, index map[string]int, values []tensor.Value) Result {
	return Result{names: names, values: values, index: index}
}

// outputIndex is the position of each of names.
func outputIndex(names []string) map[string]int {
	index := make(map[string]int, len(names))
	for i, name := range names {
		index[name] = i
	}
	return index
}

// Names returns the names of the outputs in the model's order (Outputs),
// or in the order RunOptions.Outputs asked for them.
func (r Result) Names() []string { return append([]string{}, r.names...) }

// Len returns the number of outputs.
func (r Result) Len() int { return len(r.names) }

// At returns the output at position i of Names, for a caller that
// walks the outputs in order without a map; it panics, as an index out of
// range does, when i is not in [0, Len()).
func (r Result) At(i int) tensor.Value { return r.values[i] }

// Map returns the outputs by name, for a caller that ranges over them or
// hands them on as another run's inputs: a new map at each call, the
// caller's to keep or change (the values in it are still the run's
// outputs, read-only).
func (r Result) Map() map[string]tensor.Value {
	if r.values == nil {
		return nil
	}
	m := make(map[string]tensor.Value, len(r.names))
	for i, name := range r.names {
		m[name] = r.values[i]
	}
	return m
}

// Value returns the output name; the error lists the outputs there are.
func (r Result) Value(name string) (tensor.Value, error) {
	i, ok := r.index[name]
	if !ok {
		names := make([]string, 0, len(r.names))
		for _, n := range r.names {
			names = append(names, fmt.Sprintf("%q", n))
		}
		return nil, fmt.Errorf("graph: the run has no output %q (it has %s)", name, strings.Join(names, ", "))
	}
	return r.values[i], nil
}

// Tensor returns the output name as a tensor; it is an error when the
// output is a sequence, an optional or a map (read those with Value, maps
// also with Maps).
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

// Maps returns the output name as maps: the items of a sequence of maps
// (what ZipMap returns, one map per row), or a map as one item. It is an
// error when the output is another kind of value.
func (r Result) Maps(name string) ([]*tensor.Map, error) {
	v, err := r.Value(name)
	if err != nil {
		return nil, err
	}
	switch v := v.(type) {
	case *tensor.MapSequence:
		if v != nil {
			return v.Items, nil
		}
	case *tensor.Map:
		if v != nil {
			return []*tensor.Map{v}, nil
		}
	}
	return nil, fmt.Errorf("graph: output %q is %s, not a map or a sequence of maps", name, describe(v))
}

// describe is v.Describe(), "nothing" for a nil value.
func describe(v tensor.Value) string {
	if v == nil || isNilValue(v) {
		return "nothing"
	}
	return v.Describe()
}
