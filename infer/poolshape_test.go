package infer_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/onnxshape/onnxshape/infer"
	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// TestPoolShapesAgreeWithKernels: on random MaxPool, AveragePool and
// LpPool nodes (strides, dilations, pads or every auto_pad, ceil_mode), the
// shape window.go infers is the shape of what the kernel computes. Found by
// the registry sweep (bench/ort TestORTSweep): auto_pad VALID with
// ceil_mode, kernel 3 stride 3 over 4, inferred 1 window where the kernels
// (and onnxruntime) give 2.
func TestPoolShapesAgreeWithKernels(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	checked := 0
	for iter := range 400 {
		opType := []string{"MaxPool", "AveragePool", "LpPool"}[iter%3]
		spatial := 1 + r.IntN(3)
		xs := []int{1, 1 + r.IntN(2)}
		var kernel, strides, dil, pads []int64
		for range spatial {
			k, s, d := 1+r.IntN(3), 1+r.IntN(3), 1+r.IntN(2)
			if opType == "LpPool" {
				d = 1
			}
			xs = append(xs, 1+r.IntN(7))
			kernel, strides, dil = append(kernel, int64(k)), append(strides, int64(s)), append(dil, int64(d))
			pads = append(pads, int64(r.IntN(k)))
		}
		for range spatial {
			pads = append(pads, int64(r.IntN(int(kernel[len(pads)-spatial]))))
		}
		ceil := int64(r.IntN(2))
		attrs := map[string]ops.Attribute{"kernel_shape": {Type: ops.AttrInts, Ints: kernel}, "strides": {Type: ops.AttrInts, Ints: strides},
			"ceil_mode": {Type: ops.AttrInt, Int: ceil}}
		pattrs := []*pb.AttributeProto{aInts("kernel_shape", kernel...), aInts("strides", strides...), aInt("ceil_mode", ceil)}
		if opType != "LpPool" {
			attrs["dilations"] = ops.Attribute{Type: ops.AttrInts, Ints: dil}
			pattrs = append(pattrs, aInts("dilations", dil...))
		}
		switch autoPad := []string{"NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID", "VALID", ""}[r.IntN(6)]; autoPad {
		case "":
			attrs["pads"] = ops.Attribute{Type: ops.AttrInts, Ints: pads}
			pattrs = append(pattrs, aInts("pads", pads...))
		default:
			attrs["auto_pad"] = ops.Attribute{Type: ops.AttrString, String: autoPad}
			pattrs = append(pattrs, aStr("auto_pad", autoPad))
		}
		x := tensor.MustNew(tensor.Float, xs...)
		out, err := ops.Call(t.Context(), nil, ops.Node{OpType: opType, Version: 22, Attrs: attrs}, x)
		if err != nil {
			continue // a node the kernel refuses
		}
		b := newGraph()
		dims := make([]any, len(xs))
		for i, d := range xs {
			dims[i] = d
		}
		y := b.op(opType, []string{b.input("x", dims...)}, pattrs...)
		b.output(y)
		res, err := infer.Proto(t.Context(), b.model(22), "", nil)
		if err != nil {
			t.Fatal(err)
		}
		v, _ := res.Value(y)
		want := out[0].(*tensor.Tensor).Shape()
		if got := v.String(); got != fmt.Sprintf("float[%s]", joinInts(want)) {
			t.Errorf("%s x %v attrs %v: inferred %s, the kernel gives %v", opType, xs, attrs, got, want)
		}
		checked++
	}
	if checked < 200 {
		t.Errorf("only %d nodes reached the kernels", checked)
	}
}
