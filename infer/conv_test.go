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

// TestConvShapesAgreeWithKernels: on random Conv and ConvTranspose nodes
// (strides, dilations, pads or every auto_pad, groups, output_padding and
// output_shape), the shape window.go infers is the shape of what the
// kernel computes.
func TestConvShapesAgreeWithKernels(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	checked := 0
	for iter := range 300 {
		opType := []string{"Conv", "ConvTranspose"}[iter%2]
		spatial := 1 + r.IntN(3)
		group := 1 + r.IntN(2)
		c, m := group*(1+r.IntN(2)), group*(1+r.IntN(2))
		xs := []int{1 + r.IntN(2), c}
		ws := []int{m, c / group}
		if opType == "ConvTranspose" {
			ws = []int{c, m / group}
		}
		var kernel, strides, dil, pads, outPad, outShape []int64
		for range spatial {
			k, s, d := 1+r.IntN(3), 1+r.IntN(3), 1+r.IntN(2)
			xs = append(xs, (k-1)*d+1+r.IntN(6))
			ws = append(ws, k)
			kernel, strides, dil = append(kernel, int64(k)), append(strides, int64(s)), append(dil, int64(d))
			outPad = append(outPad, int64(r.IntN(s)))
			outShape = append(outShape, int64(xs[len(xs)-1]*s+r.IntN(3)))
		}
		for range 2 * spatial {
			pads = append(pads, int64(r.IntN(3)))
		}
		attrs := map[string]ops.Attribute{"strides": {Type: ops.AttrInts, Ints: strides}, "dilations": {Type: ops.AttrInts, Ints: dil},
			"group": {Type: ops.AttrInt, Int: int64(group)}}
		pattrs := []*pb.AttributeProto{aInts("strides", strides...), aInts("dilations", dil...), aInt("group", int64(group))}
		if r.IntN(2) == 0 {
			attrs["kernel_shape"] = ops.Attribute{Type: ops.AttrInts, Ints: kernel}
			pattrs = append(pattrs, aInts("kernel_shape", kernel...))
		}
		switch autoPad := []string{"NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID", ""}[r.IntN(5)]; autoPad {
		case "":
			attrs["pads"] = ops.Attribute{Type: ops.AttrInts, Ints: pads}
			pattrs = append(pattrs, aInts("pads", pads...))
		default:
			attrs["auto_pad"] = ops.Attribute{Type: ops.AttrString, String: autoPad}
			pattrs = append(pattrs, aStr("auto_pad", autoPad))
		}
		if opType == "ConvTranspose" {
			switch r.IntN(3) {
			case 0:
				attrs["output_padding"] = ops.Attribute{Type: ops.AttrInts, Ints: outPad}
				pattrs = append(pattrs, aInts("output_padding", outPad...))
			case 1:
				attrs["output_shape"] = ops.Attribute{Type: ops.AttrInts, Ints: outShape}
				pattrs = append(pattrs, aInts("output_shape", outShape...))
			}
		}
		x, w := tensor.MustNew(tensor.Float, xs...), tensor.MustNew(tensor.Float, ws...)
		out, err := ops.Call(t.Context(), nil, ops.Node{OpType: opType, Version: 22, Attrs: attrs}, x, w)
		if err != nil {
			continue // a node the kernel refuses
		}
		b := newGraph()
		dims := func(s []int) []any {
			v := make([]any, len(s))
			for i, d := range s {
				v[i] = d
			}
			return v
		}
		y := b.op(opType, []string{b.input("x", dims(xs)...), b.input("w", dims(ws)...)}, pattrs...)
		b.output(y)
		res, err := infer.Proto(t.Context(), b.model(22), "", nil)
		if err != nil {
			t.Fatal(err)
		}
		v, _ := res.Value(y)
		want := out[0].(*tensor.Tensor).Shape()
		if got := v.String(); got != fmt.Sprintf("float[%s]", joinInts(want)) {
			t.Errorf("%s x %v w %v attrs %v: inferred %s, the kernel gives %v", opType, xs, ws, attrs, got, want)
		}
		checked++
	}
	if checked < 100 {
		t.Errorf("only %d nodes reached the kernels", checked)
	}
}

func joinInts(v []int) string {
	s := ""
	for i, d := range v {
		if i > 0 {
			s += ","
		}
		s += fmt.Sprint(d)
	}
	return s
}
