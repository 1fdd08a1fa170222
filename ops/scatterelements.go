// ScatterElements writes updates into a copy of data at the positions
// indices give along one axis: for axis 0 of a 2-D tensor,
// output[indices[i][j]][j] = updates[i][j] (or combined with the element
// there by reduction). Scatter (version 9) is the same operator under its
// old name, without reduction.
//
// Versions: ScatterElements 11, 13 (bfloat16), 16 (reduction add, mul), 18
// (max, min); Scatter 9. Any element type; reductions none on strings.
//
// Rules: [axis] axis in [-r, r-1]; [rank] data has rank >= 1;
// [indices-type] int32 or int64; [updates] updates have the shape of
// indices and data's type; [indices-shape] indices have data's rank and no
// dim longer than data's off the axis; [indices] every index in [-d, d-1];
// [reduction] one the version has, and a type it can combine; [size] the
// output fits the size limit. Duplicate indices are applied in order
// (ONNX: undefined without a reduction; the reference evaluator's order).

package ops

import (
	"github.com/onnxshape/onnxshape/ops/internal/movement"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("ScatterElements", []int{11, 13, 16, 18}, [2]int{3, 3}, [2]int{1, 1}, scatterElementsNode)
	declareAttrs("ScatterElements",
		AttrSpec{Name: "axis", Type: AttrInt},
		AttrSpec{Name: "reduction", Type: AttrString, From: 16})
	register("Scatter", []int{9}, [2]int{3, 3}, [2]int{1, 1}, scatterElementsNode)
	declareAttrs("Scatter", AttrSpec{Name: "axis", Type: AttrInt})
}

// ScatterElementsOptions are the attributes of ScatterElements.
type ScatterElementsOptions struct {
	// Axis is the axis the indices address; negative counts from the end.
	Axis int
	// Reduction is "none" (or empty), "add", "mul", "max" or "min".
	Reduction string
}

// ScatterElements returns a copy of data with updates written (or
// combined) at the positions indices give along o.Axis (ONNX
// ScatterElements, version 18).
func ScatterElements(data, indices, updates *tensor.Tensor, o ScatterElementsOptions, opts ...Option) (*tensor.Tensor, error) {
	op := opRef{"ScatterElements", 18}
	opt, err := callOptions(op, opts)
	if err != nil {
		return nil, err
	}
	red := reduction(o.Reduction)
	if red == "" {
		red = "none"
	}
	return scatterElements(opt, op, data, indices, updates, o.Axis, red)
}

func scatterElementsNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	var args [3]*tensor.Tensor
	for i, name := range []string{"data", "indices", "updates"} {
		t, err := n.requiredInput(in, i, name)
		if err != nil {
			return nil, err
		}
		args[i] = t
	}
	axis, err := n.intAttr("axis", 0, "axis")
	if err != nil {
		return nil, err
	}
	red := reduction("none")
	if n.OpType == "ScatterElements" {
		if red, err = reductionAttr(n); err != nil {
			return nil, err
		}
	}
	y, err := scatterElements(opt, n.op(), args[0], args[1], args[2], axis, red)
	if err != nil {
		return nil, err
	}
	return values(y), nil
}

func scatterElements(opt *Options, op opRef, data, indices, updates *tensor.Tensor, axis int, red reduction) (*tensor.Tensor, error) {
	opt = opt.orDefault()
	a, err := elementsAxis(op, data, axis)
	if err != nil {
		return nil, err
	}
	if !tensor.SameShape(updates.Shape(), indices.Shape()) || updates.DataType() != data.DataType() {
		return nil, op.errorf("updates", "updates must have the shape of indices %v and the type of data %v, got %s", indices.Shape(), data.DataType(), updates.Describe())
	}
	at, err := alongAxisTargets(opt, op, data, indices, a)
	if err != nil {
		return nil, err
	}
	y, err := opt.newOverwritten(op, data.DataType(), data.Shape())
	if err != nil {
		return nil, err
	}
	copyTensor(y, data)
	if err := scatterBlocks(op, y, at, updates, 1, red); err != nil {
		return nil, err
	}
	return y, nil
}

// copyTensor copies the elements of src into dst, of the same type and size.
func copyTensor(dst, src *tensor.Tensor) {
	if src.DataType() == tensor.String {
		copy(dst.Strings(), src.Strings())
		return
	}
	movement.CopyBytes(dst.Bytes(), src.Bytes())
}
