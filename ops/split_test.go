package ops

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/onnxshape/onnxshape/tensor"
)

func splitAttrs(kv ...any) map[string]Attribute {
	m := map[string]Attribute{}
	for i := 0; i < len(kv); i += 2 {
		switch v := kv[i+1].(type) {
		case int:
			m[kv[i].(string)] = Attribute{Type: AttrInt, Int: int64(v)}
		case []int64:
			m[kv[i].(string)] = Attribute{Type: AttrInts, Ints: v}
		}
	}
	return m
}

// The cases of the ONNX node tests, through the registered kernels.
func TestSplitNodeCases(t *testing.T) {
	x1 := seq64(1, 6)
	x2 := seq64(1, 2, 6)
	cases := []struct {
		name    string
		version int
		outputs int
		attrs   map[string]Attribute
		in      []tensor.Value
		shapes  [][]int
		want    [][]int64
	}{
		{"1d uneven (18)", 18, 4, splitAttrs("num_outputs", 4), []tensor.Value{seq64(1, 7)},
			[][]int{{2}, {2}, {2}, {1}}, [][]int64{{1, 2}, {3, 4}, {5, 6}, {7}}},
		{"2d uneven (18)", 18, 3, splitAttrs("axis", 1, "num_outputs", 3), []tensor.Value{seq64(1, 2, 8)},
			[][]int{{2, 3}, {2, 3}, {2, 2}}, [][]int64{{1, 2, 3, 9, 10, 11}, {4, 5, 6, 12, 13, 14}, {7, 8, 15, 16}}},
		{"equal parts (13)", 13, 3, splitAttrs("axis", 0), []tensor.Value{x1},
			[][]int{{2}, {2}, {2}}, [][]int64{{1, 2}, {3, 4}, {5, 6}}},
		{"equal parts 2d (13)", 13, 2, splitAttrs("axis", 1), []tensor.Value{x2},
			[][]int{{2, 3}, {2, 3}}, [][]int64{{1, 2, 3, 7, 8, 9}, {4, 5, 6, 10, 11, 12}}},
		{"equal parts default axis (18)", 18, 3, splitAttrs("num_outputs", 3), []tensor.Value{x1},
			[][]int{{2}, {2}, {2}}, [][]int64{{1, 2}, {3, 4}, {5, 6}}},
		{"variable parts (13)", 13, 2, nil, []tensor.Value{x1, list64(2, 4)},
			[][]int{{2}, {4}}, [][]int64{{1, 2}, {3, 4, 5, 6}}},
		{"variable parts 2d (18)", 18, 2, splitAttrs("axis", 1), []tensor.Value{x2, list64(2, 4)},
			[][]int{{2, 2}, {2, 4}}, [][]int64{{1, 2, 7, 8}, {3, 4, 5, 6, 9, 10, 11, 12}}},
		{"zero-size splits (18)", 18, 3, nil, []tensor.Value{seq64(0, 0), list64(0, 0, 0)},
			[][]int{{0}, {0}, {0}}, [][]int64{{}, {}, {}}},
		{"zero-size part (13)", 13, 3, nil, []tensor.Value{seq64(1, 3), list64(1, 0, 2)},
			[][]int{{1}, {0}, {2}}, [][]int64{{1}, {}, {2, 3}}},
		{"split attribute (2)", 2, 2, splitAttrs("axis", 1, "split", []int64{1, 5}), []tensor.Value{x2},
			[][]int{{2, 1}, {2, 5}}, [][]int64{{1, 7}, {2, 3, 4, 5, 6, 8, 9, 10, 11, 12}}},
		{"split attribute, negative axis (11)", 11, 2, splitAttrs("axis", -1, "split", []int64{4, 2}), []tensor.Value{x2},
			[][]int{{2, 4}, {2, 2}}, [][]int64{{1, 2, 3, 4, 7, 8, 9, 10}, {5, 6, 11, 12}}},
		{"split as a float input (1)", 1, 2, nil, []tensor.Value{x1, tensor.MustFromSlice([]float32{5, 1})},
			[][]int{{5}, {1}}, [][]int64{{1, 2, 3, 4, 5}, {6}}},
		{"equal parts (1)", 1, 2, nil, []tensor.Value{x1},
			[][]int{{3}, {3}}, [][]int64{{1, 2, 3}, {4, 5, 6}}},
		{"empty split input means none (13)", 13, 2, nil, []tensor.Value{x1, list64()},
			[][]int{{3}, {3}}, [][]int64{{1, 2, 3}, {4, 5, 6}}},
		{"neither split nor num_outputs (18)", 18, 4, nil, []tensor.Value{seq64(1, 7)},
			[][]int{{2}, {2}, {2}, {1}}, [][]int64{{1, 2}, {3, 4}, {5, 6}, {7}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, err := runKernel(nil, "Split", c.version, c.outputs, c.attrs, c.in...)
			if err != nil {
				t.Fatal(err)
			}
			if len(out) != len(c.want) {
				t.Fatalf("%d outputs, want %d", len(out), len(c.want))
			}
			for i := range out {
				wantInt64s(t, out[i], c.shapes[i], c.want[i])
			}
		})
	}
}

