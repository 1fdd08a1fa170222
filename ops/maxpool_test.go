package ops

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/onnxshape/onnxshape/internal/runenv"
	"github.com/onnxshape/onnxshape/ops/internal/movement"
	"github.com/onnxshape/onnxshape/ops/internal/window"
	"github.com/onnxshape/onnxshape/tensor"
	"github.com/x448/float16"
)

// poolSeq returns 1, 2, ..., n as float32.
func poolSeq(n int) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = float32(i + 1)
	}
	return v
}

var poolInf32 = float32(math.Inf(1))
var poolNaN32 = float32(math.NaN())

// The examples of the ONNX MaxPool documentation (the node tests'
// generators), each with its exact values, plus the cases this
// implementation defines: padding, ties, NaN, all -inf, empty windows.
func TestMaxPoolExamples(t *testing.T) {
	cases := []struct {
		name    string
		x       []float32
		shape   []int
		o       MaxPoolOptions
		y       []float32
		indices []int64
		yShape  []int
	}{
		{"2d_precomputed_pads", poolSeq(25), []int{1, 1, 5, 5},
			MaxPoolOptions{KernelShape: []int{5, 5}, Pads: []int{2, 2, 2, 2}},
			[]float32{13, 14, 15, 15, 15, 18, 19, 20, 20, 20, 23, 24, 25, 25, 25, 23, 24, 25, 25, 25, 23, 24, 25, 25, 25},
			[]int64{12, 13, 14, 14, 14, 17, 18, 19, 19, 19, 22, 23, 24, 24, 24, 22, 23, 24, 24, 24, 22, 23, 24, 24, 24},
			[]int{1, 1, 5, 5}},
		{"2d_precomputed_strides, storage_order 1", poolSeq(25), []int{1, 1, 5, 5},
			MaxPoolOptions{KernelShape: []int{2, 2}, Strides: []int{2, 2}, StorageOrder: 1},
			[]float32{7, 9, 17, 19}, []int64{6, 16, 8, 18}, []int{1, 1, 2, 2}},
		{"2d_precomputed_same_upper", poolSeq(25), []int{1, 1, 5, 5},
			MaxPoolOptions{KernelShape: []int{3, 3}, Strides: []int{2, 2}, AutoPad: "SAME_UPPER"},
			[]float32{7, 9, 10, 17, 19, 20, 22, 24, 25}, []int64{6, 8, 9, 16, 18, 19, 21, 23, 24}, []int{1, 1, 3, 3}},
		{"2d_ceil", poolSeq(16), []int{1, 1, 4, 4},
			MaxPoolOptions{KernelShape: []int{3, 3}, Strides: []int{2, 2}, CeilMode: true},
			[]float32{11, 12, 15, 16}, []int64{10, 11, 14, 15}, []int{1, 1, 2, 2}},
		{"2d_ceil_output_size_reduce_by_one: no window starts in the end padding", []float32{1, 2, 3, 4}, []int{1, 1, 2, 2},
			MaxPoolOptions{KernelShape: []int{1, 1}, Strides: []int{2, 2}, CeilMode: true},
			[]float32{1}, []int64{0}, []int{1, 1, 1, 1}},
		{"2d_dilations", poolSeq(16), []int{1, 1, 4, 4},
			MaxPoolOptions{KernelShape: []int{2, 2}, Dilations: []int{2, 2}},
			[]float32{11, 12, 15, 16}, []int64{10, 11, 14, 15}, []int{1, 1, 2, 2}},
		{"1d, two planes", []float32{3, 1, 4, 1, 5, 9, 2, 6}, []int{1, 2, 4},
			MaxPoolOptions{KernelShape: []int{2}},
			[]float32{3, 4, 4, 9, 9, 6}, []int64{0, 2, 2, 5, 5, 7}, []int{1, 2, 3}},
		{"3d, storage_order 0", poolSeq(8), []int{1, 1, 2, 2, 2},
			MaxPoolOptions{KernelShape: []int{1, 2, 1}},
			[]float32{3, 4, 7, 8}, []int64{2, 3, 6, 7}, []int{1, 1, 2, 1, 2}},
		// Column-major over (D1, D2, D3) = (2, 2, 2): element (d1, d2, d3)
		// has index d1 + 2*d2 + 4*d3.
		{"3d, storage_order 1", poolSeq(8), []int{1, 1, 2, 2, 2},
			MaxPoolOptions{KernelShape: []int{1, 2, 1}, StorageOrder: 1},
			[]float32{3, 4, 7, 8}, []int64{2, 6, 3, 7}, []int{1, 1, 2, 1, 2}},
		{"3d, storage_order 1, second plane", poolSeq(16), []int{1, 2, 2, 2, 2},
			MaxPoolOptions{KernelShape: []int{2, 2, 2}, StorageOrder: 1},
			[]float32{8, 16}, []int64{7, 15}, []int{1, 2, 1, 1, 1}},
		{"SAME_LOWER puts the odd pad first", poolSeq(5), []int{1, 1, 5},
			MaxPoolOptions{KernelShape: []int{2}, Strides: []int{2}, AutoPad: "SAME_LOWER"},
			[]float32{1, 3, 5}, []int64{0, 2, 4}, []int{1, 1, 3}},
		{"SAME_UPPER puts the odd pad last", poolSeq(5), []int{1, 1, 5},
			MaxPoolOptions{KernelShape: []int{2}, Strides: []int{2}, AutoPad: "SAME_UPPER"},
			[]float32{2, 4, 5}, []int64{1, 3, 4}, []int{1, 1, 3}},
		{"VALID ignores nothing but pads", poolSeq(5), []int{1, 1, 5},
			MaxPoolOptions{KernelShape: []int{2}, Strides: []int{2}, AutoPad: "VALID"},
			[]float32{2, 4}, []int64{1, 3}, []int{1, 1, 2}},
		{"padding never wins over negative values", []float32{-5, -3, -4, -9}, []int{1, 1, 2, 2},
			MaxPoolOptions{KernelShape: []int{2, 2}, Pads: []int{1, 1, 1, 1}},
			[]float32{-5, -3, -3, -4, -3, -3, -4, -4, -9}, []int64{0, 1, 1, 2, 1, 1, 2, 2, 3}, []int{1, 1, 3, 3}},
		{"ties go to the first maximum", []float32{2, 7, 7, 7, 1, 7}, []int{1, 1, 2, 3},
			MaxPoolOptions{KernelShape: []int{2, 2}},
			[]float32{7, 7}, []int64{1, 1}, []int{1, 1, 1, 2}},
		{"a window of -inf gives -inf and its first element", []float32{-poolInf32, -poolInf32, -poolInf32, 5}, []int{1, 1, 4},
			MaxPoolOptions{KernelShape: []int{2}, Pads: []int{1, 0}},
			[]float32{-poolInf32, -poolInf32, -poolInf32, 5}, []int64{0, 0, 1, 3}, []int{1, 1, 4}},
		{"NaN propagates: the first NaN of the window", []float32{1, poolNaN32, 9, poolNaN32, 2}, []int{1, 1, 5},
			MaxPoolOptions{KernelShape: []int{3}},
			[]float32{poolNaN32, poolNaN32, poolNaN32}, []int64{1, 1, 3}, []int{1, 1, 3}},
		{"NaN first in the window", []float32{poolNaN32, 9, 1}, []int{1, 1, 3},
			MaxPoolOptions{KernelShape: []int{2}},
			[]float32{poolNaN32, 9}, []int64{0, 1}, []int{1, 1, 2}},
		{"a window of padding only gives -inf and index -1", []float32{1, 2}, []int{1, 1, 2},
			MaxPoolOptions{KernelShape: []int{1}, Pads: []int{1, 1}},
			[]float32{-poolInf32, 1, 2, -poolInf32}, []int64{-1, 0, 1, -1}, []int{1, 1, 4}},
		{"dilation larger than the input: taps skip it", []float32{4}, []int{1, 1, 1},
			MaxPoolOptions{KernelShape: []int{2}, Dilations: []int{2}, Pads: []int{1, 1}},
			[]float32{-poolInf32}, []int64{-1}, []int{1, 1, 1}},
	}
	for _, c := range cases {
		x := tensor.MustFromSlice(c.x, c.shape...)
		y, ind, err := MaxPool(x, c.o)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		got, _ := tensor.ToSlice[float32](y)
		gotI, _ := tensor.ToSlice[int64](ind)
		if !slices.Equal(y.Shape(), c.yShape) || !slices.Equal(ind.Shape(), c.yShape) ||
			!poolSameFloats(got, c.y) || !slices.Equal(gotI, c.indices) {
			t.Errorf("%s: got %v %v %v, want %v %v %v", c.name, y.Shape(), got, gotI, c.yShape, c.y, c.indices)
		}
	}
}

