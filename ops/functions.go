package ops

import (
	"fmt"

	"github.com/onnxshape/onnxshape/tensor"
)

// The plain Go functions of the operators that have no hand-written one
// are generated from the registry and the declared attributes into
// functions_gen.go, one signature style for all:
//
//	y, err := ops.Erf(x)
//	y, err := ops.Elu(x, ops.EluOptions{Alpha: ops.Ptr[float32](0.5)}, ops.WithThreads(2))
//	outs, err := ops.TopK(x, k, ops.TopKOptions{Axis: ops.Ptr[int64](-1)})
//
// Inputs are *tensor.Tensor in the operator's order (nil for an optional
// input left out; a slice for an operator with any number of inputs, and
// tensor.Value for the sequence and optional operators); attributes are an
// options struct per operator, a nil field leaving the operator's default;
// the function runs the newest version of the operator (Call runs any
// version) and returns its one output, or all of its outputs in order.
// Operators whose attributes are graphs (If, Loop, Scan, SequenceMap) or
// whose number of outputs is chosen by the caller have no generated
// function: Call runs them.
//
//go:generate go run ../internal/genopfuncs -o functions_gen.go

// Ptr returns a pointer to v: an options field set to v.
func Ptr[T any](v T) *T { return &v }

// callGenerated runs operator name of domain on inputs with attrs, asking
// for nout outputs, under the options opts set.
func callGenerated(domain, name string, attrs map[string]Attribute, nout int, inputs []tensor.Value, opts []Option) ([]tensor.Value, error) {
	o, err := callOptions(opRef{name, 0}, opts)
	if err != nil {
		return nil, err
	}
	for i, v := range inputs {
		if t, ok := v.(*tensor.Tensor); ok && t == nil {
			inputs[i] = nil // an optional input left out
		}
	}
	return Call(o.Context(), o, Node{OpType: name, Domain: domain, Attrs: attrs, NumOutputs: nout}, inputs...)
}

// tensorsOf returns the outputs as tensors.
func tensorsOf(name string, out []tensor.Value, err error) ([]*tensor.Tensor, error) {
	if err != nil {
		return nil, err
	}
	ts := make([]*tensor.Tensor, len(out))
	for i, v := range out {
		if v == nil {
			continue // an optional output the operator leaves out
		}
		t, ok := v.(*tensor.Tensor)
		if !ok {
			return nil, fmt.Errorf("%s: output %d is %s, not a tensor", name, i, v.Describe())
		}
		ts[i] = t
	}
	return ts, nil
}

// tensorOf returns the one output as a tensor.
func tensorOf(name string, out []tensor.Value, err error) (*tensor.Tensor, error) {
	ts, err := tensorsOf(name, out, err)
	if err != nil {
		return nil, err
	}
	if len(ts) != 1 {
		return nil, fmt.Errorf("%s: %d outputs, want 1", name, len(ts))
	}
	return ts[0], nil
}

// valueOf returns the one output.
func valueOf(name string, out []tensor.Value, err error) (tensor.Value, error) {
	if err != nil {
		return nil, err
	}
	if len(out) != 1 {
		return nil, fmt.Errorf("%s: %d outputs, want 1", name, len(out))
	}
	return out[0], nil
}

// inputValues turns tensors into a Call's inputs.
func inputValues(ts []*tensor.Tensor) []tensor.Value {
	in := make([]tensor.Value, len(ts))
	for i, t := range ts {
		if t != nil {
			in[i] = t
		}
	}
	return in
}

// tensorAt is input i as a tensor, nil when absent or not a tensor.
func tensorAt(in []tensor.Value, i int) *tensor.Tensor {
	if i < len(in) {
		if t, ok := in[i].(*tensor.Tensor); ok {
			return t
		}
	}
	return nil
}

// inputAt is input i, nil when absent.
func inputAt(in []tensor.Value, i int) tensor.Value {
	if i < len(in) {
		return in[i]
	}
	return nil
}

// asTensors is in as tensors (nil for a value that is none).
func asTensors(in []tensor.Value) []*tensor.Tensor {
	ts := make([]*tensor.Tensor, len(in))
	for i := range in {
		ts[i] = tensorAt(in, i)
	}
	return ts
}

// valueOfTensor is t as a value, nil for a nil tensor.
func valueOfTensor(t *tensor.Tensor) tensor.Value {
	if t == nil {
		return nil
	}
	return t
}

// valuesOfTensors is ts as values.
func valuesOfTensors(ts []*tensor.Tensor) []tensor.Value {
	out := make([]tensor.Value, len(ts))
	for i, t := range ts {
		out[i] = valueOfTensor(t)
	}
	return out
}
