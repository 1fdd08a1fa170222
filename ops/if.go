// If runs one of two subgraphs, then_branch or else_branch, chosen by a
// boolean condition, and returns that branch's outputs. The branches read
// the enclosing graphs' values by name (see Subgraph).
//
// Versions: 1; 11 (the two branches may produce outputs of different
// shapes); 13 (outputs may be sequences); 16 (optionals); 19, 21, 23, 24
// and 25 add element types. The body's nodes do the work: If itself
// copies nothing.
//
// Constraints, in order: [cond] the condition is a bool tensor of one
// element; [branch] both branches are set; [outputs] the branch's output
// count equals the node's; [type] an output's kind is one the version
// takes (sequences from 13, optionals from 16).

package ops

import (
	"reflect"
	"unsafe"

	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("If", []int{1, 11, 13, 16, 19, 21, 23, 24, 25}, [2]int{1, 1}, [2]int{1, -1}, ifNode)
	declareAttrs("If", AttrSpec{Name: "then_branch", Type: AttrGraph}, AttrSpec{Name: "else_branch", Type: AttrGraph})
}

func ifNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	op := n.op()
	cond, err := n.requiredInput(in, 0, "cond")
	if err != nil {
		return nil, err
	}
	take, err := conditionOf(op, "cond", cond)
	if err != nil {
		return nil, err
	}
	name, branch := "else_branch", 1
	if take {
		name, branch = "then_branch", 0
	}
	body, err := keptGraphs(n, "then_branch", "else_branch").graph(branch)
	if err != nil {
		return nil, err
	}
	if body == nil || body.Run == nil {
		return nil, op.errorf("branch", "attribute %s holds no graph", name)
	}
	if body.Outputs != n.NumOutputs && n.NumOutputs > 0 {
		return nil, op.errorf("outputs", "%s has %d outputs, the node %d", name, body.Outputs, n.NumOutputs)
	}
	out, err := body.Run(opt, nil)
	if err != nil {
		return nil, err
	}
	if len(out) != body.Outputs {
		return nil, op.errorf("outputs", "%s produced %d outputs, it declares %d", name, len(out), body.Outputs)
	}
	for i, v := range out {
		if err := checkFlowKind(op, "output", i, v); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// graphsKept is an If's branches or a Loop's body as the node's graph
// attributes hold them, looked up at the node's first run and kept on it
// (Node.kept, as scanKept): a run of an If or a Loop looks up no
// attribute by name.
type graphsKept struct {
	graphs [2]*Subgraph
	errs   [2]error
	attrs  unsafe.Pointer
	count  int
}

// keptGraphs returns the graph attributes first and second (second
// may be "") of n, looked up once.
func keptGraphs(n *Node, first, second string) *graphsKept {
	attrs := reflect.ValueOf(n.Attrs).UnsafePointer()
	if k, ok := n.kept.Load().(*graphsKept); ok && k.attrs == attrs && k.count == len(n.Attrs) {
		return k
	}
	k := &graphsKept{attrs: attrs, count: len(n.Attrs)}
	k.graphs[0], k.errs[0] = n.GraphAttr(first)
	if second != "" {
		k.graphs[1], k.errs[1] = n.GraphAttr(second)
	}
	n.kept.Store(k)
	return k
}

// graph returns the i-th graph of k and the error of its lookup.
func (k *graphsKept) graph(i int) (*Subgraph, error) { return k.graphs[i], k.errs[i] }

// conditionOf reads a control-flow condition: a bool tensor of one element.
func conditionOf(op opRef, what string, t *tensor.Tensor) (bool, error) {
	if t.DataType() != tensor.Bool {
		return false, op.errorf("cond", "%s must be a bool tensor, got %v", what, t.DataType())
	}
	if t.Len() != 1 {
		return false, op.errorf("cond", "%s must hold one element, it has shape %v", what, t.Shape())
	}
	return t.Bytes()[0] != 0, nil
}

// checkFlowKind refuses a value a control-flow operator's version does not
// pass: sequences before 13 (If, Loop) or 11 (Scan, which takes none),
// optionals before 16, and nil.
func checkFlowKind(op opRef, what string, i int, v tensor.Value) error {
	switch v := v.(type) {
	case *tensor.Tensor:
		if v == nil {
			break
		}
		return checkInput(op, what, v)
	case *tensor.Sequence:
		if v == nil {
			break
		}
		if op.version < 13 {
			return op.errorf("type", "%s %d is %s: sequences pass through %s from version 13", what, i, v.Describe(), op.name)
		}
		return nil
	case *tensor.Optional:
		if v == nil {
			break
		}
		if op.version < 16 {
			return op.errorf("type", "%s %d is %s: optionals pass through %s from version 16", what, i, v.Describe(), op.name)
		}
		return nil
	}
	return op.errorf("type", "%s %d is missing", what, i)
}