func TestSplitRules(t *testing.T) {
	x := seq64(0, 2, 6)
	cases := []struct {
		name    string
		prof    Profile
		version int
		outputs int
		attrs   map[string]Attribute
		in      []tensor.Value
		rule    string
		text    string
	}{
		{"sizes do not add up", ProfileONNX, 13, 2, splitAttrs("axis", 1), []tensor.Value{x, list64(2, 3)}, "split",
			"Split-13 [split] the sizes [2 3] add up to 5, not to dimension 1 (6)"},
		{"sizes add up to more", ProfileONNX, 13, 2, splitAttrs("axis", 1), []tensor.Value{x, list64(4, 3)}, "split", ""},
		{"negative size", ProfileONNX, 13, 2, splitAttrs("axis", 1), []tensor.Value{x, list64(-1, 7)}, "split",
			"Split-13 [split] split[0] = -1 is negative"},
		{"one size per output", ProfileONNX, 18, 3, splitAttrs("axis", 1), []tensor.Value{x, list64(2, 4)}, "split",
			"Split-18 [split] split has 2 sizes but the node has 3 outputs"},
		{"split is int64", ProfileONNX, 13, 2, nil, []tensor.Value{x, tensor.MustFromSlice([]int32{1, 1})}, "split", ""},
		{"split is 1-D", ProfileONNX, 13, 2, nil, []tensor.Value{x, tensor.MustFromSlice([]int64{1, 1}, 1, 2)}, "split", ""},
		{"uneven without num_outputs (13)", ProfileONNX, 13, 4, splitAttrs("axis", 1), []tensor.Value{x}, "split",
			"Split-13 [split] dimension 1 (6) does not split evenly into 4 outputs"},
		{"uneven without split (2)", ProfileONNX, 2, 4, splitAttrs("axis", 1), []tensor.Value{x}, "split", ""},
		{"split and num_outputs", ProfileONNX, 18, 2, splitAttrs("axis", 1, "num_outputs", 2), []tensor.Value{x, list64(3, 3)}, "split",
			"Split-18 [split] split and num_outputs are both given"},
		{"num_outputs is not the outputs", ProfileONNX, 18, 2, splitAttrs("axis", 1, "num_outputs", 3), []tensor.Value{x}, "num_outputs",
			"Split-18 [num_outputs] num_outputs is 3 but the node has 2 outputs"},
		{"num_outputs 0", ProfileONNX, 18, 1, splitAttrs("num_outputs", 0), []tensor.Value{x}, "num_outputs", ""},
		{"no last part left", ProfileONNX, 18, 4, splitAttrs("axis", 0, "num_outputs", 4), []tensor.Value{x}, "num_outputs",
			"Split-18 [num_outputs] dimension 2 cannot be cut into 4 parts of 1 with a smaller last part"},
		{"axis out of range", ProfileONNX, 13, 2, splitAttrs("axis", 2), []tensor.Value{x}, "axis",
			"Split-13 [axis] axis 2 is outside [-2, 1] for an input of rank 2"},
		{"negative axis before 11", ProfileONNX, 2, 2, splitAttrs("axis", -1), []tensor.Value{x}, "axis",
			"Split-2 [axis] axis -1 is outside [0, 1] for an input of rank 2"},
		{"rank 0", ProfileONNX, 13, 1, nil, []tensor.Value{tensor.Scalar(int64(1))}, "axis", ""},
		{"split twice (1)", ProfileONNX, 1, 2, splitAttrs("split", []int64{1, 1}), []tensor.Value{x, list64(1, 1)}, "split",
			"Split-1 [split] split is given both as an attribute and as an input"},
		{"fractional split (1)", ProfileONNX, 1, 2, nil, []tensor.Value{x, tensor.MustFromSlice([]float32{0.5, 1.5})}, "split", ""},
		{"missing input", ProfileONNX, 13, 2, nil, []tensor.Value{nil}, "input", ""},
		{"num_outputs before 18", ProfileONNX, 13, 2, splitAttrs("num_outputs", 2), []tensor.Value{x}, "attribute", ""},
		{"split attribute from 13", ProfileONNX, 13, 2, splitAttrs("split", []int64{1, 1}), []tensor.Value{x}, "attribute", ""},
		{"profile: axis explicit", ProfileSONNX, 13, 2, nil, []tensor.Value{x}, "GR4", ""},
		{"profile: split or num_outputs", ProfileSONNX, 18, 2, splitAttrs("axis", 0), []tensor.Value{x}, "GR4", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := runKernel(&Options{Profile: c.prof}, "Split", c.version, c.outputs, c.attrs, c.in...)
			wantRule(t, err, c.rule, c.text)
		})
	}
}