// poolSameFloats compares bit for bit, so that NaN equals NaN.
func poolSameFloats(a, b []float32) bool {
	return slices.EqualFunc(a, b, func(x, y float32) bool { return math.Float32bits(x) == math.Float32bits(y) })
}

// Every element type of every version: the values are X's own bits, and
// padding reads as the type's minimum (int8: -128 never wins over -100;
// uint8: 0 never wins over 0, the index stays that of the real element).
func TestMaxPoolTypes(t *testing.T) {
	o := MaxPoolOptions{KernelShape: []int{2}, Pads: []int{1, 1}}
	{
		x := tensor.MustFromSlice([]int8{-100, -128, 5}, 1, 1, 3)
		y, ind, err := MaxPool(x, o)
		got, _ := tensor.ToSlice[int8](y)
		gotI, _ := tensor.ToSlice[int64](ind)
		if err != nil || !slices.Equal(got, []int8{-100, -100, 5, 5}) || !slices.Equal(gotI, []int64{0, 0, 2, 2}) {
			t.Errorf("int8: %v %v %v", got, gotI, err)
		}
	}
	{
		x := tensor.MustFromSlice([]uint8{0, 0, 255}, 1, 1, 3)
		y, ind, err := MaxPool(x, o)
		got, _ := tensor.ToSlice[uint8](y)
		gotI, _ := tensor.ToSlice[int64](ind)
		if err != nil || !slices.Equal(got, []uint8{0, 0, 255, 255}) || !slices.Equal(gotI, []int64{0, 0, 2, 2}) {
			t.Errorf("uint8: %v %v %v", got, gotI, err)
		}
	}
	{
		x := tensor.MustFromSlice([]float64{-1, math.Inf(-1), 0.5}, 1, 1, 3)
		y, ind, err := MaxPool(x, o)
		got, _ := tensor.ToSlice[float64](y)
		gotI, _ := tensor.ToSlice[int64](ind)
		if err != nil || !slices.Equal(got, []float64{-1, -1, 0.5, 0.5}) || !slices.Equal(gotI, []int64{0, 0, 2, 2}) {
			t.Errorf("double: %v %v %v", got, gotI, err)
		}
	}
	{
		// float16: a NaN with a payload comes out with the same bits.
		nan := float16.Float16(0x7E01)
		x := tensor.MustFromSlice([]float16.Float16{float16.Fromfloat32(-2), nan, float16.Fromfloat32(3)}, 1, 1, 3)
		y, ind, err := MaxPool(x, o)
		got, _ := tensor.ToSlice[float16.Float16](y)
		gotI, _ := tensor.ToSlice[int64](ind)
		want := []float16.Float16{float16.Fromfloat32(-2), nan, nan, float16.Fromfloat32(3)}
		if err != nil || !slices.Equal(got, want) || !slices.Equal(gotI, []int64{0, 1, 1, 2}) {
			t.Errorf("float16: %v %v %v", got, gotI, err)
		}
	}
	{
		x := tensor.MustFromSlice([]tensor.BF16{tensor.BF16FromFloat32(1.5), tensor.BF16FromFloat32(-7), tensor.BF16FromFloat32(2)}, 1, 1, 3)
		y, ind, err := MaxPool(x, o)
		got, _ := tensor.ToSlice[tensor.BF16](y)
		gotI, _ := tensor.ToSlice[int64](ind)
		want := []tensor.BF16{tensor.BF16FromFloat32(1.5), tensor.BF16FromFloat32(1.5), tensor.BF16FromFloat32(2), tensor.BF16FromFloat32(2)}
		if err != nil || !slices.Equal(got, want) || !slices.Equal(gotI, []int64{0, 0, 2, 2}) {
			t.Errorf("bfloat16: %v %v %v", got, gotI, err)
		}
	}
	// An empty window gives the type's padding value.
	empty := MaxPoolOptions{KernelShape: []int{1}, Pads: []int{1, 0}}
	for _, c := range []struct {
		x    *tensor.Tensor
		want []byte
	}{
		{tensor.MustFromSlice([]int8{3}, 1, 1, 1), []byte{0x80, 3}},
		{tensor.MustFromSlice([]uint8{3}, 1, 1, 1), []byte{0, 3}},
		{tensor.MustFromSlice([]float16.Float16{0x3C00}, 1, 1, 1), poolLE16(0xFC00, 0x3C00)},
		{tensor.MustFromSlice([]tensor.BF16{0x3F80}, 1, 1, 1), poolLE16(0xFF80, 0x3F80)},
	} {
		y, _, err := MaxPool(c.x, empty)
		if err != nil || string(y.Bytes()) != string(c.want) {
			t.Errorf("%v, empty window: got % x (%v), want % x", c.x.DataType(), y.Bytes(), err, c.want)
		}
	}
	// Each version's types.
	for _, c := range []struct {
		version int
		dt      tensor.DataType
		ok      bool
	}{
		{1, tensor.Float16, true}, {11, tensor.Int8, false}, {12, tensor.Int8, true}, {12, tensor.Uint8, true},
		{12, tensor.BFloat16, false}, {22, tensor.BFloat16, true}, {22, tensor.Int32, false}, {22, tensor.String, false},
	} {
		x := tensor.MustNew(c.dt, 1, 1, 2)
		_, _, err := maxPool(nil, opRef{"MaxPool", c.version}, x, MaxPoolOptions{KernelShape: []int{1}})
		if (err == nil) != c.ok {
			t.Errorf("version %d, %v: got error %v, want ok=%v", c.version, c.dt, err, c.ok)
		}
	}
}

