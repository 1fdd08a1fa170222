package reference_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/reference"
	"github.com/onnxshape/onnxshape/tensor"
)

// Random convolutions through both engines (TestEnginesAgreeOnRandomValidNodes):
// the float outputs within the bound reference.Agree states for them
// (convBound: 2*(k+8)*eps*(k*M+|B|), k the terms of one output), the
// integer ones exactly.

func init() {
	generators["Conv"] = func(r *rand.Rand) (*ops.Node, []tensor.Value) { return randConv(r, "Conv") }
	generators["ConvTranspose"] = func(r *rand.Rand) (*ops.Node, []tensor.Value) { return randConv(r, "ConvTranspose") }
	generators["ConvInteger"] = func(r *rand.Rand) (*ops.Node, []tensor.Value) { return randConv(r, "ConvInteger") }
	generators["QLinearConv"] = func(r *rand.Rand) (*ops.Node, []tensor.Value) { return randConv(r, "QLinearConv") }
	generators["DeformConv"] = func(r *rand.Rand) (*ops.Node, []tensor.Value) { return randConv(r, "DeformConv") }
	generators["Col2Im"] = randCol2Im
}

// convFloatTypes returns the float types version v of a convolution takes.
func convFloatTypes(v int) []tensor.DataType {
	if v >= 22 {
		return []tensor.DataType{tensor.Float, tensor.Float, tensor.Double, tensor.Float16, tensor.BFloat16}
	}
	return []tensor.DataType{tensor.Float, tensor.Float, tensor.Double, tensor.Float16}
}

// randConv draws a node of a convolution operator: 1 to 3 spatial axes
// (2 for DeformConv), groups (now and then depthwise), strides, dilations,
// pads or auto_pad, with and without bias, now and then a 1x1.
func randConv(r *rand.Rand, opType string) (*ops.Node, []tensor.Value) {
	v := pickVersion(r, opType)
	n := &ops.Node{OpType: opType, Version: v, Attrs: map[string]ops.Attribute{}}
	spatial := 1 + r.IntN(2)
	if r.IntN(6) == 0 {
		spatial = 3
	}
	if opType == "DeformConv" {
		spatial = 2
	}
	group := 1 + r.IntN(2)
	cg, mg := 1+r.IntN(3), 1+r.IntN(3)
	if r.IntN(4) == 0 { // depthwise
		group, cg, mg = 1+r.IntN(4), 1, 1
	}
	c, m := cg*group, mg*group
	batch := 1 + r.IntN(2)
	kernel, strides, dil, pads, xdims := make([]int, spatial), make([]int, spatial), make([]int, spatial), make([]int, 2*spatial), make([]int, spatial)
	pointwise := r.IntN(6) == 0
	for i := range spatial {
		kernel[i], strides[i], dil[i] = 1+r.IntN(3), 1+r.IntN(2), 1+r.IntN(2)
		pads[i], pads[i+spatial] = r.IntN(3), r.IntN(3)
		if pointwise {
			kernel[i], strides[i], pads[i], pads[i+spatial] = 1, 1, 0, 0
		}
		xdims[i] = (kernel[i]-1)*dil[i] + 1 + r.IntN(5)
	}
	if r.IntN(2) == 0 {
		n.Attrs["strides"] = attrInts(strides...)
	}
	if r.IntN(2) == 0 {
		n.Attrs["dilations"] = attrInts(dil...)
	}
	if r.IntN(3) == 0 {
		n.Attrs["kernel_shape"] = attrInts(kernel...)
	}
	if group > 1 || r.IntN(4) == 0 {
		n.Attrs["group"] = attrInt(group)
	}
	autoPad := "NOTSET"
	if opType != "DeformConv" && r.IntN(3) == 0 {
		autoPad = []string{"SAME_UPPER", "SAME_LOWER", "VALID"}[r.IntN(3)]
		n.Attrs["auto_pad"] = attrStr(autoPad)
	} else if !pointwise && r.IntN(3) > 0 {
		n.Attrs["pads"] = attrInts(pads...)
	}
	if _, ok := n.Attrs["strides"]; !ok {
		strides = []int{1, 1, 1}[:spatial]
	}
	if _, ok := n.Attrs["dilations"]; !ok {
		dil = []int{1, 1, 1}[:spatial]
	}
	xshape := append([]int{batch, c}, xdims...)
	wshape := append([]int{m, cg}, kernel...)
	if opType == "ConvTranspose" {
		wshape[0], wshape[1] = c, mg
		if r.IntN(4) == 0 {
			op := make([]int, spatial)
			for i := range op {
				op[i] = r.IntN(strides[i])
			}
			n.Attrs["output_padding"] = attrInts(op...)
		} else if r.IntN(5) == 0 {
			os := make([]int, spatial)
			for i := range os {
				os[i] = xdims[i]*strides[i] + r.IntN(3) - 1
			}
			n.Attrs["output_shape"] = attrInts(os...)
			delete(n.Attrs, "pads")
		}
	}
	switch opType {
	case "ConvInteger", "QLinearConv":
		xt := []tensor.DataType{tensor.Uint8, tensor.Int8}[r.IntN(2)]
		wt := []tensor.DataType{tensor.Uint8, tensor.Int8}[r.IntN(2)]
		lo := func(dt tensor.DataType) float64 {
			if dt == tensor.Int8 {
				return -128
			}
			return 0
		}
		x := randTensor(r, xt, xshape, lo(xt), lo(xt)+255, false)
		w := randTensor(r, wt, wshape, lo(wt), lo(wt)+255, false)
		xz := randTensor(r, xt, []int{}, lo(xt), lo(xt)+255, false)
		wzShape := []int{}
		if r.IntN(2) == 0 {
			wzShape = []int{m}
		}
		wz := randTensor(r, wt, wzShape, lo(wt), lo(wt)+255, false)
		if opType == "ConvInteger" {
			in := []tensor.Value{x, w}
			if r.IntN(4) > 0 {
				in = append(in, xz)
				if r.IntN(4) > 0 {
					in = append(in, wz)
				}
			}
			return n, in
		}
		yt := []tensor.DataType{tensor.Uint8, tensor.Int8}[r.IntN(2)]
		scale := func(shape []int) *tensor.Tensor { return randTensor(r, tensor.Float, shape, 0.001, 0.05, false) }
		in := []tensor.Value{x, scale(nil), xz, w, scale(wzShape), wz, scale(nil), randTensor(r, yt, nil, lo(yt), lo(yt)+255, false)}
		if r.IntN(2) == 0 {
			in = append(in, randTensor(r, tensor.Int32, []int{m}, -5000, 5000, false))
		}
		return n, in
	}
	dt := convFloatTypes(v)[r.IntN(len(convFloatTypes(v)))]
	x := randTensor(r, dt, xshape, -2, 2, false)
	w := randTensor(r, dt, wshape, -2, 2, false)
	var b tensor.Value
	if r.IntN(2) == 0 {
		b = randTensor(r, dt, []int{m}, -2, 2, false)
	}
	if opType != "DeformConv" {
		in := []tensor.Value{x, w}
		if b != nil {
			in = append(in, b)
		}
		return n, in
	}
	og := 1
	if c%2 == 0 && r.IntN(2) == 0 {
		og = 2
		n.Attrs["offset_group"] = attrInt(og)
	}
	oshape := make([]int, spatial)
	for i := range spatial {
		oshape[i] = (xdims[i]+pads[i]+pads[i+spatial]-(kernel[i]-1)*dil[i]-1)/strides[i] + 1
		if _, ok := n.Attrs["pads"]; !ok {
			oshape[i] = (xdims[i]-(kernel[i]-1)*dil[i]-1)/strides[i] + 1
		}
	}
	offset := randTensor(r, dt, append([]int{batch, og * kernel[0] * kernel[1] * 2}, oshape...), -2, 2, false)
	in := []tensor.Value{x, w, offset, b}
	if r.IntN(2) == 0 {
		in = append(in, randTensor(r, dt, append([]int{batch, og * kernel[0] * kernel[1]}, oshape...), 0, 1, false))
	}
	return n, in
}

