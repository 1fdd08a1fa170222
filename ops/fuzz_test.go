package ops

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/onnxshape/onnxshape/internal/runenv"
	"github.com/onnxshape/onnxshape/tensor"
)

// fuzzSource draws choices from the fuzzer's bytes, then zeros when they
// run out, so every input decodes to some node.
type fuzzSource struct {
	b []byte
}

func (s *fuzzSource) byte() byte {
	if len(s.b) == 0 {
		return 0
	}
	v := s.b[0]
	s.b = s.b[1:]
	return v
}

func (s *fuzzSource) intn(n int) int {
	if n <= 0 {
		return 0
	}
	return int(s.byte()) % n
}

// smallInt returns a value in [-6, 6], now and then an extreme one.
func (s *fuzzSource) smallInt() int64 {
	switch v := s.byte(); {
	case v == 255:
		return math.MaxInt64
	case v == 254:
		return math.MinInt64
	case v == 253:
		return 1 << 40
	default:
		return int64(v%13) - 6
	}
}

// Attribute names the operators read, with the kind of value each takes.
var fuzzAttrNames = []struct {
	name    string
	typ     AttrType
	choices []string
}{
	{"axis", AttrInt, nil}, {"axes", AttrInts, nil}, {"perm", AttrInts, nil},
	{"blocksize", AttrInt, nil}, {"allowzero", AttrInt, nil}, {"split", AttrInts, nil},
	{"num_outputs", AttrInt, nil}, {"starts", AttrInts, nil}, {"ends", AttrInts, nil},
	{"pads", AttrInts, nil}, {"paddings", AttrInts, nil}, {"value", AttrFloat, nil},
	{"kernel_shape", AttrInts, nil}, {"strides", AttrInts, nil}, {"dilations", AttrInts, nil},
	{"ceil_mode", AttrInt, nil}, {"storage_order", AttrInt, nil}, {"start", AttrInt, nil},
	{"end", AttrInt, nil}, {"exclude_outside", AttrInt, nil}, {"antialias", AttrInt, nil},
	{"cubic_coeff_a", AttrFloat, nil}, {"extrapolation_value", AttrFloat, nil},
	{"scales", AttrFloats, nil}, {"value_int", AttrInt, nil}, {"value_ints", AttrInts, nil},
	{"value_float", AttrFloat, nil}, {"value_floats", AttrFloats, nil},
	{"mode", AttrString, []string{"constant", "reflect", "edge", "wrap", "nearest", "linear", "cubic", "DCR", "CRD", "bogus"}},
	{"auto_pad", AttrString, []string{"NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID", "bogus"}},
	{"coordinate_transformation_mode", AttrString, []string{"half_pixel", "half_pixel_symmetric",
		"pytorch_half_pixel", "align_corners", "asymmetric", "tf_half_pixel_for_nn", "tf_crop_and_resize", "bogus"}},
	{"nearest_mode", AttrString, []string{"round_prefer_floor", "round_prefer_ceil", "floor", "ceil", "bogus"}},
	{"keep_aspect_ratio_policy", AttrString, []string{"stretch", "not_larger", "not_smaller", "bogus"}},
	// The compute, normalization, recurrent, attention and signal operators.
	{"group", AttrInt, nil}, {"transA", AttrInt, nil}, {"transB", AttrInt, nil},
	{"alpha", AttrFloat, nil}, {"beta", AttrFloat, nil}, {"epsilon", AttrFloat, nil},
	{"output_padding", AttrInts, nil}, {"output_shape", AttrInts, nil}, {"layout", AttrInt, nil},
	{"hidden_size", AttrInt, nil}, {"clip", AttrFloat, nil}, {"linear_before_reset", AttrInt, nil},
	{"direction", AttrString, []string{"forward", "reverse", "bidirectional", "bogus"}},
	{"activations", AttrStrings, []string{"Sigmoid", "Tanh", "Relu", "Affine", "LeakyRelu",
		"ThresholdedRelu", "ScaledTanh", "HardSigmoid", "Elu", "Softsign", "Softplus", "bogus"}},
	{"activation_alpha", AttrFloats, nil}, {"activation_beta", AttrFloats, nil},
	{"keepdims", AttrInt, nil}, {"noop_with_empty_axes", AttrInt, nil}, {"select_last_index", AttrInt, nil},
	{"exclusive", AttrInt, nil}, {"reverse", AttrInt, nil}, {"k", AttrInt, nil},
	{"largest", AttrInt, nil}, {"sorted", AttrInt, nil}, {"to", AttrInt, nil}, {"saturate", AttrInt, nil},
	{"block_size", AttrInt, nil}, {"batch_dims", AttrInt, nil}, {"num_groups", AttrInt, nil},
	{"stash_type", AttrInt, nil}, {"training_mode", AttrInt, nil}, {"momentum", AttrFloat, nil},
	{"size", AttrInt, nil}, {"bias", AttrFloat, nil}, {"p", AttrInt, nil}, {"count_include_pad", AttrInt, nil},
	{"is_causal", AttrInt, nil}, {"q_num_heads", AttrInt, nil}, {"kv_num_heads", AttrInt, nil},
	{"num_heads", AttrInt, nil}, {"softcap", AttrFloat, nil}, {"scale", AttrFloat, nil},
	{"qk_matmul_output_mode", AttrInt, nil}, {"interleaved", AttrInt, nil}, {"rotary_embedding_dim", AttrInt, nil},
	{"onesided", AttrInt, nil}, {"inverse", AttrInt, nil}, {"output_datatype", AttrInt, nil},
	{"periodic", AttrInt, nil}, {"sampling_ratio", AttrInt, nil}, {"spatial_scale", AttrFloat, nil},
	{"output_height", AttrInt, nil}, {"output_width", AttrInt, nil}, {"align_corners", AttrInt, nil},
	{"ignore_index", AttrInt, nil}, {"upper", AttrInt, nil}, {"num_scan_inputs", AttrInt, nil},
	{"equation", AttrString, []string{"ij,jk->ik", "...ij,...jk", "ii->i", "i,i", "bij,bjk->bik", "ab", "->", "bogus"}},
	{"padding_mode", AttrString, []string{"zeros", "border", "reflection", "bogus"}},
	{"reduction", AttrString, []string{"none", "sum", "mean", "add", "mul", "max", "min", "bogus"}},
	{"approximate", AttrString, []string{"none", "tanh", "bogus"}},
}

