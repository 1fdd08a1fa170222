package ops_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// The random generators' node tests compare values of a generator ONNX
// does not name, so they stay excluded; these tests hold what can be
// compared: shape, type, range, and the same values for the same seed.
func TestRandomGenerators(t *testing.T) {
	run := func(op string, version int, attrs map[string]ops.Attribute, in ...tensor.Value) *tensor.Tensor {
		t.Helper()
		s, err := ops.Lookup("", op, version)
		if err != nil {
			t.Fatal(err)
		}
		out, err := s.Run(nil, &ops.Node{OpType: op, Version: s.Since, Attrs: attrs, NumOutputs: 1}, in)
		if err != nil {
			t.Fatalf("%s: %v", op, err)
		}
		return out[0].(*tensor.Tensor)
	}
	seed := ops.Attribute{Type: ops.AttrFloat, Float: 3}
	u := run("RandomUniform", 22, map[string]ops.Attribute{"seed": seed, "low": {Type: ops.AttrFloat, Float: -2},
		"high": {Type: ops.AttrFloat, Float: 5}, "shape": {Type: ops.AttrInts, Ints: []int64{40, 50}}, "dtype": {Type: ops.AttrInt, Int: int64(tensor.Double)}})
	v, _ := tensor.Data[float64](u)
	if u.DataType() != tensor.Double || len(v) != 2000 || u.Shape()[0] != 40 {
		t.Fatalf("RandomUniform: %v", u.Describe())
	}
	lo, hi, sum := math.Inf(1), math.Inf(-1), 0.0
	for _, x := range v {
		lo, hi, sum = math.Min(lo, x), math.Max(hi, x), sum+x
	}
	if lo < -2 || hi >= 5 || math.Abs(sum/2000-1.5) > 0.3 {
		t.Errorf("RandomUniform over [-2, 5): least %v, greatest %v, mean %v", lo, hi, sum/2000)
	}
	again := run("RandomUniform", 22, map[string]ops.Attribute{"seed": seed, "low": {Type: ops.AttrFloat, Float: -2},
		"high": {Type: ops.AttrFloat, Float: 5}, "shape": {Type: ops.AttrInts, Ints: []int64{40, 50}}, "dtype": {Type: ops.AttrInt, Int: int64(tensor.Double)}})
	if !again.Equal(u) {
		t.Error("RandomUniform with one seed gave two results")
	}
	x := tensor.MustNew(tensor.Float, 1000)
	n := run("RandomNormalLike", 22, map[string]ops.Attribute{"seed": seed, "mean": {Type: ops.AttrFloat, Float: 10}}, x)
	f, _ := tensor.Data[float32](n)
	sum = 0
	for _, x := range f {
		sum += float64(x)
	}
	if n.DataType() != tensor.Float || len(f) != 1000 || math.Abs(sum/1000-10) > 0.2 {
		t.Errorf("RandomNormalLike: %v, mean %v", n.Describe(), sum/1000)
	}
	p := tensor.MustFromSlice([]float32{0, 1, 0, 1, 0, 1}, 2, 3)
	b := run("Bernoulli", 22, map[string]ops.Attribute{"dtype": {Type: ops.AttrInt, Int: int64(tensor.Bool)}}, p)
	if b.DataType() != tensor.Bool || b.Shape()[1] != 3 || string(b.Bytes()) != "\x00\x01\x00\x01\x00\x01" {
		t.Errorf("Bernoulli of 0 and 1: %v %v", b.Describe(), b.Bytes())
	}
	s, _ := ops.Lookup("", "RandomUniformLike", 22)
	if _, err := s.Run(&ops.Options{Profile: ops.ProfileSONNX}, &ops.Node{OpType: "RandomUniformLike", Version: 22}, []tensor.Value{x}); err == nil {
		t.Error("RandomUniformLike ran under SONNX")
	}
}

// The generators draw math/rand/v2's PCG as the documentation says (seeded
// with the float32 bits of seed and "onnxshap", one Float64 or NormFloat64
// per element in row-major order), across the fill's blocks of 4,096.
func TestRandomGeneratorsDrawTheDocumentedStream(t *testing.T) {
	const count = 10000
	seed := ops.Attribute{Type: ops.AttrFloat, Float: 3}
	stream := func() *rand.Rand { return rand.New(rand.NewPCG(uint64(math.Float32bits(3)), 0x6f6e6e7873686170)) }
	run := func(op string, attrs map[string]ops.Attribute, in ...tensor.Value) []float64 {
		t.Helper()
		s, err := ops.Lookup("", op, 22)
		if err != nil {
			t.Fatal(err)
		}
		attrs["seed"] = seed
		attrs["dtype"] = ops.Attribute{Type: ops.AttrInt, Int: int64(tensor.Double)}
		out, err := s.Run(nil, &ops.Node{OpType: op, Version: 22, Attrs: attrs, NumOutputs: 1}, in)
		if err != nil {
			t.Fatalf("%s: %v", op, err)
		}
		v, _ := tensor.Data[float64](out[0].(*tensor.Tensor))
		if len(v) != count {
			t.Fatalf("%s: %d values", op, len(v))
		}
		return v
	}
	shape := ops.Attribute{Type: ops.AttrInts, Ints: []int64{count}}
	u := run("RandomUniform", map[string]ops.Attribute{"shape": shape, "low": {Type: ops.AttrFloat, Float: -2}, "high": {Type: ops.AttrFloat, Float: 5}})
	r := stream()
	for i, got := range u {
		if want := -2 + 7*r.Float64(); got != want {
			t.Fatalf("RandomUniform[%d] = %v, the stream gives %v", i, got, want)
		}
	}
	z := run("RandomNormal", map[string]ops.Attribute{"shape": shape, "mean": {Type: ops.AttrFloat, Float: 1}, "scale": {Type: ops.AttrFloat, Float: 2}})
	r = stream()
	for i, got := range z {
		if want := 1 + 2*r.NormFloat64(); got != want {
			t.Fatalf("RandomNormal[%d] = %v, the stream gives %v", i, got, want)
		}
	}
	p := make([]float64, count)
	for i := range p {
		p[i] = float64(i%7) / 6
	}
	b := run("Bernoulli", map[string]ops.Attribute{}, tensor.MustFromSlice(p, count))
	r = stream()
	for i, got := range b {
		want := 0.0
		if r.Float64() < p[i] {
			want = 1
		}
		if got != want {
			t.Fatalf("Bernoulli[%d] = %v, the stream gives %v", i, got, want)
		}
	}
}
