package graph

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/ops"
)

// UnsupportedOperator is an operator a model uses that onnxshape does not
// run, with the number of nodes that use it (subgraphs included).
type UnsupportedOperator struct {
	Domain string // "" for ai.onnx
	OpType string
	Opset  int // the opset of Domain that the model imports
	Nodes  int
}

// String returns the operator with its domain, opset and node count: "com.example.Fused (opset 1, 2 nodes)".
func (u UnsupportedOperator) String() string {
	name := u.OpType
	if u.Domain != "" {
		name = u.Domain + "." + name
	}
	return fmt.Sprintf("%s (opset %d, %d node%s)", name, u.Opset, u.Nodes, plural(u.Nodes))
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// UnsupportedError is the error of loading (or, under
// LoadOptions.AllowUnsupported, running) a model that uses operators
// onnxshape does not run. It lists all of them, not only the first node's;
// errors.Is(err, ErrUnsupported) holds, and errors.As finds the first
// unsupported node's *NodeError.
type UnsupportedError struct {
	Operators []UnsupportedOperator // by number of nodes, most first
	First     *NodeError            // the first unsupported node met
}

// Error returns the message, on one line.
func (e *UnsupportedError) Error() string {
	nodes := 0
	for _, u := range e.Operators {
		nodes += u.Nodes
	}
	if nodes == 1 {
		return e.First.Error()
	}
	names := make([]string, len(e.Operators))
	for i, u := range e.Operators {
		names[i] = u.String()
	}
	const most = 20
	more := ""
	if len(names) > most {
		more = fmt.Sprintf(" and %d more", len(names)-most)
		names = names[:most]
	}
	return fmt.Sprintf("%d nodes use operators onnxshape does not run: %s%s (`onnxshape ops` lists those it does); the first: %v",
		nodes, strings.Join(names, ", "), more, e.First)
}

// Unwrap returns the first unsupported node's error, which is of kind
// ErrUnsupported.
func (e *UnsupportedError) Unwrap() error { return e.First }

// unsupportedSet collects the unsupported nodes of a model while it loads.
type unsupportedSet struct {
	ops   map[UnsupportedOperator]int // key with Nodes 0 -> count
	first *NodeError
}

// add records node np, whose operator ops.Lookup did not find.
func (s *unsupportedSet) add(np *pb.NodeProto, domain string, opset int, err *NodeError) {
	if s.ops == nil {
		s.ops = map[UnsupportedOperator]int{}
		s.first = err
	}
	s.ops[UnsupportedOperator{Domain: domain, OpType: np.GetOpType(), Opset: opset}]++
}

// err is the set as an *UnsupportedError, or nil when it is empty.
func (s *unsupportedSet) err() *UnsupportedError {
	if s.ops == nil {
		return nil
	}
	e := &UnsupportedError{First: s.first}
	for u, n := range s.ops {
		u.Nodes = n
		e.Operators = append(e.Operators, u)
	}
	slices.SortFunc(e.Operators, func(a, b UnsupportedOperator) int {
		return cmp.Or(b.Nodes-a.Nodes, cmp.Compare(a.Domain, b.Domain), cmp.Compare(a.OpType, b.OpType), a.Opset-b.Opset)
	})
	return e
}

// Unsupported lists the operators of the model that onnxshape does not run,
// most used first; it is empty for every model but those opened with
// LoadOptions.AllowUnsupported, which Run refuses with an *UnsupportedError.
func (m *Model) Unsupported() []UnsupportedOperator {
	if m == nil || m.unsupported == nil {
		return nil
	}
	return slices.Clone(m.unsupported.Operators)
}

// isUnsupportedOp reports whether err, from ops.Lookup, says that the
// operator is unknown rather than that the node is invalid.
func isUnsupportedOp(err error) bool { return errors.Is(err, ops.ErrUnsupported) }

// unsupportedStep is the step of node np, whose operator onnxshape does not
// run: its inputs and outputs resolved in sc, as any node's, so that the
// rest of the model loads, and no kernel.
func (m *Model) unsupportedStep(np *pb.NodeProto, i int, sc *scope) (step, []string, error) {
	st := step{index: i, node: &ops.Node{Name: np.GetName(), OpType: np.GetOpType(), Domain: np.GetDomain(), Attrs: map[string]ops.Attribute{}}}
	for k, name := range np.GetInput() {
		if name == "" {
			st.in = append(st.in, -1)
			continue
		}
		s, ok := sc.lookup(name)
		if !ok {
			return step{}, nil, nodeError(np, i, 0, fmt.Errorf("input #%d %q is no graph input, initializer or node output", k, name))
		}
		st.in = append(st.in, s)
	}
	for _, name := range np.GetOutput() {
		if name == "" {
			st.out = append(st.out, -1)
			continue
		}
		st.out = append(st.out, sc.names[name])
	}
	return st, nil, nil
}
