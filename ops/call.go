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
