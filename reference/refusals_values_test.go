package reference_test

// Refusals of operator-specific parameter values that the mutations
// (mutations_test.go) do not reach: one row per branch, asserting the
// rule and the whole message.

import (
	"testing"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func TestReferenceValueRefusals(t *testing.T) {
	img := func() *tensor.Tensor { return tensor.MustNew(tensor.Float, 1, 1, 4, 4) }
	m23 := func() *tensor.Tensor { return tensor.MustNew(tensor.Float, 2, 3) }
	a := func(kv ...any) map[string]ops.Attribute { return graphAttrs(kv...) }
	sonnx := ops.NewOptions(ops.WithProfile(ops.ProfileSONNX))
	for _, c := range []struct {
		name  string
		op    string
		ver   int
		opt   *ops.Options
		attrs map[string]ops.Attribute
		in    []tensor.Value
		rule  string
		msg   string
	}{
		// Resize
		{"Resize nearest antialias", "Resize", 18, nil, a("antialias", one(1)), []tensor.Value{img(), nil, f32(1, 1, 2, 2)}, "antialias", "Resize-18 [antialias] antialias applies to modes linear and cubic, not nearest"},
		{"Resize cubic at 10", "Resize", 10, nil, a("mode", str("cubic")), []tensor.Value{img(), f32(1, 1, 2, 2)}, "mode", "Resize-10 [mode] mode cubic needs version 11 or later"},
		{"Resize half_pixel_symmetric at 18", "Resize", 18, nil, a("coordinate_transformation_mode", str("half_pixel_symmetric")), []tensor.Value{img(), nil, f32(1, 1, 2, 2)}, "coordinate_transformation_mode", "Resize-18 [coordinate_transformation_mode] half_pixel_symmetric needs version 19 or later"},
		{"Resize tf_half_pixel_for_nn at 13", "Resize", 13, nil, a("coordinate_transformation_mode", str("tf_half_pixel_for_nn")), []tensor.Value{img(), nil, f32(1, 1, 2, 2)}, "coordinate_transformation_mode", "Resize-13 [coordinate_transformation_mode] tf_half_pixel_for_nn exists in version 11 only"},
		{"Resize scales and sizes", "Resize", 13, nil, nil, []tensor.Value{img(), nil, f32(1, 1, 2, 2), int64s(1, 1, 8, 8)}, "scales", "Resize-13 [scales] give scales or sizes, not both"},
		{"Resize huge scale", "Resize", 13, nil, nil, []tensor.Value{img(), nil, f32(1, 1, 1e30, 1)}, "scales", "Resize-13 [scales] axis 2 of length 4 scaled by 1.0000000150474662e+30 is too long"},
		{"Resize scale NaN", "Resize", 13, nil, nil, []tensor.Value{img(), nil, f32(1, 1, float32(nan()), 1)}, "scales", "Resize-13 [scales] scale NaN of axis 2 is not a positive number"},
		{"Resize antialias tiny scale", "Resize", 18, nil, a("mode", str("linear"), "antialias", one(1)), []tensor.Value{img(), nil, f32(1, 1, 1e-9, 1)}, "ok", ""},
		{"Resize sizes of an empty axis", "Resize", 13, nil, nil, []tensor.Value{tensor.MustNew(tensor.Float, 1, 1, 0, 4), nil, nil, int64s(1, 1, 2, 4)}, "sizes", "Resize-13 [sizes] axis 2 is empty and cannot be resized to 2"},
		{"Resize roi int64", "Resize", 13, nil, a("coordinate_transformation_mode", str("tf_crop_and_resize")), []tensor.Value{img(), int64s(0, 0, 0, 0, 1, 1, 1, 1), f32(1, 1, 2, 2)}, "roi", "Resize-13 [roi] roi must be a 1-D float tensor, got tensor(int64)[8]"},
		// Slice
		{"Slice-1 no starts", "Slice", 1, nil, a("ends", ints(1)), []tensor.Value{m23()}, "starts", "Slice-1 [starts] attribute starts is required"},
		{"Slice-1 no ends", "Slice", 1, nil, a("starts", ints(0)), []tensor.Value{m23()}, "ends", "Slice-1 [ends] attribute ends is required"},
		{"SONNX Slice-1 no axes", "Slice", 1, sonnx, a("starts", ints(0), "ends", ints(1)), []tensor.Value{m23()}, "R1", "Slice-1 [R1] axes must be given"},
		{"Slice-10 starts attribute", "Slice", 10, nil, a("starts", ints(0)), []tensor.Value{m23(), int64s(0), int64s(1)}, "attribute", "Slice-10 [attribute] attribute starts exists in version 1 only"},
		{"SONNX Slice no steps", "Slice", 13, sonnx, nil, []tensor.Value{m23(), int64s(0), int64s(1), int64s(0)}, "R3", "Slice-13 [R3] steps must be given"},
		{"Slice ends int32", "Slice", 13, nil, nil, []tensor.Value{m23(), int64s(0), tensor.MustFromSlice([]int32{1}, 1)}, "Tind", "Slice-13 [Tind] ends is int32 but starts is int64"},
		{"SONNX Slice scalar", "Slice", 13, sonnx, nil, []tensor.Value{tensor.Scalar(float32(1)), int64s(0), int64s(1), int64s(0), int64s(1)}, "X [C3]", "Slice-13 X [C3] X has rank 0"},
		{"Slice axis twice", "Slice", 13, nil, nil, []tensor.Value{m23(), int64s(0, 0), int64s(1, 1), int64s(1, 1)}, "axes", "Slice-13 [axes] axis 1 is listed twice"},
		{"Slice step 0", "Slice", 13, nil, nil, []tensor.Value{m23(), int64s(0), int64s(1), int64s(0), int64s(0)}, "steps", "Slice-13 [steps] steps[0] is 0"},
		{"SONNX Slice start past end", "Slice", 13, sonnx, nil, []tensor.Value{m23(), int64s(1, 0), int64s(0, 3), int64s(0, 1), int64s(1, 1)}, "R6", "Slice-13 [R6] axis 0: a positive step needs start <= end"},
		// Einsum
		{"Einsum no inputs", "Einsum", 12, nil, a("equation", str("->")), nil, "input", "Einsum-12 [input] no input"},
		{"Einsum two arrows", "Einsum", 12, nil, a("equation", str("i->i->i")), []tensor.Value{f32(1)}, "equation", "Einsum-12 [equation] \"i->i->i\" has two arrows"},
		{"Einsum bad output term", "Einsum", 12, nil, a("equation", str("i->i.")), []tensor.Value{f32(1)}, "equation", "Einsum-12 [equation] term \"i.\" of \"i->i.\" holds '.'"},
		{"Einsum uint32", "Einsum", 12, nil, a("equation", str("i->i")), []tensor.Value{tensor.MustFromSlice([]uint32{1}, 1)}, "ok", ""},
		{"Einsum bool", "Einsum", 12, nil, a("equation", str("i->i")), []tensor.Value{tensor.MustFromSlice([]bool{true}, 1)}, "type", "Einsum-12 [type] the inputs are bool, which version 12 does not accept"},
		{"Einsum two ellipses", "Einsum", 12, nil, a("equation", str("......->")), []tensor.Value{f32(1)}, "equation", "Einsum-12 [equation] term \"......\" of \"......->\" has two ellipses"},
		{"Einsum ellipsis last in output", "Einsum", 12, nil, a("equation", str("i...->i...")), []tensor.Value{m23()}, "ok", ""},
		// Reductions
		{"ReduceSum-11 noop_with_empty_axes", "ReduceSum", 11, nil, a("noop_with_empty_axes", one(1)), []tensor.Value{m23()}, "attribute", "ReduceSum-11 [attribute] attribute noop_with_empty_axes is not defined in version 11"},
		{"ReduceSum-13 axes attribute", "ReduceSum", 13, nil, a("axes", ints(0)), []tensor.Value{m23()}, "attribute", "ReduceSum-13 [attribute] attribute axes is not defined in version 13"},
		{"ReduceSum output over the cap", "ReduceSum", 13, ops.NewOptions(ops.WithMaxTensorBytes(4)), nil, []tensor.Value{m23(), int64s(0)}, "size", "ReduceSum-13 [size] output float of shape [1 3] would take 3 elements of 4 bytes, above the limit of 4 bytes"},
		// MaxPool
		{"MaxPool-1 storage_order", "MaxPool", 1, nil, a("kernel_shape", ints(2, 2), "storage_order", one(0)), []tensor.Value{img()}, "attribute", "MaxPool-1 [attribute] attribute storage_order is not defined in version 1"},
		{"SONNX MaxPool empty axis", "MaxPool", 22, sonnx, a("kernel_shape", ints(2, 2), "pads", ints(0, 0, 0, 0), "strides", ints(1, 1), "dilations", ints(1, 1)), []tensor.Value{tensor.MustNew(tensor.Float, 1, 1, 0, 4)}, "DIMS", "MaxPool-22 [DIMS] input X has shape [1 1 0 4]: dimension 2 is 0, and the profile's tensors have positive dimensions"},
		{"MaxPool window in the padding", "MaxPool", 22, nil, a("kernel_shape", ints(1, 1), "pads", ints(0, 0, 3, 0), "strides", ints(1, 1)), []tensor.Value{img()}, "ok", ""},
		{"SONNX MaxPool stride 0", "MaxPool", 22, sonnx, a("kernel_shape", ints(2, 2), "pads", ints(0, 0, 0, 0), "strides", ints(0, 1), "dilations", ints(1, 1)), []tensor.Value{img()}, "strides [C1]", "MaxPool-22 strides [C1] strides[0] is 0, must be > 0"},
		{"SONNX MaxPool pads of 2", "MaxPool", 22, sonnx, a("kernel_shape", ints(2, 2), "pads", ints(0, 0), "strides", ints(1, 1), "dilations", ints(1, 1)), []tensor.Value{img()}, "pads [C1]", "MaxPool-22 pads [C1] pads must have 4 entries, got 2"},
		{"SONNX MaxPool negative pad", "MaxPool", 22, sonnx, a("kernel_shape", ints(2, 2), "pads", ints(0, -1, 0, 0), "strides", ints(1, 1), "dilations", ints(1, 1)), []tensor.Value{img()}, "pads", "MaxPool-22 [pads] pads[1] is -1, must be >= 0"},
		{"MaxPool indices over the cap", "MaxPool", 22, nil, a("kernel_shape", ints(2, 2)), []tensor.Value{img()}, "size", "MaxPool-22 [size] output int64 of 72 bytes: size limit exceeded"},
	} {
		t.Run(c.name, func(t *testing.T) {
			n := 1
			if c.name == "MaxPool indices over the cap" {
				n = 2
				c.opt = chargeFailingAt(2)
			}
			out, err := callRef(t, c.opt, c.op, c.ver, c.attrs, n, c.in...)
			if c.rule == "ok" {
				if err != nil {
					t.Fatalf("got %v, want outputs", err)
				}
				return
			}
			wantRefusal(t, out, err, c.op, c.ver, c.rule, c.msg)
		})
	}
}