var fuzzTypes = []tensor.DataType{tensor.Int64, tensor.Int64, tensor.Int32, tensor.Float, tensor.Float16,
	tensor.Uint8, tensor.Int8, tensor.Double, tensor.String, tensor.Bool, tensor.Int4, tensor.BFloat16, tensor.Float8E4M3FN}

// fuzzTensor builds a small tensor whose shape and contents come from s.
// Integer tensors hold small values, as axes, shapes and pads do.
func (s *fuzzSource) tensor() *tensor.Tensor {
	dt := fuzzTypes[s.intn(len(fuzzTypes))]
	shape := make([]int, s.intn(5))
	for i := range shape {
		shape[i] = s.intn(5)
	}
	x := tensor.MustNew(dt, shape...)
	switch dt {
	case tensor.String:
		for i := range x.Strings() {
			x.Strings()[i] = fmt.Sprint(s.byte())
		}
	case tensor.Int64:
		v, _ := tensor.Data[int64](x)
		for i := range v {
			v[i] = s.smallInt()
		}
	case tensor.Int32:
		v, _ := tensor.Data[int32](x)
		for i := range v {
			v[i] = int32(s.smallInt())
		}
	case tensor.Bool:
		for i := range x.Bytes() {
			x.Bytes()[i] = s.byte() & 1
		}
	case tensor.Int4:
		for i := range x.Bytes() {
			x.Bytes()[i] = byte(int8(s.byte()%16) - 8)
		}
	case tensor.Float:
		v, _ := tensor.Data[float32](x)
		for i := range v {
			v[i] = float32(s.smallInt()) / 2
		}
	default:
		for i := range x.Bytes() {
			x.Bytes()[i] = s.byte()
		}
	}
	return x
}