func poolLE16(v ...uint16) []byte {
	b := make([]byte, 0, 2*len(v))
	for _, x := range v {
		b = append(b, tensor.MustFromSlice([]uint16{x}).Bytes()...)
	}
	return b
}

func TestMaxPoolErrors(t *testing.T) {
	x4 := tensor.MustNew(tensor.Float, 1, 1, 4, 4)
	x3 := tensor.MustNew(tensor.Float, 1, 1, 4)
	x5 := tensor.MustNew(tensor.Float, 1, 1, 2, 2, 2)
	sonnx := &Options{Profile: ProfileSONNX}
	full := func(o MaxPoolOptions) MaxPoolOptions { // every attribute explicit, as the profile needs
		if o.Strides == nil {
			o.Strides = []int{1, 1}
		}
		if o.Dilations == nil {
			o.Dilations = []int{1, 1}
		}
		if o.Pads == nil {
			o.Pads = []int{0, 0, 0, 0}
		}
		return o
	}
	k2 := []int{2, 2}
	cases := []struct {
		opt  *Options
		x    *tensor.Tensor
		o    MaxPoolOptions
		want string
	}{
		{nil, tensor.MustNew(tensor.Float, 1, 4), MaxPoolOptions{KernelShape: []int{}}, "MaxPool-22 [input-rank] X needs at least one spatial axis after N and C, got rank 2"},
		{nil, x4, MaxPoolOptions{KernelShape: []int{2}}, "MaxPool-22 [kernel_shape] kernel_shape has 1 values for 2 spatial axes"},
		{nil, x4, MaxPoolOptions{KernelShape: []int{2, 0}}, "MaxPool-22 [kernel_shape] kernel_shape[1] is 0, outside [1, 2147483647]"},
		{nil, x4, MaxPoolOptions{KernelShape: k2, Strides: []int{1, 0}}, "MaxPool-22 [strides] strides[1] is 0, outside [1, 2147483647]"},
		{nil, x4, MaxPoolOptions{KernelShape: k2, Strides: []int{1}}, "MaxPool-22 [strides] strides has 1 values, expected 2 (X has 2 spatial axes)"},
		{nil, x4, MaxPoolOptions{KernelShape: k2, Dilations: []int{-1, 1}}, "MaxPool-22 [dilations] dilations[0] is -1, outside [1, 2147483647]"},
		{nil, x4, MaxPoolOptions{KernelShape: k2, Pads: []int{0, 0, -1, 0}}, "MaxPool-22 [pads] pads[2] is -1, outside [0, 2147483647]"},
		{nil, x4, MaxPoolOptions{KernelShape: k2, Pads: []int{0, 0}}, "MaxPool-22 [pads] pads has 2 values, expected 4 (X has 2 spatial axes)"},
		{nil, x4, MaxPoolOptions{KernelShape: k2, AutoPad: "SAME"}, `MaxPool-22 [auto_pad] auto_pad is "SAME", expected NOTSET, SAME_UPPER, SAME_LOWER or VALID`},
		{nil, x4, MaxPoolOptions{KernelShape: k2, AutoPad: "VALID", Pads: []int{1, 0, 0, 0}}, "MaxPool-22 [auto_pad] pads [1 0 0 0] cannot be used with auto_pad VALID"},
		{nil, x4, MaxPoolOptions{KernelShape: k2, StorageOrder: 2}, "MaxPool-22 [storage_order] storage_order is 2, expected 0 or 1"},
		{nil, x4, MaxPoolOptions{KernelShape: []int{5, 2}}, "MaxPool-22 [kernel_shape] axis 2: the dilated kernel (5) is longer than the padded input (4)"},
		{nil, x4, MaxPoolOptions{KernelShape: k2, Dilations: []int{1, 4}}, "MaxPool-22 [kernel_shape] axis 3: the dilated kernel (5) is longer than the padded input (4)"},
		{nil, x4, MaxPoolOptions{KernelShape: []int{window.MaxAttr, 1}, Dilations: []int{window.MaxAttr, 1}}, "MaxPool-22 [kernel_shape] axis 2: the dilated kernel (4611686011984936963) is longer than the padded input (4)"},
		{nil, tensor.MustNew(tensor.Int32, 1, 1, 4), MaxPoolOptions{KernelShape: []int{2}}, "MaxPool-22 [type] X is int32, which version 22 does not accept"},
		// The SONNX profile.
		{sonnx, x3, full(MaxPoolOptions{KernelShape: []int{2}}), "MaxPool-22 [R1] X must have exactly 2 spatial axes (rank 4), got rank 3"},
		{sonnx, x5, full(MaxPoolOptions{KernelShape: []int{2, 2, 2}}), "MaxPool-22 [R1] X must have exactly 2 spatial axes (rank 4), got rank 5"},
		{sonnx, x4, full(MaxPoolOptions{KernelShape: k2, AutoPad: "VALID"}), `MaxPool-22 [R3] auto_pad must be NOTSET, got "VALID"`},
		{sonnx, x4, full(MaxPoolOptions{KernelShape: k2, CeilMode: true}), "MaxPool-22 [R4] ceil_mode must be 0"},
		{sonnx, x4, full(MaxPoolOptions{KernelShape: k2, StorageOrder: 1}), "MaxPool-22 [R5] storage_order must be 0, got 1"},
		{sonnx, tensor.MustNew(tensor.BFloat16, 1, 1, 4, 4), full(MaxPoolOptions{KernelShape: k2}), "MaxPool-22 [TYPES] X is bfloat16; the profile allows float16, float, double, int8 and uint8"},
		{sonnx, x4, full(MaxPoolOptions{KernelShape: k2, Strides: []int{0, 1}}), "MaxPool-22 strides [C1] strides[0] is 0, must be > 0"},
		{sonnx, x4, full(MaxPoolOptions{KernelShape: []int{2, -2}}), "MaxPool-22 kernel_shape [C1] kernel_shape[1] is -2, must be > 0"},
		{sonnx, x4, MaxPoolOptions{KernelShape: k2, Strides: []int{1, 1}, Dilations: []int{1, 1}}, "MaxPool-22 pads [C1] pads must have 4 entries, got 0"},
		{sonnx, x4, full(MaxPoolOptions{KernelShape: k2, Pads: []int{0, 2, 0, 0}}), "MaxPool-22 pads [C2] pads[1] is 2, not below the dilated kernel 2"},
		// The dilated kernel (3) exceeds the pad (1), but the window at -1
		// taps -1 and 1, both outside an input of length 1.
		{sonnx, tensor.MustNew(tensor.Float, 1, 1, 1, 4), full(MaxPoolOptions{KernelShape: []int{2, 1}, Dilations: []int{2, 1}, Pads: []int{1, 0, 1, 0}}),
			"MaxPool-22 pads [C2] axis 2: window 0 holds no element of X, only padding"},
	}
	for _, c := range cases {
		_, _, err := maxPool(c.opt, opRef{"MaxPool", 22}, c.x, c.o)
		var oe *Error
		if err == nil || err.Error() != c.want || !errors.As(err, &oe) {
			t.Errorf("%+v: got %v,\nwant %s", c.o, err, c.want)
		}
	}
	// What the profile accepts, it computes as ONNX does.
	x := tensor.MustFromSlice(poolSeq(16), 1, 1, 4, 4)
	y, _, err := maxPool(sonnx, opRef{"MaxPool", 22}, x, full(MaxPoolOptions{KernelShape: k2, Strides: []int{2, 2}, Pads: []int{1, 1, 1, 1}}))
	got, _ := tensor.ToSlice[float32](y)
	if err != nil || !slices.Equal(got, []float32{1, 3, 4, 9, 11, 12, 13, 15, 16}) {
		t.Errorf("SONNX: %v %v", got, err)
	}
}

