package reference_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/reference"
	"github.com/onnxshape/onnxshape/tensor"
)

// The random nodes of ops' FuzzOperators, decoded the same way, run through
// both engines: the reference must not panic or modify its inputs, and the
// two must agree, on the outputs (reference.Agree) or on the rule broken.

// fuzzSource draws choices from the fuzzer's bytes, then zeros.
type fuzzSource struct{ b []byte }

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

var fuzzAttrNames = []struct {
	name    string
	typ     ops.AttrType
	choices []string
}{
	{"axis", ops.AttrInt, nil}, {"axes", ops.AttrInts, nil}, {"perm", ops.AttrInts, nil},
	{"blocksize", ops.AttrInt, nil}, {"allowzero", ops.AttrInt, nil}, {"split", ops.AttrInts, nil},
	{"num_outputs", ops.AttrInt, nil}, {"starts", ops.AttrInts, nil}, {"ends", ops.AttrInts, nil},
	{"pads", ops.AttrInts, nil}, {"paddings", ops.AttrInts, nil}, {"value", ops.AttrFloat, nil},
	{"kernel_shape", ops.AttrInts, nil}, {"strides", ops.AttrInts, nil}, {"dilations", ops.AttrInts, nil},
	{"ceil_mode", ops.AttrInt, nil}, {"storage_order", ops.AttrInt, nil}, {"start", ops.AttrInt, nil},
	{"end", ops.AttrInt, nil}, {"exclude_outside", ops.AttrInt, nil}, {"antialias", ops.AttrInt, nil},
	{"cubic_coeff_a", ops.AttrFloat, nil}, {"extrapolation_value", ops.AttrFloat, nil},
	{"scales", ops.AttrFloats, nil}, {"value_int", ops.AttrInt, nil}, {"value_ints", ops.AttrInts, nil},
	{"value_float", ops.AttrFloat, nil}, {"value_floats", ops.AttrFloats, nil},
	{"mode", ops.AttrString, []string{"constant", "reflect", "edge", "wrap", "nearest", "linear", "cubic", "DCR", "CRD", "bogus"}},
	{"auto_pad", ops.AttrString, []string{"NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID", "bogus"}},
	{"coordinate_transformation_mode", ops.AttrString, []string{"half_pixel", "half_pixel_symmetric",
		"pytorch_half_pixel", "align_corners", "asymmetric", "tf_half_pixel_for_nn", "tf_crop_and_resize", "bogus"}},
	{"nearest_mode", ops.AttrString, []string{"round_prefer_floor", "round_prefer_ceil", "floor", "ceil", "bogus"}},
	{"keep_aspect_ratio_policy", ops.AttrString, []string{"stretch", "not_larger", "not_smaller", "bogus"}},
}

var fuzzTypes = []tensor.DataType{tensor.Int64, tensor.Int64, tensor.Int32, tensor.Float, tensor.Float16,
	tensor.Uint8, tensor.Int8, tensor.Double, tensor.String, tensor.Bool, tensor.Int4, tensor.BFloat16, tensor.Float8E4M3FN}

// tensor builds a small tensor whose shape and contents come from s.
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

// compareFuzzedNode decodes one node call from b and runs it through both
// engines under both profiles.
func compareFuzzedNode(t *testing.T, b []byte) {
	s := &fuzzSource{b: b}
	schemas := ops.Schemas()
	sc := schemas[s.intn(len(schemas))]
	n := &ops.Node{OpType: sc.Name, Domain: sc.Domain, Version: sc.Since, NumOutputs: 1 + s.intn(3), Attrs: map[string]ops.Attribute{}}
	for k := s.intn(4); k > 0; k-- {
		a := fuzzAttrNames[s.intn(len(fuzzAttrNames))]
		attr := ops.Attribute{Type: a.typ}
		switch a.typ {
		case ops.AttrInt:
			attr.Int = s.smallInt()
		case ops.AttrFloat:
			attr.Float = float32(s.smallInt()) / 2
		case ops.AttrString:
			attr.String = a.choices[s.intn(len(a.choices))]
		case ops.AttrInts:
			for j := s.intn(7); j > 0; j-- {
				attr.Ints = append(attr.Ints, s.smallInt())
			}
		case ops.AttrFloats:
			for j := s.intn(5); j > 0; j-- {
				attr.Floats = append(attr.Floats, float32(s.smallInt())/2)
			}
		}
		n.Attrs[a.name] = attr
	}
	// A generator repeats its values only from a seed: without one, two
	// runs (and the two engines) differ by design.
	if fuzzRandomGenerators[sc.Name] {
		n.Attrs["seed"] = ops.Attribute{Type: ops.AttrFloat, Float: 1.5}
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
	ref, ok := reference.Kernel(sc.Domain, sc.Name, sc.Since)
	if !ok {
		t.Fatalf("%s-%d has no reference kernel", sc.Name, sc.Since)
	}
	for _, p := range []ops.Profile{ops.ProfileONNX, ops.ProfileSONNX} {
		desc := fmt.Sprintf("%s-%d under %v, attrs %v, inputs %v", n.OpType, n.Version, p, n.Attrs, describeAll(in))
		opt := &ops.Options{MaxTensorBytes: 1 << 20, Profile: p}
		fastOut, fastErr := sc.Run(opt, n, in)
		refOut, refErr := func() (out []tensor.Value, err error) {
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("%s: the reference panics: %v", desc, r)
				}
			}()
			return ref(opt, n, in)
		}()
		for i, x := range orig {
			if x != nil && !x.Equal(in[i].(*tensor.Tensor)) {
				t.Fatalf("%s: input %d was modified", desc, i)
			}
		}
		switch {
		case fastErr != nil || refErr != nil:
			var ef, er *ops.Error
			if !errors.As(fastErr, &ef) || !errors.As(refErr, &er) || ef.Op != er.Op || ef.Version != er.Version || ef.Rule != er.Rule {
				t.Fatalf("%s:\n fast      %v\n reference %v", desc, fastErr, refErr)
			}
		default:
			if err := reference.Agree(n, in, fastOut, refOut); err != nil {
				t.Fatalf("%s: %v", desc, err)
			}
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

// TestEnginesAgreeOnRandomNodes runs every registered operator on random
// attributes and inputs through both engines.
func TestEnginesAgreeOnRandomNodes(t *testing.T) {
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
		compareFuzzedNode(t, b)
	}
}

// FuzzEngines is the coverage-guided version:
//
//	go test ./reference -run XXX -fuzz FuzzEngines -fuzztime 30s
func FuzzEngines(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte("\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f"))
	f.Fuzz(compareFuzzedNode)
}

// fuzzRandomGenerators are the operators whose values depend on a seed.
var fuzzRandomGenerators = map[string]bool{"RandomUniform": true, "RandomNormal": true,
	"RandomUniformLike": true, "RandomNormalLike": true, "Bernoulli": true}
