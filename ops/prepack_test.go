package ops

import (
	"github.com/onnxshape/onnxshape/ops/internal/gemm"
	"math/rand"
	"strings"
	"sync"
	"testing"

	"github.com/onnxshape/onnxshape/internal/runenv"
	"github.com/onnxshape/onnxshape/ops/internal/convert"
	"github.com/onnxshape/onnxshape/tensor"
)

func randTensorOf(r *rand.Rand, dt tensor.DataType, shape ...int) *tensor.Tensor {
	x := tensor.MustNew(dt, shape...)
	switch dt {
	case tensor.Float:
		v := elems[float32](x)
		for i := range v {
			v[i] = float32(r.NormFloat64())
		}
	case tensor.Double:
		v := elems[float64](x)
		for i := range v {
			v[i] = r.NormFloat64()
		}
	case tensor.Float16, tensor.BFloat16:
		v := make([]float32, x.Len())
		for i := range v {
			v[i] = float32(r.NormFloat64())
		}
		if err := convert.StoreFloats(x, v); err != nil {
			panic(err)
		}
	default:
		r.Read(x.Bytes())
	}
	return x
}

// A node whose constant B is packed at load (PackConstants) gives what the
// same node gives unpacked, charges no packing of B at run time, and uses
// the packed copy only for the very tensor it was packed from.
func TestPackedWeightsAgree(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	type tc struct {
		name   string
		op     string
		ver    int
		attrs  map[string]Attribute
		in     []tensor.Value
		packed int // the input packed
	}
	u8 := func(v byte) *tensor.Tensor { x := tensor.MustNew(tensor.Uint8); x.Bytes()[0] = v; return x }
	i8 := func(v byte) *tensor.Tensor { x := tensor.MustNew(tensor.Int8); x.Bytes()[0] = v; return x }
	f32 := func(v float32) *tensor.Tensor { x := tensor.MustNew(tensor.Float); elems[float32](x)[0] = v; return x }
	cases := []tc{
		{"MatMul float 2-D", "MatMul", 13, nil, []tensor.Value{randTensorOf(r, tensor.Float, 100, 300), randTensorOf(r, tensor.Float, 300, 70)}, 1},
		{"MatMul float batch", "MatMul", 13, nil, []tensor.Value{randTensorOf(r, tensor.Float, 3, 5, 64), randTensorOf(r, tensor.Float, 64, 33)}, 1},
		{"MatMul double", "MatMul", 13, nil, []tensor.Value{randTensorOf(r, tensor.Double, 60, 40), randTensorOf(r, tensor.Double, 40, 50)}, 1},
		{"Gemm transB C", "Gemm", 13, map[string]Attribute{"transB": {Type: AttrInt, Int: 1}, "alpha": {Type: AttrFloat, Float: 0.5}},
			[]tensor.Value{randTensorOf(r, tensor.Float, 64, 100), randTensorOf(r, tensor.Float, 70, 100), randTensorOf(r, tensor.Float, 70)}, 1},
		{"Gemm transA", "Gemm", 13, map[string]Attribute{"transA": {Type: AttrInt, Int: 1}},
			[]tensor.Value{randTensorOf(r, tensor.Float, 100, 64), randTensorOf(r, tensor.Float, 100, 70)}, 1},
		{"MatMulInteger u8 x i8", "MatMulInteger", 10, nil,
			[]tensor.Value{randTensorOf(r, tensor.Uint8, 64, 200), randTensorOf(r, tensor.Int8, 200, 90), u8(3), i8(250)}, 1},
		{"QLinearMatMul", "QLinearMatMul", 10, nil,
			[]tensor.Value{randTensorOf(r, tensor.Uint8, 16, 64), f32(0.02), u8(128), randTensorOf(r, tensor.Uint8, 64, 40), f32(0.01), u8(120), f32(0.05), u8(100)}, 3},
		{"ConvInteger 3x3 u8 x i8 per-channel", "ConvInteger", 10, map[string]Attribute{"pads": ints(1, 1, 1, 1)},
			[]tensor.Value{randTensorOf(r, tensor.Uint8, 2, 8, 20, 20), randTensorOf(r, tensor.Int8, 16, 8, 3, 3), u8(7), randTensorOf(r, tensor.Int8, 16)}, 1},
		{"ConvInteger 1x1 groups", "ConvInteger", 10, map[string]Attribute{"group": {Type: AttrInt, Int: 2}},
			[]tensor.Value{randTensorOf(r, tensor.Int8, 1, 8, 30, 30), randTensorOf(r, tensor.Uint8, 30, 4, 1, 1), i8(3), u8(128)}, 1},
		{"QLinearConv 3x3 stride 2", "QLinearConv", 10, map[string]Attribute{"pads": ints(1, 1, 1, 1), "strides": ints(2, 2)},
			[]tensor.Value{randTensorOf(r, tensor.Uint8, 1, 16, 33, 33), f32(0.02), u8(128), randTensorOf(r, tensor.Int8, 24, 16, 3, 3), f32(0.01), i8(0), f32(0.05), u8(100)}, 3},
		{"LSTM W", "LSTM", 14, map[string]Attribute{"hidden_size": {Type: AttrInt, Int: 24}},
			[]tensor.Value{randTensorOf(r, tensor.Float, 5, 3, 10), randTensorOf(r, tensor.Float, 1, 96, 10), randTensorOf(r, tensor.Float, 1, 96, 24)}, 1},
		{"LSTM R bidirectional", "LSTM", 14, map[string]Attribute{"hidden_size": {Type: AttrInt, Int: 24}, "direction": {Type: AttrString, String: "bidirectional"}},
			[]tensor.Value{randTensorOf(r, tensor.Float, 5, 3, 10), randTensorOf(r, tensor.Float, 2, 96, 10), randTensorOf(r, tensor.Float, 2, 96, 24)}, 2},
		{"Conv 1-D STFT-like, few positions", "Conv", 11, map[string]Attribute{"strides": {Type: AttrInts, Ints: []int64{128}}},
			[]tensor.Value{randTensorOf(r, tensor.Float, 1, 1, 640), randTensorOf(r, tensor.Float, 258, 1, 256)}, 1},
		{"Conv 1-D k3 bias, two images", "Conv", 11, map[string]Attribute{"pads": {Type: AttrInts, Ints: []int64{1, 1}}, "strides": {Type: AttrInts, Ints: []int64{2}}},
			[]tensor.Value{randTensorOf(r, tensor.Float, 2, 65, 7), randTensorOf(r, tensor.Float, 40, 65, 3), randTensorOf(r, tensor.Float, 40)}, 1},
		{"GRU R linear_before_reset", "GRU", 14, map[string]Attribute{"hidden_size": {Type: AttrInt, Int: 16}, "linear_before_reset": {Type: AttrInt, Int: 1}},
			[]tensor.Value{randTensorOf(r, tensor.Float, 4, 3, 5), randTensorOf(r, tensor.Float, 1, 48, 5), randTensorOf(r, tensor.Float, 1, 48, 16)}, 2},
		{"GRU R reverse double", "GRU", 14, map[string]Attribute{"hidden_size": {Type: AttrInt, Int: 8}, "direction": {Type: AttrString, String: "reverse"}},
			[]tensor.Value{randTensorOf(r, tensor.Double, 4, 2, 5), randTensorOf(r, tensor.Double, 1, 24, 5), randTensorOf(r, tensor.Double, 1, 24, 8)}, 2},
		{"RNN R", "RNN", 14, map[string]Attribute{"hidden_size": {Type: AttrInt, Int: 20}},
			[]tensor.Value{randTensorOf(r, tensor.Float, 6, 2, 5), randTensorOf(r, tensor.Float, 1, 20, 5), randTensorOf(r, tensor.Float, 1, 20, 20)}, 2},
		{"GRU W double", "GRU", 14, map[string]Attribute{"hidden_size": {Type: AttrInt, Int: 8}},
			[]tensor.Value{randTensorOf(r, tensor.Double, 4, 2, 5), randTensorOf(r, tensor.Double, 1, 24, 5), randTensorOf(r, tensor.Double, 1, 24, 8)}, 1},
		// float16 and bfloat16 convolution weights, kept in float32.
		{"Conv 1x1 over a 7x7 plane, bias", "Conv", 11, nil,
			[]tensor.Value{randTensorOf(r, tensor.Float, 1, 160, 7, 7), randTensorOf(r, tensor.Float, 96, 160, 1, 1), randTensorOf(r, tensor.Float, 96)}, 1},
		{"Conv 1x1 over a 7x7 plane, two images", "Conv", 11, map[string]Attribute{"strides": ints(1, 1)},
			[]tensor.Value{randTensorOf(r, tensor.Float, 2, 70, 7, 7), randTensorOf(r, tensor.Float, 64, 70, 1, 1)}, 1},
		{"Conv float16 3x3 bias", "Conv", 11, map[string]Attribute{"pads": ints(1, 1, 1, 1)},
			[]tensor.Value{randTensorOf(r, tensor.Float16, 1, 8, 12, 12), randTensorOf(r, tensor.Float16, 16, 8, 3, 3), randTensorOf(r, tensor.Float16, 16)}, 1},
		{"Conv bfloat16 1x1 groups", "Conv", 22, map[string]Attribute{"group": {Type: AttrInt, Int: 2}},
			[]tensor.Value{randTensorOf(r, tensor.BFloat16, 2, 8, 9, 9), randTensorOf(r, tensor.BFloat16, 6, 4, 1, 1)}, 1},
		// The normalizations' parameters, kept as float64 (packNormParam).
		{"LayerNormalization Scale", "LayerNormalization", 17, nil,
			[]tensor.Value{randTensorOf(r, tensor.Float, 4, 6, 50), randTensorOf(r, tensor.Float, 50), randTensorOf(r, tensor.Float, 50)}, 1},
		{"LayerNormalization B broadcast, double", "LayerNormalization", 17, map[string]Attribute{"axis": {Type: AttrInt, Int: 1}},
			[]tensor.Value{randTensorOf(r, tensor.Double, 3, 5, 7), randTensorOf(r, tensor.Double, 5, 7), randTensorOf(r, tensor.Double, 7)}, 2},
		{"RMSNormalization scale", "RMSNormalization", 23, nil,
			[]tensor.Value{randTensorOf(r, tensor.Float, 9, 33), randTensorOf(r, tensor.Float, 33)}, 1},
		{"InstanceNormalization scale", "InstanceNormalization", 22, nil,
			[]tensor.Value{randTensorOf(r, tensor.Float, 2, 3, 5, 5), randTensorOf(r, tensor.Float, 3), randTensorOf(r, tensor.Float, 3)}, 1},
		{"GroupNormalization bias", "GroupNormalization", 21, map[string]Attribute{"num_groups": {Type: AttrInt, Int: 2}},
			[]tensor.Value{randTensorOf(r, tensor.Float, 2, 4, 3, 3), randTensorOf(r, tensor.Float, 4), randTensorOf(r, tensor.Float, 4)}, 2},
		{"BatchNormalization mean", "BatchNormalization", 15, nil,
			[]tensor.Value{randTensorOf(r, tensor.Float, 2, 3, 4, 4), randTensorOf(r, tensor.Float, 3), randTensorOf(r, tensor.Float, 3), randTensorOf(r, tensor.Float, 3), tensor.MustFromSlice([]float32{0.5, 1, 2})}, 3},
	}
	for _, c := range cases {
		s, err := Lookup("", c.op, c.ver)
		if err != nil {
			t.Fatal(err)
		}
		plain := &Node{OpType: c.op, Version: s.Since, Attrs: c.attrs, NumOutputs: 1}
		want, err := s.Run(nil, plain, c.in)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		node := &Node{OpType: c.op, Version: s.Since, Attrs: c.attrs, NumOutputs: 1}
		consts := make([]tensor.Value, len(c.in))
		consts[c.packed] = c.in[c.packed]
		var packed int64
		n, err := PackConstants(node, consts, func(b int64) error { packed += b; return nil })
		if err != nil || n == 0 || n != packed {
			t.Fatalf("%s: PackConstants = %d, %v; charged %d", c.name, n, err, packed)
		}
		charged := func(in []tensor.Value) (tensor.Value, int64) {
			var mu sync.Mutex
			var used int64
			opt := &Options{env: runenv.Env{Charge: func(n int64) error { mu.Lock(); used += n; mu.Unlock(); return nil }}}
			got, err := s.Run(opt, node, in)
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			return got[0], used
		}
		got, usedPacked := charged(c.in)
		if !got.(*tensor.Tensor).Equal(want[0].(*tensor.Tensor)) {
			t.Errorf("%s: packed weights give another result", c.name)
		}
		// The same values in another tensor: not the packed constant.
		other := append([]tensor.Value(nil), c.in...)
		other[c.packed] = c.in[c.packed].(*tensor.Tensor).Clone()
		got2, usedPlain := charged(other)
		if !got2.(*tensor.Tensor).Equal(want[0].(*tensor.Tensor)) {
			t.Errorf("%s: another B gives another result", c.name)
		}
		if p := node.packs[c.packed]; p.t32 != nil {
			// The run reads the transposed copy, or R's panels when it
			// holds them: spoil the copy, and the result changes only
			// without the panels.
			clear(p.t32)
			if p.rp != nil {
				if got, _ := charged(c.in); !got.(*tensor.Tensor).Equal(want[0].(*tensor.Tensor)) {
					t.Errorf("%s: R's panels are not what the steps read", c.name)
				}
				p.rp = nil
			}
			if got, _ := charged(c.in); got.(*tensor.Tensor).Equal(want[0].(*tensor.Tensor)) {
				t.Errorf("%s: the transposed weights are not read", c.name)
			}
		}
		if p := node.packs[c.packed]; p.at32 != nil && gemm.TransposedPays(64, 49, 64) {
			// The 7x7 planes' products read the weights with the output
			// channels on the lanes: spoil them, and the result changes.
			clear(p.at32.Data())
			if got, _ := charged(c.in); got.(*tensor.Tensor).Equal(want[0].(*tensor.Tensor)) {
				t.Errorf("%s: the weights packed for the transposed tiles are not read", c.name)
			}
		}
		if p := node.packs[c.packed]; strings.HasSuffix(c.op, "Normalization") {
			// The run reads the float64 copy: spoil it, and the result
			// changes.
			clear(p.t64)
			if got, _ := charged(c.in); got.(*tensor.Tensor).Equal(want[0].(*tensor.Tensor)) {
				t.Errorf("%s: the float64 parameter is not read", c.name)
			}
		}
		// Where there is no transposed kernel (386, purego) a 7x7 plane's
		// 1x1 takes the usual tiles and charges what an unpacked run does.
		noKernel := node.packs[c.packed].at32 != nil && !gemm.TransposedPays(64, 49, 64)
		if usedPacked > usedPlain || (usedPacked == usedPlain && !noKernel && c.name != "MatMul float batch" && c.op != "LSTM" && c.op != "GRU" && c.op != "RNN") {
			t.Errorf("%s: the packed run charged %d bytes, the unpacked %d", c.name, usedPacked, usedPlain)
		}
	}
	// Not packed: a computed B, another domain, a 3-D B, a refused charge.
	node := &Node{OpType: "MatMul", Version: 13, NumOutputs: 1}
	if n, err := PackConstants(node, []tensor.Value{randTensorOf(r, tensor.Float, 4, 4), nil}, nil); n != 0 || err != nil || node.packs != nil {
		t.Errorf("computed B packed: %d, %v", n, err)
	}
	if n, _ := PackConstants(node, []tensor.Value{nil, randTensorOf(r, tensor.Float, 2, 4, 4)}, nil); n != 0 {
		t.Errorf("3-D B packed: %d", n)
	}
	if n, err := PackConstants(node, []tensor.Value{nil, randTensorOf(r, tensor.Float, 40, 40)}, func(int64) error { return ErrLimit }); n != 0 || err == nil || node.packs != nil {
		t.Errorf("refused charge: %d, %v", n, err)
	}
}
