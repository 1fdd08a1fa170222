package graph

import (
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/onnxshape/onnxshape/internal/sonnxrule"
	"github.com/onnxshape/onnxshape/onnx"
	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// declaredTypes holds the types a model declares for the values nodes
// produce (value_info and graph outputs), read from the model once, on the
// first run under the profile.
type declaredTypes struct {
	once   sync.Once
	byName map[string]*pb.TypeProto
}

func (d *declaredTypes) of(g *pb.GraphProto) map[string]*pb.TypeProto {
	d.once.Do(func() {
		d.byName = map[string]*pb.TypeProto{}
		for _, vi := range g.GetValueInfo() {
			d.byName[vi.GetName()] = vi.GetType()
		}
		for _, vi := range g.GetOutput() {
			d.byName[vi.GetName()] = vi.GetType()
		}
	})
	return d.byName
}

// checkDeclared compares, under the SONNX profile, each output st just
// produced with the type and shape the model declares for it, so that a
// node whose result disagrees with the model stops the run before any node
// reads it, and refuses an output with a dimension of 0 (DIMS). Under plain
// ONNX a declaration is only a hint and is not checked.
func (m *Model) checkDeclared(opt *ops.Options, st *step, vals []tensor.Value) error {
	if opt.Profile != ops.ProfileSONNX {
		return nil
	}
	declared := m.declared.of(m.proto.GetGraph())
	np := m.proto.GetGraph().GetNode()[st.index]
	for k, s := range st.out {
		if s < 0 {
			continue
		}
		name := np.GetOutput()[k]
		if err := positiveDims(st, name, vals[s]); err != nil {
			return err
		}
		typ, ok := declared[name]
		if !ok || typ.GetValue() == nil {
			continue
		}
		if err := onnx.ValueMatchesType(vals[s], typ); err != nil {
			shape := sameElementType(vals[s], typ)
			return &NodeError{Node: st.node.Name, Index: st.index, Op: opName(st.node), Version: st.node.Version,
				Err: &ops.Error{Op: st.node.OpType, Version: st.node.Version, Rule: sonnxrule.Declared(st.node.OpType, shape),
					Msg: fmt.Sprintf("output %q is %s where the model declares %s", name, describeValue(vals[s]), onnx.DescribeType(typ)),
					Err: err}}
		}
	}
	return nil
}

// sameElementType reports whether v is a tensor of the element type typ
// declares: a mismatch is then one of shape.
func sameElementType(v tensor.Value, typ *pb.TypeProto) bool {
	t, ok := v.(*tensor.Tensor)
	tt := typ.GetTensorType()
	return ok && tt != nil && t.DataType() == tensor.DataType(tt.GetElemType())
}

// describeValue writes a value as DescribeType writes a type:
// tensor(float)[1,2,3,4].
func describeValue(v tensor.Value) string {
	t, ok := v.(*tensor.Tensor)
	if !ok {
		return v.Describe()
	}
	dims := make([]string, len(t.Shape()))
	for i, d := range t.Shape() {
		dims[i] = strconv.Itoa(d)
	}
	return "tensor(" + t.DataType().String() + ")[" + strings.Join(dims, ",") + "]"
}

// checkProfileInputs refuses, under the SONNX profile, a run that leaves
// out an initializer the model also lists as an input: the profile has no
// default values (GR4, OP 016), so the caller must give it.
func (m *Model) checkProfileInputs(opt *ops.Options, inputs map[string]tensor.Value) error {
	if opt.Profile != ops.ProfileSONNX {
		return nil
	}
	for _, vi := range m.proto.GetGraph().GetInput() {
		name := vi.GetName()
		if _, given := inputs[name]; given {
			continue
		}
		for _, c := range m.consts {
			if m.inputSlots[name] == c.slot {
				return inputError(name, fmt.Errorf("[GR4] input %q is not given: under the SONNX profile its initializer is not a default value, so the caller gives it", name))
			}
		}
	}
	return nil
}

// positiveDims refuses, under the profile, a tensor output with a
// dimension of 0: the WG's formal specifications define positive
// dimensions only, so the profile leaves empty tensors undefined (rule
// DIMS of docs/sonnx.md). Shape's output is exempt: its specification
// defines the empty shape.
func positiveDims(st *step, name string, v tensor.Value) error {
	t, ok := v.(*tensor.Tensor)
	if !ok || st.node.OpType == "Shape" {
		return nil
	}
	for _, d := range t.Shape() {
		if d == 0 {
			return &NodeError{Node: st.node.Name, Index: st.index, Op: opName(st.node), Version: st.node.Version,
				Err: &ops.Error{Op: st.node.OpType, Version: st.node.Version, Rule: "DIMS",
					Msg: fmt.Sprintf("output %q is %s: a dimension of 0, which the profile leaves undefined", name, describeValue(v))}}
		}
	}
	return nil
}