func TestMaxPoolSizeLimit(t *testing.T) {
	x := tensor.MustNew(tensor.Float, 1, 1, 4)
	// A huge pad asks for a huge output: refused before any allocation.
	_, _, err := maxPool(&Options{MaxTensorBytes: 1 << 20}, opRef{"MaxPool", 22}, x, MaxPoolOptions{KernelShape: []int{1}, Pads: []int{1 << 30, 0}})
	if !errors.Is(err, ErrLimit) {
		t.Errorf("got %v, want ErrLimit", err)
	}
}

func TestMaxPoolNode(t *testing.T) {
	x := tensor.MustFromSlice(poolSeq(16), 1, 1, 4, 4)
	ints := func(v ...int64) Attribute { return Attribute{Type: AttrInts, Ints: v} }
	k2 := ints(2, 2)
	cases := []struct {
		version int
		outputs int
		attrs   map[string]Attribute
		want    string // error, or "" and two outputs when asked for
	}{
		{1, 1, map[string]Attribute{"kernel_shape": k2}, ""},
		{8, 2, map[string]Attribute{"kernel_shape": k2, "storage_order": {Type: AttrInt, Int: 1}}, ""},
		{22, 2, map[string]Attribute{"kernel_shape": k2, "dilations": ints(1, 1), "ceil_mode": {Type: AttrInt, Int: 1}}, ""},
		{1, 1, map[string]Attribute{"kernel_shape": k2, "storage_order": {Type: AttrInt, Int: 0}}, "MaxPool-1 [attribute] attribute storage_order is not defined in version 1"},
		{8, 1, map[string]Attribute{"kernel_shape": k2, "dilations": ints(1, 1)}, "MaxPool-8 [attribute] attribute dilations is not defined in version 8"},
		{8, 1, map[string]Attribute{"kernel_shape": k2, "ceil_mode": {Type: AttrInt, Int: 0}}, "MaxPool-8 [attribute] attribute ceil_mode is not defined in version 8"},
		{22, 1, map[string]Attribute{}, "MaxPool-22 [kernel_shape] attribute kernel_shape is required"},
		{22, 1, map[string]Attribute{"kernel_shape": k2, "ceil_mode": {Type: AttrInt, Int: 2}}, "MaxPool-22 [ceil_mode] ceil_mode is 2, expected 0 or 1"},
		{22, 1, map[string]Attribute{"kernel_shape": k2, "storage_order": {Type: AttrInt, Int: -1}}, "MaxPool-22 [storage_order] storage_order is -1, expected 0 or 1"},
		{22, 1, map[string]Attribute{"kernel_shape": {Type: AttrInt, Int: 2}}, "MaxPool-22 [attribute] attribute kernel_shape is of type int, expected ints"},
	}
	for _, c := range cases {
		s, err := Lookup("", "MaxPool", c.version)
		if err != nil {
			t.Fatal(err)
		}
		if s.Since != c.version {
			t.Fatalf("opset %d resolves to MaxPool-%d", c.version, s.Since)
		}
		n := &Node{OpType: "MaxPool", Version: s.Since, Attrs: c.attrs, NumOutputs: c.outputs}
		out, err := s.Run(nil, n, []tensor.Value{x})
		if c.want != "" {
			if err == nil || err.Error() != c.want {
				t.Errorf("version %d %v: got %v, want %s", c.version, c.attrs, err, c.want)
			}
			continue
		}
		if err != nil || len(out) != c.outputs {
			t.Errorf("version %d: got %d outputs, %v", c.version, len(out), err)
		}
	}
	if s, _ := Lookup("", "MaxPool", 7); s.Outputs != [2]int{1, 1} {
		t.Errorf("MaxPool-1 declares outputs %v, want [1 1]", s.Outputs)
	}
}

