package reference

import (
	"fmt"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// Element access for the indexing, conversion and sequence operators: one
// element at a time, whatever its type. A non-string element is its bytes
// in the tensor's storage (sub-byte types take one byte each), so moving an
// element is moving those bytes; strings move as strings.

// cell is one element of a tensor, of any type.
type cell struct {
	bytes []byte
	str   string
}

// cellOf returns element i of t.
func cellOf(t *tensor.Tensor, i int) cell {
	if t.DataType() == tensor.String {
		return cell{str: t.Strings()[i]}
	}
	size := t.DataType().Size()
	return cell{bytes: t.Bytes()[i*size : (i+1)*size]}
}

// setCell sets element i of t to c, an element of t's type.
func setCell(t *tensor.Tensor, i int, c cell) {
	if t.DataType() == tensor.String {
		t.Strings()[i] = c.str
		return
	}
	size := t.DataType().Size()
	copy(t.Bytes()[i*size:(i+1)*size], c.bytes)
}

// newOutput returns a zero tensor of type dt and shape after checking its
// size against the run's limit, as every reference kernel allocates.
func newOutput(opt *ops.Options, op string, version int, dt tensor.DataType, shape []int) (*tensor.Tensor, error) {
	n, err := tensor.NumElements(shape)
	if err != nil {
		return nil, &ops.Error{Op: op, Version: version, Rule: "size", Msg: fmt.Sprintf("output of shape %v: %v", shape, err), Err: err}
	}
	per := int64(dt.Size())
	if dt == tensor.String {
		per = 16
	}
	if per > 0 && int64(n) > opt.TensorLimit()/per {
		return nil, &ops.Error{Op: op, Version: version, Rule: "size",
			Msg: fmt.Sprintf("output %v of shape %v above the limit of %d bytes", dt, shape, opt.TensorLimit()), Err: ops.ErrLimit}
	}
	return tensor.New(dt, shape...)
}

// fail returns the *ops.Error of operator op at version for rule.
func fail(op string, version int, rule, format string, args ...any) error {
	return &ops.Error{Op: op, Version: version, Rule: rule, Msg: fmt.Sprintf(format, args...)}
}

// tensorIn returns input i of a node as a tensor, nil when it is absent.
func tensorIn(n *ops.Node, in []tensor.Value, i int) (*tensor.Tensor, error) {
	if i >= len(in) || in[i] == nil {
		return nil, nil
	}
	t, ok := in[i].(*tensor.Tensor)
	if !ok {
		return nil, fail(n.OpType, n.Version, "input", "input %d is %s, expected a tensor", i, in[i].Describe())
	}
	return t, nil
}

// mustTensorIn is tensorIn for a required input.
func mustTensorIn(n *ops.Node, in []tensor.Value, i int, name string) (*tensor.Tensor, error) {
	t, err := tensorIn(n, in, i)
	if err == nil && t == nil {
		err = fail(n.OpType, n.Version, "input", "required input %s (#%d) is missing", name, i)
	}
	return t, err
}