// runFuzzedNode decodes one node call from b, runs it and fails the test if
// the kernel panics, modifies an input, or returns neither outputs nor an error.
func runFuzzedNode(t *testing.T, b []byte) {
	s := &fuzzSource{b: b}
	schemas := Schemas()
	sc := schemas[s.intn(len(schemas))]
	n := &Node{OpType: sc.Name, Version: sc.Since, NumOutputs: 1 + s.intn(3), Attrs: map[string]Attribute{}}
	for k := s.intn(4); k > 0; k-- {
		a := fuzzAttrNames[s.intn(len(fuzzAttrNames))]
		attr := Attribute{Type: a.typ}
		switch a.typ {
		case AttrInt:
			attr.Int = s.smallInt()
		case AttrFloat:
			attr.Float = float32(s.smallInt()) / 2
		case AttrString:
			attr.String = a.choices[s.intn(len(a.choices))]
		case AttrStrings:
			for j := s.intn(7); j > 0; j-- {
				attr.Strings = append(attr.Strings, a.choices[s.intn(len(a.choices))])
			}
		case AttrInts:
			for j := s.intn(7); j > 0; j-- {
				attr.Ints = append(attr.Ints, s.smallInt())
			}
		case AttrFloats:
			for j := s.intn(5); j > 0; j-- {
				attr.Floats = append(attr.Floats, float32(s.smallInt())/2)
			}
		}
		n.Attrs[a.name] = attr
	}
	// A generator repeats its values only from a seed: without one, two
	// runs (and the two engines) differ by design.
	if fuzzRandomGenerators[sc.Name] {
		n.Attrs["seed"] = Attribute{Type: AttrFloat, Float: 1.5}
	}
	maxIn := sc.Inputs[1]
	if maxIn < 0 {
		maxIn = 4
	}
	count := sc.Inputs[0] + s.intn(maxIn-sc.Inputs[0]+1)
	in := make([]tensor.Value, count)
	orig := make([]*tensor.Tensor, count)
	for i := range in {
		if i > 0 && s.intn(6) == 0 {
			continue // an optional input left out
		}
		x := s.tensor()
		in[i], orig[i] = x, x.Clone()
	}
	desc := fmt.Sprintf("%s-%d attrs %v inputs %v", n.OpType, n.Version, n.Attrs, describeAll(in))
	opt := &Options{MaxTensorBytes: 1 << 20}
	out, err := func() (out []tensor.Value, err error) {
		defer func() {
			if p := recover(); p != nil {
				t.Fatalf("%s: panic: %v", desc, p)
			}
		}()
		return sc.Run(opt, n, in)
	}()
	for i, x := range orig {
		if x != nil && !x.Equal(in[i].(*tensor.Tensor)) {
			t.Fatalf("%s: input %d was modified", desc, i)
		}
	}
	if err == nil && len(out) == 0 {
		t.Fatalf("%s: no output and no error", desc)
	}
	if err != nil {
		return
	}
	// Storage from an allocator holds garbage: a kernel must give the same
	// result with it (what it does not overwrite, it must clear).
	poisoned := &Options{MaxTensorBytes: 1 << 20, env: runenv.Env{Alloc: func(size int) []byte {
		b := tensor.MustNew(tensor.Uint8, size).Bytes()
		for i := range b {
			b[i] = 0xA5
		}
		return b
	}}}
	again, err := sc.Run(poisoned, n, in)
	if err != nil {
		t.Fatalf("%s: fails with an allocator: %v", desc, err)
	}
	for i := range out {
		a, ok1 := out[i].(*tensor.Tensor)
		b, ok2 := again[i].(*tensor.Tensor)
		if ok1 && ok2 && !a.Equal(b) {
			t.Fatalf("%s: output %d depends on the content of recycled storage", desc, i)
		}
	}
}

func describeAll(in []tensor.Value) []string {
	out := make([]string, len(in))
	for i, v := range in {
		if v == nil {
			out[i] = "absent"
		} else {
			out[i] = v.Describe()
		}
	}
	return out
}

// TestOperatorsSurviveRandomNodes runs every registered operator on random
// attributes and inputs: errors are fine, panics and modified inputs are not.
func TestOperatorsSurviveRandomNodes(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	n := 20000
	if testing.Short() {
		n = 2000
	}
	for i := 0; i < n; i++ {
		b := make([]byte, 64+r.IntN(128))
		for j := range b {
			b[j] = byte(r.Uint32())
		}
		runFuzzedNode(t, b)
	}
}

// FuzzOperators is the coverage-guided version:
//
//	go test ./ops -run XXX -fuzz FuzzOperators -fuzztime 10m
func FuzzOperators(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte("\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f"))
	f.Fuzz(runFuzzedNode)
}

// fuzzRandomGenerators are the operators whose values depend on a seed.
var fuzzRandomGenerators = map[string]bool{"RandomUniform": true, "RandomNormal": true,
	"RandomUniformLike": true, "RandomNormalLike": true, "Bernoulli": true}