// naiveMaxPool is the definition, written as plainly as possible: for each
// output position, every tap of the kernel in row-major order, padding and
// taps outside X skipped, the first maximum or the first NaN kept.
func naiveMaxPool(x []float64, shape []int, a window.Attrs, axes []window.Axis, colMajor bool) ([]float64, []int64) {
	r := len(axes)
	inStrides := movement.ContiguousStrides(shape[2:])
	planeIn := 1
	for _, d := range shape[2:] {
		planeIn *= d
	}
	outSpatial := make([]int, r)
	for k, ax := range axes {
		outSpatial[k] = ax.Out
	}
	var y []float64
	var ind []int64
	forEach := func(dims []int, f func(c []int)) {
		c := make([]int, len(dims))
		n := 1
		for _, d := range dims {
			n *= d
		}
		for range n {
			f(c)
			for k := len(c) - 1; k >= 0; k-- {
				c[k]++
				if c[k] < dims[k] {
					break
				}
				c[k] = 0
			}
		}
	}
	for p := 0; p < shape[0]*shape[1]; p++ {
		forEach(outSpatial, func(o []int) {
			best, at := 0.0, -1
			forEach(a.Kernel, func(j []int) {
				pos := 0
				colPos, colStride := 0, 1
				for k, ax := range axes {
					c := o[k]*ax.Stride - ax.PadBegin + j[k]*ax.Dilation
					if c < 0 || c >= ax.In {
						return
					}
					pos += c * inStrides[k]
					colPos += c * colStride
					colStride *= ax.In
				}
				v := x[p*planeIn+pos]
				if at >= 0 && best != best {
					return
				}
				if at < 0 || v > best || v != v {
					best = v
					at = pos
					if colMajor {
						at = colPos
					}
				}
			})
			if at < 0 {
				y = append(y, math.Inf(-1))
				ind = append(ind, -1)
				return
			}
			y = append(y, best)
			ind = append(ind, int64(p*planeIn+at))
		})
	}
	return y, ind
}

// MaxPool against the naive definition, over random shapes, attributes,
// types and values (with ties, infinities and NaNs), on one and several cores.
func TestMaxPoolRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	autoPads := []string{"NOTSET", "NOTSET", "NOTSET", "VALID", "SAME_UPPER", "SAME_LOWER"}
	for iter := range 400 {
		r := 1 + rng.IntN(3)
		shape := []int{1 + rng.IntN(2), 1 + rng.IntN(3)}
		o := MaxPoolOptions{AutoPad: autoPads[rng.IntN(len(autoPads))], CeilMode: rng.IntN(2) == 1, StorageOrder: rng.IntN(2)}
		for range r {
			shape = append(shape, 1+rng.IntN(7))
			o.KernelShape = append(o.KernelShape, 1+rng.IntN(3))
			o.Strides = append(o.Strides, 1+rng.IntN(3))
			o.Dilations = append(o.Dilations, 1+rng.IntN(2))
		}
		if o.AutoPad == "NOTSET" {
			for range 2 * r {
				o.Pads = append(o.Pads, rng.IntN(3))
			}
		}
		n := 1
		for _, d := range shape {
			n *= d
		}
		vals := make([]float64, n)
		for i := range vals {
			switch k := rng.IntN(20); {
			case k == 0:
				vals[i] = math.NaN()
			case k == 1:
				vals[i] = math.Inf(-1)
			default:
				vals[i] = float64(rng.IntN(11) - 5) // small range: many ties
			}
		}
		op := opRef{"MaxPool", 22}
		a, err := checkPoolAttrs(op, r, window.Attrs{Kernel: o.KernelShape, Strides: o.Strides, Pads: o.Pads, Dilations: o.Dilations, AutoPad: o.AutoPad, CeilMode: o.CeilMode})
		if err != nil {
			t.Fatal(err)
		}
		axes, err := poolGeometry(op, shape[2:], a)
		if err != nil {
			continue // a kernel longer than the padded input
		}
		wantY, wantI := naiveMaxPool(vals, shape, a, axes, o.StorageOrder == 1)
		for _, dt := range []tensor.DataType{tensor.Double, tensor.Float, tensor.Float16, tensor.Int8} {
			x := poolTyped(dt, vals, shape)
			for _, threads := range []int{1, 3} {
				y, ind, err := maxPool(&Options{Threads: threads}, op, x, o)
				if err != nil {
					t.Fatalf("iter %d %v %+v: %v", iter, shape, o, err)
				}
				gotY, _ := y.Float64s()
				gotI, _ := tensor.ToSlice[int64](ind)
				want, wantI := wantY, wantI
				if dt == tensor.Int8 {
					want, wantI = naiveMaxPool(poolInt8Values(vals), shape, a, axes, o.StorageOrder == 1)
					want = poolInt8Values(want) // an empty window: -128
				}
				if !slices.Equal(gotI, wantI) || !slices.EqualFunc(gotY, want, func(a, b float64) bool { return a == b || (a != a && b != b) }) {
					t.Fatalf("iter %d, %v, shape %v %+v:\n got %v %v\nwant %v %v", iter, dt, shape, o, gotY, gotI, want, wantI)
				}
			}
		}
	}
}

