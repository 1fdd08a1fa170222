package reference_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/reference"
	"github.com/onnxshape/onnxshape/tensor"
)

// Random nodes of the map operators of ai.onnx.ml (ZipMap, CastMap,
// DictVectorizer) for TestEnginesAgreeOnRandomValidNodes: they only move
// and convert values, so the engines agree exactly. Now and then a node
// breaks one rule (a label count, a repeated key, a key past max_map, a
// string that is no number), which both engines must refuse by the same
// rule.

// randomKeys returns n distinct int64 keys in [0, span), in random order.
func randomKeys(r *rand.Rand, n, span int) []int64 {
	perm := r.Perm(span)[:n]
	keys := make([]int64, n)
	for i, p := range perm {
		keys[i] = int64(p)
	}
	return keys
}

// randomMapValues returns n values of type dt: quarters, numbers as text,
// a NaN or an infinity now and then.
func randomMapValues(r *rand.Rand, dt tensor.DataType, n int) *tensor.Tensor {
	x := tensor.MustNew(dt, n)
	for i := range n {
		v := float64(r.IntN(41)-20) / 4
		switch r.IntN(25) {
		case 0:
			v = math.NaN()
		case 1:
			v = math.Inf(1 - 2*r.IntN(2))
		}
		switch dt {
		case tensor.Float:
			d, _ := tensor.Data[float32](x)
			d[i] = float32(v)
		case tensor.Double:
			d, _ := tensor.Data[float64](x)
			d[i] = v
		case tensor.Int64:
			d, _ := tensor.Data[int64](x)
			d[i] = int64(r.IntN(41) - 20)
		case tensor.String:
			s := fmt.Sprint(r.IntN(41) - 20)
			switch r.IntN(8) {
			case 0:
				s = fmt.Sprint(v)
			case 1:
				s = " 2.5"
			case 2:
				if r.IntN(4) == 0 {
					s = "not a number"
				}
			}
			x.Strings()[i] = s
		}
	}
	return x
}

func init() {
	generators["ZipMap"] = func(r *rand.Rand) (*ops.Node, []tensor.Value) {
		c := 1 + r.IntN(5)
		shape := []int{r.IntN(5), c}
		if r.IntN(4) == 0 {
			shape = []int{c}
		}
		x := quarters(r, tensor.Float, shape, true)
		e := c
		if r.IntN(20) == 0 {
			e = c + 1 // [columns]
		}
		n := &ops.Node{OpType: "ZipMap", Domain: mlDomain, Version: 1, Attrs: map[string]ops.Attribute{}}
		if r.IntN(2) == 0 {
			labels := make([]int, e)
			for i := range labels {
				labels[i] = 7 - 3*i
			}
			if r.IntN(20) == 0 && e > 1 {
				labels[e-1] = labels[0] // [labels]
			}
			n.Attrs["classlabels_int64s"] = attrInts(labels...)
		} else {
			labels := make([]string, e)
			for i := range labels {
				labels[i] = fmt.Sprint("class", e-i)
			}
			n.Attrs["classlabels_strings"] = attrStrs(labels...)
		}
		return n, []tensor.Value{x}
	}
	generators["CastMap"] = func(r *rand.Rand) (*ops.Node, []tensor.Value) {
		size := r.IntN(7)
		maxMap := 1 + r.IntN(10)
		keys := randomKeys(r, min(size, maxMap), maxMap)
		if r.IntN(20) == 0 && len(keys) > 1 {
			keys[1] = keys[0] // [keys]
		}
		if r.IntN(20) == 0 && len(keys) > 0 {
			keys[0] = int64(maxMap + r.IntN(2)) // [keys] under SPARSE
		}
		vt := tensor.Float
		if r.IntN(2) == 0 {
			vt = tensor.String
		}
		x := &tensor.Map{Keys: tensor.MustFromSlice(keys, len(keys)), Values: randomMapValues(r, vt, len(keys))}
		n := &ops.Node{OpType: "CastMap", Domain: mlDomain, Version: 1, Attrs: map[string]ops.Attribute{}}
		if k := r.IntN(4); k < 3 {
			n.Attrs["cast_to"] = attrStr([]string{"TO_FLOAT", "TO_STRING", "TO_INT64"}[k])
		}
		if k := r.IntN(3); k < 2 {
			n.Attrs["map_form"] = attrStr([]string{"DENSE", "SPARSE"}[k])
		}
		if r.IntN(4) > 0 {
			n.Attrs["max_map"] = attrInt(maxMap)
		}
		if r.IntN(30) == 0 {
			n.Attrs["max_map"] = attrInt(-1) // [max_map]
		}
		return n, []tensor.Value{x}
	}
	generators["DictVectorizer"] = func(r *rand.Rand) (*ops.Node, []tensor.Value) {
		words := 1 + r.IntN(8)
		vocabulary := randomKeys(r, words, 12)
		if r.IntN(10) == 0 && words > 1 {
			vocabulary[words-1] = vocabulary[0] // a word twice fills both columns
		}
		// The map: some of the vocabulary's words, now and then one
		// outside it ([keys]).
		var keys []int64
		for _, i := range r.Perm(words)[:r.IntN(words+1)] {
			if !containsKey(keys, vocabulary[i]) {
				keys = append(keys, vocabulary[i])
			}
		}
		if r.IntN(15) == 0 {
			keys = append(keys, 100)
		}
		n := &ops.Node{OpType: "DictVectorizer", Domain: mlDomain, Version: 1, Attrs: map[string]ops.Attribute{}}
		var kt *tensor.Tensor
		if r.IntN(2) == 0 {
			voc := make([]int, words)
			for i, v := range vocabulary {
				voc[i] = int(v)
			}
			n.Attrs["int64_vocabulary"] = attrInts(voc...)
			kt = tensor.MustFromSlice(keys, len(keys))
		} else {
			voc := make([]string, words)
			for i, v := range vocabulary {
				voc[i] = fmt.Sprint("w", v)
			}
			n.Attrs["string_vocabulary"] = attrStrs(voc...)
			ks := make([]string, len(keys))
			for i, k := range keys {
				ks[i] = fmt.Sprint("w", k)
			}
			kt = tensor.MustFromSlice(ks, len(ks))
		}
		valueTypes := map[tensor.DataType][]tensor.DataType{
			tensor.Int64:  {tensor.String, tensor.Float, tensor.Double},
			tensor.String: {tensor.Int64, tensor.Float, tensor.Double},
		}[kt.DataType()]
		vt := valueTypes[r.IntN(3)]
		if r.IntN(25) == 0 {
			vt = kt.DataType() // [type]: map(int64, int64), map(string, string)
		}
		return n, []tensor.Value{&tensor.Map{Keys: kt, Values: randomMapValues(r, vt, len(keys))}}
	}
}

