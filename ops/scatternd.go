// ScatterND writes slices of updates into a copy of data at the positions
// tuples of indices address: indices of shape [..., k] hold tuples of k
// coordinates into data's first k dims; updates has shape
// indices.shape[:-1] + data.shape[k:], one slice per tuple, written (or
// combined by reduction) in order.
//
// Versions: 11, 13 (bfloat16), 16 (reduction add, mul), 18 (max, min).
// Any element type; reductions other than none not on strings.
//
// Rules: [rank] data and indices have rank >= 1; [indices-type] int64;
// [indices-shape] k in [1, rank(data)]; [updates] updates have that shape
// and data's type; [indices] every coordinate in [-d, d-1]; [reduction] one
// the version has; [size] the output fits the size limit. Duplicate
// tuples are applied in order (ONNX: undefined without a reduction). The
// scatter write and its reductions (scatterBlocks) are in scatterelements.go.

package ops

import (
	"github.com/onnxshape/onnxshape/ops/internal/movement"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("ScatterND", []int{11, 13, 16, 18}, [2]int{3, 3}, [2]int{1, 1}, scatterNDNode)
	declareAttrs("ScatterND", AttrSpec{Name: "reduction", Type: AttrString, From: 16})
}

// ScatterNDOptions are ScatterND's attributes; the zero value is ONNX's
// default.
type ScatterNDOptions struct {
	// Reduction combines an update with what is there: "none" (or empty:
	// the update replaces it), "add", "mul", "max", "min".
	Reduction string
}

// ScatterND returns a copy of data with the slices of updates written (or
// combined by o.Reduction) at the tuples of indices (ONNX ScatterND,
// version 18).
func ScatterND(data, indices, updates *tensor.Tensor, o ScatterNDOptions, opts ...Option) (*tensor.Tensor, error) {
	op := opRef{"ScatterND", 18}
	opt, err := callOptions(op, opts)
	if err != nil {
		return nil, err
	}
	red := reduction(o.Reduction)
	if red == "" {
		red = "none"
	}
	return scatterND(opt, op, data, indices, updates, red)
}

func scatterNDNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	var args [3]*tensor.Tensor
	for i, name := range []string{"data", "indices", "updates"} {
		t, err := n.requiredInput(in, i, name)
		if err != nil {
			return nil, err
		}
		args[i] = t
	}
	red, err := reductionAttr(n)
	if err != nil {
		return nil, err
	}
	y, err := scatterND(opt, n.op(), args[0], args[1], args[2], red)
	if err != nil {
		return nil, err
	}
	return values(y), nil
}

func scatterND(opt *Options, op opRef, data, indices, updates *tensor.Tensor, red reduction) (*tensor.Tensor, error) {
	opt = opt.orDefault()
	if red != "none" && red != "add" && red != "mul" && red != "max" && red != "min" {
		return nil, op.errorf("reduction", "unknown reduction %q", red)
	}
	at, block, err := tupleTargets(opt, op, data.Shape(), indices, 0)
	if err != nil {
		return nil, err
	}
	is := indices.Shape()
	want := append(append([]int{}, is[:len(is)-1]...), data.Shape()[is[len(is)-1]:]...)
	if !tensor.SameShape(updates.Shape(), want) || updates.DataType() != data.DataType() {
		return nil, op.errorf("updates", "updates must be %v of shape %v, got %s", data.DataType(), want, updates.Describe())
	}
	y, err := opt.newOverwritten(op, data.DataType(), data.Shape())
	if err != nil {
		return nil, err
	}
	if red == "none" && block > 1 && data.DataType() != tensor.String {
		// Slices replace what is there: data is copied only when some
		// of the output is left to it, and slices that never overlap
		// may be written in any order, across cores.
		all, distinct, err := sliceCoverage(opt, op, at, block, data.Len())
		if err != nil {
			return nil, err
		}
		if !all {
			if err := movement.Copy(opt.moves(), y.Bytes(), data.Bytes()); err != nil {
				return nil, err
			}
		}
		if err := movement.ScatterBlocks(opt.moves(), y.Bytes(), updates.Bytes(), at, data.DataType().Size(), block, distinct); err != nil {
			return nil, err
		}
		return y, nil
	}
	copyTensor(y, data)
	if err := scatterBlocks(op, y, at, updates, block, red); err != nil {
		return nil, err
	}
	return y, nil
}

// sliceCoverage reports whether the slices of block elements at the
// offsets at (multiples of block) cover all n elements of the output, and
// whether no two of them are the same slice. It marks the slots in a bit
// set, charged to the run; when the set would take more bytes than at
// (far fewer slices than slots) it does not look, and answers false twice.
func sliceCoverage(opt *Options, op opRef, at []int64, block, n int) (all, distinct bool, err error) {
	slots := n / block
	if slots == 0 || slots/64 > len(at) {
		return false, false, nil
	}
	words := (slots + 63) / 64
	if err := opt.charge(op, "slice coverage", int64(words)*8); err != nil {
		return false, false, err
	}
	seen := make([]uint64, words)
	distinct = true
	marked := 0
	for _, a := range at {
		k := int(a) / block
		bit := uint64(1) << (k % 64)
		if seen[k/64]&bit != 0 {
			distinct = false
			continue
		}
		seen[k/64] |= bit
		marked++
	}
	return marked == slots, distinct, nil
}
