// If (ONNX If 1, 11, 13, 16, 19, 21, 23, 24, 25): "If conditional".
// cond, a bool tensor of one element, picks then_branch (true) or
// else_branch (false); the node's outputs are the chosen branch's
// outputs. The branch runs on the run's engine (see ops.Subgraph). A cond
// that is not one bool breaks [cond]; a branch with another number of
// outputs than the node [outputs]; a sequence before 13 or an optional
// before 16 [type].

package reference

import (
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("If", []int{1, 11, 13, 16, 19, 21, 23, 24, 25}, ifKernel)
}

func ifKernel(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	cond, err := requiredInput(op, in, 0, "cond")
	if err != nil {
		return nil, err
	}
	then, err := conditionOf(op, "cond", cond)
	if err != nil {
		return nil, err
	}
	name := "else_branch"
	if then {
		name = "then_branch"
	}
	g, err := graphAttr(op, n, name)
	if err != nil {
		return nil, err
	}
	if n.NumOutputs > 0 && g.Outputs != n.NumOutputs {
		return nil, op.errorf("outputs", "%s has %d outputs, the node %d", name, g.Outputs, n.NumOutputs)
	}
	out, err := g.Run(opt, nil)
	if err != nil {
		return nil, err
	}
	if len(out) != g.Outputs {
		return nil, op.errorf("outputs", "%s produced %d outputs, it declares %d", name, len(out), g.Outputs)
	}
	for i, v := range out {
		if err := flowKind(op, "output", i, v); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// conditionOf reads a condition: "a tensor of one bool element".
func conditionOf(op opRef, what string, t *tensor.Tensor) (bool, error) {
	if t.DataType() != tensor.Bool || t.Len() != 1 {
		return false, op.errorf("cond", "%s must be one bool, got %s", what, t.Describe())
	}
	return t.Bytes()[0] != 0, nil
}

// graphAttr returns the graph attribute name, which the node must have.
func graphAttr(op opRef, n *ops.Node, name string) (*ops.Subgraph, error) {
	a, ok := n.Attrs[name]
	if !ok || a.Type != ops.AttrGraph || a.Graph == nil || a.Graph.Run == nil {
		rule := "body"
		if op.name == "If" {
			rule = "branch"
		}
		return nil, op.errorf(rule, "attribute %s holds no graph", name)
	}
	return a.Graph, nil
}

// flowKind refuses what a control-flow operator's version does not pass:
// sequences before 13, optionals before 16, a missing value.
func flowKind(op opRef, what string, i int, v tensor.Value) error {
	switch v := v.(type) {
	case *tensor.Tensor:
		if v != nil && v.DataType().Valid() {
			return nil
		}
	case *tensor.Sequence:
		if v != nil && op.version < 13 {
			return op.errorf("type", "%s %d is a sequence, which %s takes from version 13", what, i, op.name)
		}
		if v != nil {
			return nil
		}
	case *tensor.Optional:
		if v != nil && op.version < 16 {
			return op.errorf("type", "%s %d is an optional, which %s takes from version 16", what, i, op.name)
		}
		if v != nil {
			return nil
		}
	}
	return op.errorf("type", "%s %d is missing", what, i)
}
