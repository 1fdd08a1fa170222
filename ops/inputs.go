package ops

import (
	"fmt"

	"github.com/onnxshape/onnxshape/tensor"
)

// int64sOf returns the elements of an int32 or int64 tensor as int64: the
// types ONNX gives shapes, axes and indices. Another type is an error
// wrapping tensor.ErrType (tensor.Tensor.Int64s reads every integer type).
func int64sOf(t *tensor.Tensor) ([]int64, error) {
	if t != nil && t.DataType() != tensor.Int32 && t.DataType() != tensor.Int64 {
		return nil, fmt.Errorf("%w: expected an int32 or int64 tensor, got %v", tensor.ErrType, t.DataType())
	}
	return t.Int64s()
}

// int64ListInput reads input i of a node as the list of integers it stands
// for: a 1-D int64 tensor such as Reshape's shape, Squeeze's axes, Tile's
// repeats or Expand's shape. A rank-0 tensor is read as a list of one under
// the ONNX profile, as Unsqueeze reads its axes (onnxruntime does so for axes,
// and refuses it for a shape), and refused under SONNX. present is
// false when an optional input is absent; a required one that is absent is an
// error. rule names the rule a malformed input breaks.
func (n *Node) int64ListInput(opt *Options, in []tensor.Value, i int, name, rule string, required bool) (v []int, present bool, err error) {
	op := n.op()
	var t *tensor.Tensor
	if required {
		t, err = n.requiredInput(in, i, name)
	} else {
		t, err = n.tensorInput(in, i)
	}
	if err != nil || t == nil {
		return nil, false, err
	}
	if t.DataType() != tensor.Int64 {
		return nil, true, op.errorf(rule, "%s must be int64, got %v", name, t.DataType())
	}
	if t.Rank() > 1 || (opt.orDefault().Profile == ProfileSONNX && t.Rank() != 1) {
		return nil, true, op.errorf(rule, "%s must be a 1-D tensor, got shape %v", name, t.Shape())
	}
	v64, err := int64sOf(t)
	if err != nil {
		return nil, true, op.wrap(rule, err, "%s", name)
	}
	v, err = toInts(v64)
	if err != nil {
		return nil, true, op.errorf(rule, "%s: %v", name, err)
	}
	return v, true, nil
}

// intsAttr reads the ints attribute name of a node as []int; ok is false
// when the node does not set it.
func (n *Node) intsAttr(name, rule string) (v []int, ok bool, err error) {
	v64, ok, err := n.Ints(name)
	if err != nil || !ok {
		return nil, ok, err
	}
	v, err = toInts(v64)
	if err != nil {
		return nil, true, n.op().errorf(rule, "attribute %s: %v", name, err)
	}
	return v, true, nil
}

// intAttr reads the int attribute name of a node as int, def when absent.
func (n *Node) intAttr(name string, def int, rule string) (int, error) {
	v64, err := n.Int(name, int64(def))
	if err != nil {
		return 0, err
	}
	v, err := toInt(v64)
	if err != nil {
		return 0, n.op().errorf(rule, "attribute %s: %v", name, err)
	}
	return v, nil
}

// blockInput reads what DepthToSpace and SpaceToDepth share: the input
// tensor and the required blocksize attribute.
func blockInput(n *Node, in []tensor.Value) (*tensor.Tensor, int, error) {
	x, err := n.requiredInput(in, 0, "input")
	if err != nil {
		return nil, 0, err
	}
	if !n.Has("blocksize") {
		return nil, 0, n.op().errorf("blocksize", "attribute blocksize is required")
	}
	b, err := n.intAttr("blocksize", 0, "blocksize")
	return x, b, err
}

// The sequence and optional operators' shared pieces. A sequence operation
// never copies the tensors it passes on: a new sequence is a new list of
// the same tensors (values are immutable once made), so every operation is
// linear in the sequence's length at most.