func TestSplitGoAPI(t *testing.T) {
	parts, err := Split(seq64(0, 3, 2), SplitOptions{Axis: -2, Split: []int{1, 2}})
	if err != nil {
		t.Fatal(err)
	}
	wantInt64s(t, parts[0], []int{1, 2}, []int64{0, 1})
	wantInt64s(t, parts[1], []int{2, 2}, []int64{2, 3, 4, 5})
	parts, err = Split(seq64(0, 5), SplitOptions{NumOutputs: 2})
	if err != nil {
		t.Fatal(err)
	}
	wantInt64s(t, parts[0], []int{3}, []int64{0, 1, 2})
	wantInt64s(t, parts[1], []int{2}, []int64{3, 4})
	_, err = Split(seq64(0, 5), SplitOptions{})
	wantRule(t, err, "num_outputs", "")
	_, err = Split(seq64(0, 5), SplitOptions{NumOutputs: -1})
	wantRule(t, err, "num_outputs", "")
	// A count of parts the size limit cannot hold is refused before any
	// allocation.
	_, err = Split(seq64(0, 0), SplitOptions{NumOutputs: math.MaxInt / 4})
	wantRule(t, err, "size", "")
	_, err = split(&Options{MaxTensorBytes: 8}, opRef{"Split", 18}, seq64(0, 4), splitParams{split: []int{1, 3}})
	wantRule(t, err, "size", "")
}

// Split then Concat along the same axis gives back the input, for random
// shapes, types, axes and sizes; the input is never modified.
func TestSplitThenConcatIsIdentity(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for iter := 0; iter < 300; iter++ {
		dt := movementTypes[rng.IntN(len(movementTypes))]
		shape := make([]int, 1+rng.IntN(4))
		for k := range shape {
			shape[k] = rng.IntN(5)
		}
		x := randomOf(rng, dt, shape)
		before := x.Clone()
		axis := rng.IntN(len(shape))
		d := shape[axis]
		var o SplitOptions
		if rng.IntN(2) == 0 {
			o.NumOutputs = 1 + rng.IntN(d+1)
			if c := (d + o.NumOutputs - 1) / o.NumOutputs; d-c*(o.NumOutputs-1) < 0 {
				o.NumOutputs = 1
			}
		} else {
			left := d
			for left > 0 || len(o.Split) == 0 {
				s := rng.IntN(left + 1)
				o.Split = append(o.Split, s)
				left -= s
			}
		}
		o.Axis = axis - len(shape)*rng.IntN(2) // sometimes negative
		parts, err := Split(x, o)
		if err != nil {
			t.Fatalf("%v %v %+v: %v", dt, shape, o, err)
		}
		y, err := Concat(parts, ConcatOptions{Axis: axis})
		if err != nil {
			t.Fatal(err)
		}
		if !y.Equal(x) {
			t.Fatalf("%v %v %+v: Concat(Split(x)) differs from x", dt, shape, o)
		}
		if !x.Equal(before) {
			t.Fatalf("Split modified its input")
		}
		for _, p := range parts {
			if p.Len() > 0 && p.SharesStorage(x) {
				t.Fatalf("a part shares the input's storage")
			}
		}
	}
}

// The registered versions are exactly those of the ONNX changelog.
func TestSplitVersions(t *testing.T) {
	var got []int
	for _, s := range Schemas() {
		if s.Name == "Split" {
			got = append(got, s.Since)
		}
	}
	if want := []int{1, 2, 11, 13, 18}; !slices.Equal(got, want) {
		t.Errorf("Split versions %v, want %v", got, want)
	}
}
