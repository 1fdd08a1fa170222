package ops

import (
	"context"
	"fmt"

	"github.com/onnxshape/onnxshape/tensor"
)

// Call runs one operator outside a model, under ctx and opt: the context
// stops it (every long kernel loop looks at it), opt's caps, thread count
// and profile apply, as they do to a model's nodes. It is the way to run
// any operator of the registry, at any opset, from Go with those knobs;
// the plain functions (Transpose, Resize, ...) run the newest version with
// the knobs given as Option values.
//
// n names the operator (OpType, Domain) and the opset to resolve it at
// (Version: 0 means the newest); its Attrs are checked against what that
// version takes, and NumOutputs (0 means 1) is the number of outputs asked
// for. inputs holds the operator's inputs in order, nil for an optional
// one left out. opt may be nil (the defaults); ctx replaces its context.
// A panic in a kernel, a bug, is returned as an error.
func Call(ctx context.Context, opt *Options, n Node, inputs ...tensor.Value) (out []tensor.Value, err error) {
	if ctx == nil {
		ctx = context.Background()
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	opset := n.Version
	if opset <= 0 {
		opset = 1 << 20
	}
	schema, err := Lookup(n.Domain, n.OpType, opset)
	if err != nil {
		return nil, err
	}
	for name, a := range n.Attrs {
		if err := schema.CheckAttribute(name, a.Type); err != nil {
			return nil, err
		}
	}
	if k := len(inputs); k < schema.Inputs[0] || (schema.Inputs[1] >= 0 && k > schema.Inputs[1]) {
		return nil, &Error{Op: n.OpType, Version: schema.Since, Rule: "inputs",
			Msg: fmt.Sprintf("%d inputs given, the operator takes %d to %d (-1: no limit)", k, schema.Inputs[0], schema.Inputs[1])}
	}
	if n.NumOutputs <= 0 {
		n.NumOutputs = 1
	}
	if n.NumOutputs < schema.Outputs[0] || (schema.Outputs[1] >= 0 && n.NumOutputs > schema.Outputs[1]) {
		return nil, &Error{Op: n.OpType, Version: schema.Since, Rule: "outputs",
			Msg: fmt.Sprintf("%d outputs asked for, the operator has %d to %d", n.NumOutputs, schema.Outputs[0], schema.Outputs[1])}
	}
	n.Version = schema.Since
	var o Options
	if opt != nil {
		o = *opt
	}
	o.env.Ctx = ctx
	defer func() {
		if p := recover(); p != nil {
			out, err = nil, fmt.Errorf("%s-%d: internal error: %v", n.OpType, n.Version, p)
		}
	}()
	out, err = schema.Run(&o, &n, append([]tensor.Value(nil), inputs...))
	if err == nil {
		if cerr := ctx.Err(); cerr != nil {
			return nil, cerr
		}
	}
	return out, err
}

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