// sequenceInput returns input i as a sequence.
func (n *Node) sequenceInput(in []tensor.Value, i int, name string) (*tensor.Sequence, error) {
	if i >= len(in) || in[i] == nil {
		return nil, n.op().errorf("input", "required input %s (#%d) is missing", name, i)
	}
	s, ok := in[i].(*tensor.Sequence)
	if !ok || s == nil {
		return nil, n.op().errorf("input", "input %s (#%d) is %s, expected a sequence", name, i, in[i].Describe())
	}
	return s, nil
}

// mapInput returns input i as a well-formed map (tensor.Map.Check); a
// repeated key is for the operator to find, under the run's accounting.
func (n *Node) mapInput(in []tensor.Value, i int, name string) (*tensor.Map, error) {
	if i >= len(in) || in[i] == nil {
		return nil, n.op().errorf("input", "required input %s (#%d) is missing", name, i)
	}
	m, ok := in[i].(*tensor.Map)
	if !ok || m == nil {
		return nil, n.op().errorf("input", "input %s (#%d) is %s, expected a map", name, i, in[i].Describe())
	}
	if err := m.Check(); err != nil {
		return nil, n.op().errorf("input", "input %s %v", name, err)
	}
	return m, nil
}

// sequencePosition reads a position input (an int32 or int64 scalar) into a
// sequence of length n, counted from the end when negative; it must lie in
// [-n, n-1], or [-n, n] when end is true (an insertion may append).
func sequencePosition(op opRef, t *tensor.Tensor, n int, end bool) (int, error) {
	if (t.DataType() != tensor.Int32 && t.DataType() != tensor.Int64) || t.Len() != 1 || t.Rank() > 1 {
		return 0, op.errorf("position", "position must be an int32 or int64 scalar, got %s", t.Describe())
	}
	v, _ := int64sOf(t)
	p, hi := v[0], int64(n)-1
	if end {
		hi++
	}
	if p < -int64(n) || p > hi {
		return 0, op.errorf("position", "position %d outside [%d, %d] for a sequence of %d tensors", p, -n, hi, n)
	}
	if p < 0 {
		p += int64(n)
	}
	return int(p), nil
}

// Index inputs of the indexing family (Gather, GatherElements, GatherND,
// Scatter, ScatterElements, ScatterND, OneHot...): reading an index tensor,
// resolving negative indices and refusing those out of range. The byte
// block copy the gathers are made of is gatherBlocks (gather.go); the
// targets of the along-axis and tuple forms are in gatherelements.go and
// gathernd.go.

// indexList returns the elements of an int32 or int64 index tensor as int64,
// each counted from the end when negative and checked to lie in [0, dim):
// an index outside [-dim, dim) breaks rule (ONNX calls it an error; an
// implementation that read it would read outside the data).
func indexList(op opRef, t *tensor.Tensor, dim int, name, rule string) ([]int64, error) {
	v, err := int64sOf(t)
	if err != nil {
		return nil, op.wrap("indices-type", err, "%s", name)
	}
	d := int64(dim)
	for i, x := range v {
		if x < -d || x >= d {
			return nil, op.errorf(rule, "%s holds %d at position %d, outside [%d, %d)", name, x, i, -d, d)
		}
		if x < 0 {
			v[i] = x + d
		}
	}
	return v, nil
}

// indexView is indexList for a caller that only reads the list: int64
// indices already in [0, dim) are read in place, without a copy (an
// embedding lookup's 50,000 indices would otherwise be 400 KB a run);
// others are copied as indexList does, the copy charged to the run first.
// The list may be the tensor's own storage: never write it.
func indexView(opt *Options, op opRef, t *tensor.Tensor, dim int, name, rule string) ([]int64, error) {
	if t.DataType() == tensor.Int64 {
		v, err := tensor.Data[int64](t)
		if err == nil && inRange(v, int64(dim)) {
			return v, nil
		}
	}
	if err := opt.charge(op, name+" as int64", int64(t.Len())*8); err != nil {
		return nil, err
	}
	return indexList(op, t, dim, name, rule)
}

// inRange reports whether every element of v lies in [0, d).
func inRange(v []int64, d int64) bool {
	for _, x := range v {
		if uint64(x) >= uint64(d) {
			return false
		}
	}
	return true
}