// poolTyped builds a tensor of type dt from small integers, infinities and NaNs;
// int8 has no NaN, and reads NaN as 0 and -inf as -128.
func poolTyped(dt tensor.DataType, v []float64, shape []int) *tensor.Tensor {
	switch dt {
	case tensor.Float:
		f := make([]float32, len(v))
		for i, x := range v {
			f[i] = float32(x)
		}
		return tensor.MustFromSlice(f, shape...)
	case tensor.Float16:
		f := make([]float16.Float16, len(v))
		for i, x := range v {
			f[i] = float16.Fromfloat32(float32(x))
		}
		return tensor.MustFromSlice(f, shape...)
	case tensor.Int8:
		f := make([]int8, len(v))
		for i, x := range poolInt8Values(v) {
			f[i] = int8(x)
		}
		return tensor.MustFromSlice(f, shape...)
	}
	return tensor.MustFromSlice(v, shape...)
}

// poolInt8Values maps values as poolTyped does for int8: NaN to 0, -inf to -128.
func poolInt8Values(v []float64) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		switch {
		case x != x:
			out[i] = 0
		case math.IsInf(x, -1):
			out[i] = -128
		default:
			out[i] = x
		}
	}
	return out
}

// poolRandomBits returns the bits of n float32 numbers that the kernel's
// keys must order as < does, drawn from one of three palettes: small
// integers with a few of the others below; both zeros (which tie) with -1
// and -inf, so that zeros are often a window's maximum; NaNs of both signs
// and several payloads (the first NaN of a window wins, whatever its bits)
// among infinities and small integers.
func poolRandomBits(rng *rand.Rand, n int) []uint32 {
	zeros := []uint32{0x00000000, 0x80000000, 0x80000000, 0x00000000, 0xBF800000, 0xFF800000}
	nans := []uint32{0x7FC00000, 0xFFC00001, 0x7F800001, 0xFFFFFFFF, 0x7F800000, 0xFF800000, 0x40000000, 0xC0400000}
	bits := make([]uint32, n)
	palette := rng.IntN(3)
	for i := range bits {
		switch {
		case palette == 1:
			bits[i] = zeros[rng.IntN(len(zeros))]
		case palette == 2 && rng.IntN(2) == 0, rng.IntN(8) == 0:
			bits[i] = nans[rng.IntN(len(nans))]
		default:
			bits[i] = math.Float32bits(float32(rng.IntN(7) - 3))
		}
	}
	return bits
}

// poolRandomGeometry draws the attributes of a 1-D or 2-D pooling of an
// input of up to maxDim per spatial axis, the common kernels 2 and 3 more
// often than the others, and returns them with the geometry and its
// windows (w nil when the kernel is longer than the padded input).
func poolRandomGeometry(rng *rand.Rand, maxDim int) (dims []int, a window.Attrs, axes []window.Axis, w *window.Windows) {
	autoPads := []string{"NOTSET", "NOTSET", "NOTSET", "VALID", "SAME_UPPER", "SAME_LOWER"}
	r := 1 + rng.IntN(2)
	a = window.Attrs{AutoPad: autoPads[rng.IntN(len(autoPads))], CeilMode: rng.IntN(2) == 1}
	for range r {
		dims = append(dims, rng.IntN(maxDim+1))
		a.Kernel = append(a.Kernel, []int{1, 2, 2, 3, 3, 3, 4, 5}[rng.IntN(8)])
		a.Strides = append(a.Strides, 1+rng.IntN(3))
		a.Dilations = append(a.Dilations, []int{1, 1, 1, 2, 3}[rng.IntN(5)])
	}
	if a.AutoPad == "NOTSET" {
		for range 2 * r {
			a.Pads = append(a.Pads, rng.IntN(4))
		}
	}
	op := opRef{"MaxPool", 22}
	a, err := checkPoolAttrs(op, r, a)
	if err != nil {
		panic(err)
	}
	axes, err = poolGeometry(op, dims, a)
	if err != nil {
		return dims, a, nil, nil
	}
	return dims, a, axes, window.NewWindows(axes)
}

// The two-pass kernel of ranks (rankPlan, with its unrolled runs) against
// the general walk over the keys alone in row-major order (what argMaxRanks
// does with a plane too large for positions in 32 bits), on random 1-D and
// 2-D geometries and planes of every type with ranks, full of ties, both
// zeros, infinities and NaNs. Every branch of the plan must be taken.
func TestMaxPoolRankPlan(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	seen := map[string]int{}
	var rowMax []int64
	for iter := range 3000 {
		dims, _, _, w := poolRandomGeometry(rng, 20)
		if w == nil {
			continue
		}
		plan := newRankPlan(w)
		if plan == nil { // row maxima larger than the plane (an empty plane)
			continue
		}
		for _, run := range plan.runs {
			switch {
			case run.taps == 0:
				seen["empty columns"]++
			case run.taps <= 3 && plan.w.Dilation[1] == 1:
				seen[fmt.Sprintf("row of %d", run.taps)]++
			default:
				seen["row of n"]++
			}
		}
		for _, n := range plan.w.Count[0] {
			seen[fmt.Sprintf("column of %d", min(n, 4))]++
		}
		bits := poolRandomBits(rng, w.InPlane)
		shape := append([]int{1, 1}, dims...)
		for _, x := range poolTypedBits(bits, shape) {
			ranks := planeRanks(nil, x, 0, w.InPlane)
			keys := slices.Clone(ranks)
			for i := range keys {
				keys[i] &^= math.MaxUint32
			}
			want := make([]int64, w.OutPlane)
			argMaxPlane(keys, w, want, 7, nil)
			got := make([]int64, w.OutPlane)
			plan.maxima(ranks, got, 7, &rowMax, nil)
			if !slices.Equal(got, want) {
				t.Fatalf("iter %d, %v, dims %v, windows %+v:\n got %v\nwant %v", iter, x.DataType(), dims, *w, got, want)
			}
			// A plane too large for positions in 32 bits: the walk
			// over the keys alone (only 64-bit ints hold such a plane).
			if strconv.IntSize == 64 {
				huge := *w
				big := int64(1)<<32 + 1
				huge.InPlane = int(big)
				argMaxRanks(ranks, &huge, got, 7, nil)
				if !slices.Equal(got, want) {
					t.Fatalf("iter %d, %v, dims %v: the walk over keys gives %v, want %v", iter, x.DataType(), dims, got, want)
				}
			}
		}
	}
	for _, k := range []string{"empty columns", "row of 1", "row of 2", "row of 3", "row of n",
		"column of 0", "column of 1", "column of 2", "column of 3", "column of 4"} {
		if seen[k] == 0 {
			t.Errorf("no window with a %s", k)
		}
	}
}

