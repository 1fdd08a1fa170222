// ZipMap (ai.onnx.ml, version 1), after the ONNX-ML specification:
// "Creates a map from the input and the attributes. The values are
// provided by the input tensor, while the keys are specified by the
// attributes. Must provide keys in either classlabels_strings or
// classlabels_int64s (but not both). The columns of the tensor correspond
// one-by-one to the keys specified by the attributes. There must be as
// many columns as keys." X is tensor(float), [N, C] or [C] (one row, as
// onnxruntime reads it); Z is seq(map(string|int64, float)), one map a
// row, its entries in the order of the labels. A label given twice is
// refused (a map's keys are unique).

package reference

import (
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() { registerIn("ai.onnx.ml", "ZipMap", []int{1}, zipMap) }

func zipMap(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	x, err := requiredInput(op, in, 0, "X")
	if err != nil {
		return nil, err
	}
	if x.DataType() != tensor.Float {
		return nil, op.errorf("type", "X must be float")
	}
	rows, cols := 1, 0
	switch x.Rank() {
	case 1:
		cols = x.Shape()[0]
	case 2:
		rows, cols = x.Shape()[0], x.Shape()[1]
	default:
		return nil, op.errorf("rank", "X must be [N, C] or [C]")
	}
	ints, strs, err := namedClassLabels(n, "classlabels_int64s")
	if err != nil {
		return nil, err
	}
	if cols != len(ints)+len(strs) {
		return nil, op.errorf("columns", "as many columns as keys")
	}
	seen := map[any]bool{}
	for i := range cols {
		var k any = int64(0)
		if len(ints) > 0 {
			k = ints[i]
		} else {
			k = strs[i]
		}
		if seen[k] {
			return nil, op.errorf("labels", "a label appears twice")
		}
		seen[k] = true
	}
	keyType := tensor.Int64
	if len(strs) > 0 {
		keyType = tensor.String
	}
	if err := chargeScratch(opt, op, "the maps", rows, 256); err != nil {
		return nil, err
	}
	xs, _ := tensor.Data[float32](x)
	z := &tensor.MapSequence{KeyType: keyType, ValueType: tensor.Float}
	stop := newPoll(opt, op)
	for r := range rows {
		keys, err := newTensor(opt, op, keyType, []int{cols})
		if err != nil {
			return nil, err
		}
		vals, err := newTensor(opt, op, tensor.Float, []int{cols})
		if err != nil {
			return nil, err
		}
		vs, _ := tensor.Data[float32](vals)
		for j := range cols {
			if keyType == tensor.String {
				keys.Strings()[j] = strs[j]
			} else {
				ks, _ := tensor.Data[int64](keys)
				ks[j] = ints[j]
			}
			vs[j] = xs[r*cols+j]
		}
		z.Items = append(z.Items, &tensor.Map{Keys: keys, Values: vals})
		if stop.stop(cols + 1) {
			return nil, stop.err
		}
	}
	return []tensor.Value{z}, nil
}
