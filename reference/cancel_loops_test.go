package reference_test

// The reference kernels whose long loops look at the run: the
// movement operators, ConvTranspose, the normalizations, LRN and
// GridSample each stop within 100 ms of CPU time of a cancellation on an
// input of millions of elements (checkCancelled, bounded_kernels_test.go).

import (
	"testing"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// loopNodes are nodes of those operators on about four million elements.
func loopNodes() []heavyNode {
	node := func(op string, v, outs int, attrs map[string]ops.Attribute) ops.Node {
		return ops.Node{OpType: op, Version: v, Attrs: attrs, NumOutputs: outs}
	}
	vals := func(ts ...*tensor.Tensor) func() []tensor.Value {
		return func() []tensor.Value {
			out := make([]tensor.Value, len(ts))
			for i, t := range ts {
				out[i] = t
			}
			return out
		}
	}
	image := func() *tensor.Tensor { return ramp(1, 4, 1024, 1024) }
	grid := func() *tensor.Tensor {
		g := tensor.MustNew(tensor.Float, 1, 512, 512, 2)
		v, _ := tensor.Data[float32](g)
		for i := range v {
			v[i] = float32(i%513)/256 - 1
		}
		return g
	}
	return []heavyNode{
		{"Transpose", node("Transpose", 21, 1, nil), vals(image())},
		{"Slice", node("Slice", 13, 1, nil), vals(image(), int64s(1), int64s(1024), int64s(3), int64s(1))},
		{"Pad", node("Pad", 21, 1, nil), vals(image(), int64s(0, 0, 1, 1, 0, 0, 1, 1))},
		{"Tile", node("Tile", 13, 1, nil), vals(ramp(1, 4, 512, 512), int64s(1, 1, 2, 2))},
		{"Expand", node("Expand", 13, 1, nil), vals(ramp(1, 1, 1024, 1024), int64s(1, 4, 1024, 1024))},
		{"Concat", node("Concat", 13, 1, map[string]ops.Attribute{"axis": one(1)}), vals(ramp(1, 2, 1024, 1024), ramp(1, 2, 1024, 1024))},
		{"Split", node("Split", 18, 2, map[string]ops.Attribute{"axis": one(1), "num_outputs": one(2)}), vals(image())},
		{"DepthToSpace", node("DepthToSpace", 13, 1, map[string]ops.Attribute{"blocksize": one(2)}), vals(ramp(1, 16, 512, 512))},
		{"SpaceToDepth", node("SpaceToDepth", 13, 1, map[string]ops.Attribute{"blocksize": one(2)}), vals(image())},
		{"CenterCropPad", node("CenterCropPad", 18, 1, nil), vals(image(), int64s(1, 4, 1000, 1000))},
		{"Reshape", node("Reshape", 21, 1, nil), vals(image(), int64s(4, 1024, 1024))},
		{"ConvTranspose", node("ConvTranspose", 22, 1, map[string]ops.Attribute{"pads": ints(1, 1, 1, 1)}), vals(ramp(1, 8, 256, 256), ramp(8, 8, 3, 3))},
		{"BatchNormalization", node("BatchNormalization", 15, 1, nil), vals(image(), ramp(4), ramp(4), ramp(4), ramp(4))},
		{"BatchNormalization training", node("BatchNormalization", 15, 3, map[string]ops.Attribute{"training_mode": one(1)}),
			vals(image(), ramp(4), ramp(4), ramp(4), ramp(4))},
		{"GroupNormalization", node("GroupNormalization", 21, 1, map[string]ops.Attribute{"num_groups": one(2)}), vals(image(), ramp(4), ramp(4))},
		{"InstanceNormalization", node("InstanceNormalization", 22, 1, nil), vals(image(), ramp(4), ramp(4))},
		{"LayerNormalization", node("LayerNormalization", 17, 1, nil), vals(ramp(1024, 4096), ramp(4096), ramp(4096))},
		{"RMSNormalization", node("RMSNormalization", 23, 1, nil), vals(ramp(1024, 4096), ramp(4096))},
		{"LpNormalization", node("LpNormalization", 22, 1, nil), vals(ramp(4096, 1024))},
		{"MeanVarianceNormalization", node("MeanVarianceNormalization", 13, 1, nil), vals(image())},
		{"LRN", node("LRN", 13, 1, map[string]ops.Attribute{"size": one(3)}), vals(image())},
		{"GridSample", node("GridSample", 22, 1, nil), vals(ramp(1, 4, 256, 256), grid())},
	}
}

func TestReferenceLoopsCancelled(t *testing.T) {
	if testing.Short() {
		t.Skip("runs each kernel on millions of elements")
	}
	for _, h := range loopNodes() {
		t.Run(h.name, func(t *testing.T) { checkCancelled(t, h) })
	}
}