// poolTypedBits returns the float32 numbers whose bits are bits as a tensor
// of each type with ranks: float32 bit for bit, float16 and bfloat16
// rounded (NaNs stay NaNs), int8 and uint8 from the small integers (the
// others read as 0).
func poolTypedBits(bits []uint32, shape []int) []*tensor.Tensor {
	f32 := make([]float32, len(bits))
	f16 := make([]float16.Float16, len(bits))
	bf16 := make([]tensor.BF16, len(bits))
	i8 := make([]int8, len(bits))
	u8 := make([]uint8, len(bits))
	for i, b := range bits {
		f := math.Float32frombits(b)
		f32[i], f16[i], bf16[i] = f, float16.Fromfloat32(f), tensor.BF16FromFloat32(f)
		if f == float32(int(f)) && f >= -3 && f <= 3 {
			i8[i], u8[i] = int8(f), uint8(f+3)
		}
	}
	return []*tensor.Tensor{tensor.MustFromSlice(f32, shape...), tensor.MustFromSlice(f16, shape...),
		tensor.MustFromSlice(bf16, shape...), tensor.MustFromSlice(i8, shape...), tensor.MustFromSlice(u8, shape...)}
}

// MaxPool against the naive definition on larger 1-D and 2-D planes than
// TestMaxPoolRandom's, so that most windows are interior ones, with both
// zeros and NaNs of several payloads, every type with ranks, both storage
// orders: the indices are the definition's, and every value is X's element
// at its index, bit for bit.
func TestMaxPoolRandomLarge(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for iter := range 300 {
		dims, a, axes, w := poolRandomGeometry(rng, 30)
		if w == nil {
			continue
		}
		shape := append([]int{1 + rng.IntN(2), 1 + rng.IntN(2)}, dims...)
		bits := poolRandomBits(rng, shape[0]*shape[1]*w.InPlane)
		o := MaxPoolOptions{KernelShape: a.Kernel, Strides: a.Strides, Dilations: a.Dilations, Pads: a.Pads,
			AutoPad: a.AutoPad, CeilMode: a.CeilMode, StorageOrder: rng.IntN(2)}
		for _, x := range poolTypedBits(bits, shape) {
			vals, _ := x.Float64s()
			_, rowMajor := naiveMaxPool(vals, shape, a, axes, false)
			_, want := naiveMaxPool(vals, shape, a, axes, o.StorageOrder == 1)
			y, ind, err := maxPool(&Options{Threads: 1 + iter%2}, opRef{"MaxPool", 22}, x, o)
			if err != nil {
				t.Fatalf("iter %d, shape %v %+v: %v", iter, shape, o, err)
			}
			got, _ := tensor.ToSlice[int64](ind)
			if !slices.Equal(got, want) {
				t.Fatalf("iter %d, %v, shape %v %+v:\n got %v\nwant %v", iter, x.DataType(), shape, o, got, want)
			}
			size := x.DataType().Size()
			xb, yb := x.Bytes(), y.Bytes()
			for i, g := range rowMajor {
				if g >= 0 && string(yb[i*size:(i+1)*size]) != string(xb[int(g)*size:(int(g)+1)*size]) {
					t.Fatalf("iter %d, %v: Y[%d] is not X[%d] bit for bit", iter, x.DataType(), i, g)
				}
			}
		}
	}
}

// The divisor of storage_order=1 is exact for every dividend below 2^50:
// random ones, and those on either side of a multiple of d, near 0 and near
// the limit.
func TestMaxPoolDivisor(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	const limit = 1 << 50
	for range 20000 {
		d := 1 + rng.Int64N([]int64{8, 1 << 12, 1 << 25, 1 << 40}[rng.IntN(4)])
		v := newDivisor(d, limit-1)
		k := rng.Int64N(limit / d)
		for _, n := range []int64{rng.Int64N(limit), k * d, k*d - 1, k*d + d - 1, limit - 1 - rng.Int64N(d)} {
			if n < 0 || n >= limit {
				continue
			}
			if got := v.div(n); got != n/d {
				t.Fatalf("%d / %d: got %d, want %d", n, d, got, n/d)
			}
		}
	}
	if v := newDivisor(7, limit); v.div(limit+6) != (limit+6)/7 {
		t.Errorf("above the limit: got %d", v.div(limit+6))
	}
}

// A plane split across cores gives what one core gives, and the definition.
func TestMaxPoolParallel(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	shape := []int{4, 8, 40, 40}
	vals := make([]float64, 4*8*40*40)
	for i := range vals {
		vals[i] = float64(rng.IntN(1000))
	}
	x := poolTyped(tensor.Float, vals, shape)
	o := MaxPoolOptions{KernelShape: []int{3, 3}, Strides: []int{2, 2}, Pads: []int{1, 1, 1, 1}}
	op := opRef{"MaxPool", 22}
	y1, i1, err1 := maxPool(&Options{Threads: 1}, op, x, o)
	yn, in, errn := maxPool(nil, op, x, o)
	if err1 != nil || errn != nil || !y1.Equal(yn) || !i1.Equal(in) {
		t.Fatalf("one core and all cores differ (%v, %v)", err1, errn)
	}
	a, _ := checkPoolAttrs(op, 2, window.Attrs{Kernel: o.KernelShape, Strides: o.Strides, Pads: o.Pads})
	axes, _ := poolGeometry(op, shape[2:], a)
	wantY, wantI := naiveMaxPool(vals, shape, a, axes, false)
	gotY, _ := yn.Float64s()
	gotI, _ := tensor.ToSlice[int64](in)
	if !slices.Equal(gotY, wantY) || !slices.Equal(gotI, wantI) {
		t.Errorf("parallel MaxPool differs from the definition")
	}
}

func TestMaxPoolCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	x := tensor.MustNew(tensor.Float, 1, 1, 4, 4)
	_, _, err := maxPool(&Options{env: runenv.Env{Ctx: ctx}}, opRef{"MaxPool", 22}, x, MaxPoolOptions{KernelShape: []int{2, 2}})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("got %v, want context.Canceled", err)
	}
}

// maxPoolBenchInput is the input of the benchmark case: [8, 64, 112, 112]
// float32, uniform in [0, 1).
func maxPoolBenchInput() *tensor.Tensor {
	rng := rand.New(rand.NewPCG(1, 2))
	v := make([]float32, 8*64*112*112)
	for i := range v {
		v[i] = rng.Float32()
	}
	return tensor.MustFromSlice(v, 8, 64, 112, 112)
}

// The benchmark of the issue: a ResNet-style 3x3, stride 2, pad 1 pooling
// with indices on [8, 64, 112, 112] float32.
func BenchmarkMaxPool3x3s2(b *testing.B) {
	x := maxPoolBenchInput()
	o := MaxPoolOptions{KernelShape: []int{3, 3}, Strides: []int{2, 2}, Pads: []int{1, 1, 1, 1}}
	b.SetBytes(int64(x.Len() * 4))
	b.ResetTimer()
	for range b.N {
		if _, _, err := MaxPool(x, o); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMaxPool3x3s2Reused is BenchmarkMaxPool3x3s2 with the outputs
// storage reused from run to run, as a graph.Pool gives it, on one core
// and on two: the kernel's time without the allocator's.
func BenchmarkMaxPool3x3s2Reused(b *testing.B) {
	x := maxPoolBenchInput()
	for _, order := range []int{0, 1} {
		o := MaxPoolOptions{KernelShape: []int{3, 3}, Strides: []int{2, 2}, Pads: []int{1, 1, 1, 1}, StorageOrder: order}
		for _, threads := range []int{1, 2} {
			b.Run(fmt.Sprintf("order=%d/threads=%d", order, threads), func(b *testing.B) {
				opt := &Options{Threads: threads, env: runenv.Env{Alloc: reusedStorage()}}
				b.SetBytes(int64(x.Len() * 4))
				for b.Loop() {
					if _, _, err := maxPool(opt, opRef{"MaxPool", 22}, x, o); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// reusedStorage is an Options.Alloc that gives back, for each size, the
// same storage every time: for benchmarks that drop their outputs.
func reusedStorage() func(int) []byte {
	bufs := map[int][]byte{}
	return func(n int) []byte {
		if bufs[n] == nil {
			bufs[n] = make([]byte, n)
		}
		return bufs[n]
	}
}

// FuzzMaxPool feeds arbitrary geometry to MaxPool: it must refuse or
// compute, never panic, and what it computes must agree with the definition.
func FuzzMaxPool(f *testing.F) {
	f.Add(uint8(2), uint8(5), uint8(5), int8(3), int8(3), int8(2), int8(2), int8(1), int8(1), int8(1), int8(1), int8(1), int8(1), uint8(0), false, uint8(0))
	f.Add(uint8(1), uint8(4), uint8(1), int8(2), int8(1), int8(3), int8(1), int8(2), int8(0), int8(0), int8(0), int8(2), int8(1), uint8(3), true, uint8(1))
	f.Fuzz(func(t *testing.T, rank, d0, d1 uint8, k0, k1, s0, s1, p0, p1, p2, p3, dl0, dl1 int8, autoPad uint8, ceil bool, order uint8) {
		r := 1 + int(rank%2)
		shape := []int{1, 2, int(d0 % 9)}
		o := MaxPoolOptions{KernelShape: []int{int(k0)}, Strides: []int{int(s0)}, Dilations: []int{int(dl0)},
			Pads: []int{int(p0), int(p2)}, CeilMode: ceil, StorageOrder: int(order % 3),
			AutoPad: []string{"", "NOTSET", "VALID", "SAME_UPPER", "SAME_LOWER", "bad"}[autoPad%6]}
		if r == 2 {
			shape = append(shape, int(d1%9))
			o.KernelShape = append(o.KernelShape, int(k1))
			o.Strides = append(o.Strides, int(s1))
			o.Dilations = append(o.Dilations, int(dl1))
			o.Pads = []int{int(p0), int(p1), int(p2), int(p3)}
		}
		if o.AutoPad != "" && o.AutoPad != "NOTSET" {
			o.Pads = nil
		}
		n := 1
		for _, d := range shape {
			n *= d
		}
		v := make([]float64, n)
		for i := range v {
			v[i] = float64((i*7)%5) - 2
		}
		x := tensor.MustFromSlice(v, shape...)
		y, ind, err := maxPool(&Options{MaxTensorBytes: 1 << 20}, opRef{"MaxPool", 22}, x, o)
		if err != nil {
			return
		}
		op := opRef{"MaxPool", 22}
		a, _ := checkPoolAttrs(op, r, window.Attrs{Kernel: o.KernelShape, Strides: o.Strides, Pads: o.Pads, Dilations: o.Dilations, AutoPad: o.AutoPad, CeilMode: o.CeilMode})
		axes, _ := poolGeometry(op, shape[2:], a)
		wantY, wantI := naiveMaxPool(v, shape, a, axes, o.StorageOrder == 1)
		gotY, _ := y.Float64s()
		gotI, _ := tensor.ToSlice[int64](ind)
		if !slices.Equal(gotY, wantY) || !slices.Equal(gotI, wantI) {
			t.Fatalf("shape %v %+v: got %v %v, want %v %v", shape, o, gotY, gotI, wantY, wantI)
		}
	})
}