func containsKey(keys []int64, k int64) bool {
	for _, x := range keys {
		if x == k {
			return true
		}
	}
	return false
}

// The specification's and onnxruntime's cases, through the reference
// engine (the random tests hold the fast engine to it).
func TestMapOperatorsExamples(t *testing.T) {
	f32 := func(v ...float32) *tensor.Tensor { return tensor.MustFromSlice(v, len(v)) }
	mapOf := func(keys []int64, vals *tensor.Tensor) *tensor.Map {
		return &tensor.Map{Keys: tensor.MustFromSlice(keys, len(keys)), Values: vals}
	}
	run := func(op string, attrs map[string]ops.Attribute, in tensor.Value) ([]tensor.Value, error) {
		n := &ops.Node{OpType: op, Domain: mlDomain, Version: 1, Attrs: attrs, NumOutputs: 1}
		ref, _ := reference.Kernel(mlDomain, op, 1)
		return ref(&ops.Options{MaxTensorBytes: 1 << 20}, n, []tensor.Value{in})
	}
	// ZipMap: rows of X as maps, in the labels' order.
	out, err := run("ZipMap", map[string]ops.Attribute{"classlabels_strings": attrStrs("b", "a")},
		tensor.MustFromSlice([]float32{0.25, 0.75, 1, 0}, 2, 2))
	if err != nil {
		t.Fatal(err)
	}
	z := out[0].(*tensor.MapSequence)
	if len(z.Items) != 2 || z.Items[1].StringKeys()[0] != "b" || z.Items[1].Values.Strings() != nil {
		t.Fatalf("ZipMap: %s", z.Describe())
	}
	if v, _ := tensor.Data[float32](z.Items[0].Values); v[0] != 0.25 || v[1] != 0.75 {
		t.Errorf("ZipMap row 0: %v", v)
	}
	// CastMap: sorted by key; SPARSE pads.
	x := mapOf([]int64{3, 0, 1}, f32(1.5, -2, 7))
	out, err = run("CastMap", map[string]ops.Attribute{"cast_to": attrStr("TO_STRING")}, x)
	if err != nil || strings.Join(out[0].(*tensor.Tensor).Strings(), " ") != "-2.000000 7.000000 1.500000" {
		t.Errorf("CastMap DENSE TO_STRING: %v %v", out, err)
	}
	out, err = run("CastMap", map[string]ops.Attribute{"map_form": attrStr("SPARSE"), "max_map": attrInt(5), "cast_to": attrStr("TO_INT64")}, x)
	if y, _ := tensor.Data[int64](out[0].(*tensor.Tensor)); err != nil || fmt.Sprint(y) != "[-2 7 0 1 0]" || !tensor.SameShape(out[0].(*tensor.Tensor).Shape(), []int{1, 5}) {
		t.Errorf("CastMap SPARSE TO_INT64: %v %v", out, err)
	}
	// DictVectorizer: the vocabulary's order, zero for absent words.
	sm, _ := tensor.MapOf([]string{"c", "a"}, []float64{3, 1})
	out, err = run("DictVectorizer", map[string]ops.Attribute{"string_vocabulary": attrStrs("a", "b", "c")}, sm)
	if y, _ := tensor.Data[float64](out[0].(*tensor.Tensor)); err != nil || fmt.Sprint(y) != "[1 0 3]" {
		t.Errorf("DictVectorizer: %v %v", out, err)
	}
}

// The reference SVMClassifier charges its outputs before it makes them:
// its mutation seed (testdata/mutations.golden: "charge 1 refused: ok")
// has no rows, hence nothing to charge; with rows, the first charge refused
// stops it with [size].
func TestReferenceSVMClassifierCharges(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	for range 50 {
		n, in := generators["SVMClassifier"](r)
		x, _ := in[0].(*tensor.Tensor)
		if x == nil || x.Rank() == 0 || x.Shape()[0] == 0 {
			continue
		}
		n.Version = 1
		k, _ := reference.Kernel(mlDomain, "SVMClassifier", 1)
		if _, err := k(&ops.Options{MaxTensorBytes: 1 << 22}, n, in); err != nil {
			continue // a generated refusal
		}
		charges := 0
		_, err := k(mutationOptions(context.Background(), 1<<22, 1, &charges), n, in)
		var e *ops.Error
		if !errors.As(err, &e) || e.Rule != "size" || charges == 0 {
			t.Fatalf("%d rows, the first charge refused: %v (%d charges)", x.Shape()[0], err, charges)
		}
		return
	}
	t.Fatal("no SVMClassifier node with rows ran")
}