// randCol2Im draws a Col2Im node whose input holds the blocks its image
// and attributes give.
func randCol2Im(r *rand.Rand) (*ops.Node, []tensor.Value) {
	n := &ops.Node{OpType: "Col2Im", Version: 18, Attrs: map[string]ops.Attribute{}}
	spatial := 1 + r.IntN(3)
	image, block, strides, dil, pads := make([]int, spatial), make([]int, spatial), make([]int, spatial), make([]int, spatial), make([]int, 2*spatial)
	blocks, kprod := 1, 1
	for i := range spatial {
		block[i], strides[i], dil[i] = 1+r.IntN(3), 1+r.IntN(2), 1+r.IntN(2)
		pads[i], pads[i+spatial] = r.IntN(2), r.IntN(2)
		image[i] = (block[i]-1)*dil[i] + 1 + r.IntN(4)
		blocks *= (image[i]+pads[i]+pads[i+spatial]-(block[i]-1)*dil[i]-1)/strides[i] + 1
		kprod *= block[i]
	}
	n.Attrs["strides"], n.Attrs["dilations"], n.Attrs["pads"] = attrInts(strides...), attrInts(dil...), attrInts(pads...)
	dt := []tensor.DataType{tensor.Float, tensor.Double, tensor.Float16, tensor.BFloat16, tensor.Int32, tensor.Int8, tensor.Uint16, tensor.Int64}[r.IntN(8)]
	x := randTensor(r, dt, []int{1 + r.IntN(2), kprod * (1 + r.IntN(2)), blocks}, -9, 9, false)
	if r.IntN(10) == 0 { // now and then a block count off by one
		x = randTensor(r, dt, []int{1, kprod, blocks + 1}, -9, 9, false)
	}
	return n, []tensor.Value{x, ints64(image...), ints64(block...)}
}

// Both engines stop a cancelled convolution with a [cancelled] error.
func TestConvCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	x := tensor.MustNew(tensor.Float, 1, 2, 16, 16)
	w := tensor.MustNew(tensor.Float, 4, 2, 3, 3)
	n := &ops.Node{OpType: "Conv", Version: 22, NumOutputs: 1, Attrs: map[string]ops.Attribute{}}
	for _, engine := range []string{"fast", "reference"} {
		run, _ := reference.Kernel("", "Conv", 22)
		if engine == "fast" {
			s, _ := ops.Lookup("", "Conv", 22)
			run = s.Run
		}
		_, err := run(ops.NewOptions(ops.WithContext(ctx)), n, []tensor.Value{x, w})
		var e *ops.Error
		if !errors.Is(err, context.Canceled) || !errors.As(err, &e) || e.Rule != "cancelled" {
			t.Errorf("%s: got %v, want a [cancelled] error", engine, err)
		}
	}
}
