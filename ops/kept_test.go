package ops

import (
	"bytes"
	"testing"

	"github.com/onnxshape/onnxshape/tensor"
)

// The nodes that keep state between runs (Node.kept) must give, run after
// run, what a new node gives.

// A Resize or Upsample node keeps the plans of its last run (Node.kept):
// runs on other shapes, scales, sizes, profiles and limits must give what a
// new node gives, bit for bit, or the same error.
func TestResizeNodeKeepsPlans(t *testing.T) {
	input := func(dt tensor.DataType, shape ...int) *tensor.Tensor {
		x := tensor.MustNew(dt, shape...)
		for i := range x.Len() {
			v := float64((i*7919)%23) - 11
			switch dt {
			case tensor.Double:
				d, _ := tensor.Data[float64](x)
				d[i] = v
			case tensor.Int32:
				d, _ := tensor.Data[int32](x)
				d[i] = int32(v)
			default:
				d, _ := tensor.Data[float32](x)
				d[i] = float32(v)
			}
		}
		return x
	}
	scales := func(v ...float32) *tensor.Tensor { x, _ := tensor.FromSlice(v, len(v)); return x }
	sizes := func(v ...int64) *tensor.Tensor { x, _ := tensor.FromSlice(v, len(v)); return x }
	a := input(tensor.Float, 1, 2, 5, 6)
	s2 := scales(1, 1, 2, 2)
	runs := []keptRun{
		{nil, []tensor.Value{a, nil, s2}}, {nil, []tensor.Value{a, nil, s2}},
		{nil, []tensor.Value{a, nil, scales(1, 1, 3, 2)}}, {nil, []tensor.Value{a, nil, scales(1, 1, 0.5, 1.5)}},
		{nil, []tensor.Value{input(tensor.Float, 2, 1, 6, 5), nil, s2}}, {nil, []tensor.Value{input(tensor.Int32, 1, 2, 5, 6), nil, s2}},
		{nil, []tensor.Value{input(tensor.Double, 1, 2, 5, 6), nil, s2}},
		{nil, []tensor.Value{a, nil, nil, sizes(1, 2, 7, 13)}}, {nil, []tensor.Value{a, nil, nil, sizes(1, 2, 10, 12)}},
		{nil, []tensor.Value{a, nil, s2}}, {NewOptions(WithMaxTensorBytes(64)), []tensor.Value{a, nil, s2}},
		{NewOptions(WithProfile(ProfileSONNX)), []tensor.Value{a, nil, s2}}, {nil, []tensor.Value{a, nil, scales(1, 1, 2)}},
		{nil, []tensor.Value{a, nil, s2}},
	}
	for _, mode := range []string{"nearest", "linear", "cubic"} {
		attrs := map[string]Attribute{"mode": strAttribute(mode)}
		testNodeKeepsPlans(t, "Resize", 19, attrs, runs)
	}
	up := []keptRun{
		{nil, []tensor.Value{a, s2}}, {nil, []tensor.Value{a, s2}}, {nil, []tensor.Value{a, scales(1, 1, 3, 2)}},
		{nil, []tensor.Value{input(tensor.Float, 1, 3, 2, 2), s2}}, {nil, []tensor.Value{a, scales(1, 1, 1.5, 2)}},
		{NewOptions(WithMaxTensorBytes(64)), []tensor.Value{a, s2}}, {nil, []tensor.Value{a, s2}},
	}
	for _, mode := range []string{"nearest", "linear"} {
		testNodeKeepsPlans(t, "Upsample", 9, map[string]Attribute{"mode": strAttribute(mode)}, up)
	}
}

// keptRun is one run of a node that keeps state between runs: its
// options and inputs.
type keptRun struct {
	opt *Options
	in  []tensor.Value
}

func testNodeKeepsPlans(t *testing.T, name string, version int, attrs map[string]Attribute, runs []keptRun) {
	t.Helper()
	s, err := Lookup("", name, version)
	if err != nil {
		t.Fatal(err)
	}
	n := &Node{OpType: name, Version: s.Since, Attrs: attrs, NumOutputs: 1}
	ran := 0
	defer func() {
		if ran < 2 {
			t.Errorf("%s: %d runs succeeded; the test needs the node to run at least twice", name, ran)
		}
	}()
	for i, r := range runs {
		got, gotErr := s.Run(r.opt, n, r.in)
		fresh := &Node{OpType: name, Version: s.Since, Attrs: attrs, NumOutputs: 1}
		want, wantErr := s.Run(r.opt, fresh, r.in)
		if (gotErr == nil) != (wantErr == nil) || gotErr != nil && gotErr.Error() != wantErr.Error() {
			t.Fatalf("%s %v run %d: error %v, a new node's %v", name, attrs["mode"].String, i, gotErr, wantErr)
		}
		if gotErr != nil {
			continue
		}
		ran++
		g, w := got[0].(*tensor.Tensor), want[0].(*tensor.Tensor)
		if !tensor.SameShape(g.Shape(), w.Shape()) || g.DataType() != w.DataType() || !bytes.Equal(g.Bytes(), w.Bytes()) {
			t.Fatalf("%s %v run %d: %v %v, a new node's %v %v", name, attrs["mode"].String, i, g.DataType(), g.Shape(), w.DataType(), w.Shape())
		}
	}
}

// A TfIdfVectorizer node keeps the plan of its first run: later runs on X
// of other types, shapes and limits give what a new node gives.
func TestTfIdfVectorizerNodeKeepsPlan(t *testing.T) {
	i64 := func(shape []int, v ...int64) *tensor.Tensor { x, _ := tensor.FromSlice(v, shape...); return x }
	i32 := func(shape []int, v ...int32) *tensor.Tensor { x, _ := tensor.FromSlice(v, shape...); return x }
	a := i64([]int{12}, 1, 1, 3, 3, 3, 7, 8, 6, 7, 5, 6, 8)
	runs := []keptRun{
		{nil, []tensor.Value{a}}, {nil, []tensor.Value{a}}, {nil, []tensor.Value{i32([]int{2, 6}, 1, 1, 3, 3, 3, 7, 8, 6, 7, 5, 6, 8)}},
		{nil, []tensor.Value{i64([]int{1, 1, 2}, 5, 6)}}, {nil, []tensor.Value{tensor.MustNew(tensor.Float, 3)}},
		{NewOptions(WithMaxTensorBytes(16)), []tensor.Value{a}}, {nil, []tensor.Value{i64([]int{0})}}, {nil, []tensor.Value{a}},
	}
	for _, mode := range []string{"TF", "IDF", "TFIDF"} {
		attrs := map[string]Attribute{
			"mode": strAttribute(mode), "min_gram_length": intAttribute(1), "max_gram_length": intAttribute(2),
			"max_skip_count": intAttribute(2), "ngram_counts": ints(0, 4), "ngram_indexes": ints(0, 1, 2, 3, 4, 5, 6),
			"pool_int64s": ints(2, 3, 5, 4, 5, 6, 7, 8, 6, 7),
			"weights":     {Type: AttrFloats, Floats: []float32{1, 0.5, 2, 1, 3, 1, 0.25}},
		}
		testNodeKeepsPlans(t, "TfIdfVectorizer", 9, attrs, runs)
		delete(attrs, "weights")
		testNodeKeepsPlans(t, "TfIdfVectorizer", 9, attrs, runs)
	}
}

// A Pad node keeps the tables of its last run: runs on other types,
// shapes, pads, axes, fill values and limits give what a new node gives.
func TestPadNodeKeepsTables(t *testing.T) {
	i64 := func(v ...int64) *tensor.Tensor { x, _ := tensor.FromSlice(v, len(v)); return x }
	f32 := func(shape []int) *tensor.Tensor {
		x := tensor.MustNew(tensor.Float, shape...)
		d, _ := tensor.Data[float32](x)
		for i := range d {
			d[i] = float32(i%13) - 6
		}
		return x
	}
	a := f32([]int{1, 2, 5, 6})
	seven, _ := tensor.FromSlice([]float32{7}, 1)
	p := i64(0, 0, 1, 2, 0, 0, 2, 1)
	runs := []keptRun{
		{nil, []tensor.Value{a, p}}, {nil, []tensor.Value{a, p}}, {nil, []tensor.Value{a, p, seven}},
		{nil, []tensor.Value{a, i64(0, 0, 0, 0, 0, 0, 0, 0)}}, {nil, []tensor.Value{a, p}},
		{nil, []tensor.Value{a, i64(0, 1, 1, 1, 0, 1, 1, 1)}}, {nil, []tensor.Value{f32([]int{2, 1, 4, 3}), p}},
		{nil, []tensor.Value{tensor.MustNew(tensor.Int32, 1, 2, 5, 6), p}}, {nil, []tensor.Value{a, i64(1, 1, 1, 1), nil, i64(2, 3)}},
		{nil, []tensor.Value{a, i64(1, 1, 1, 1), nil, i64(1, 3)}}, {nil, []tensor.Value{a, i64(0, 0, -1, 1, 0, 0, 2, -2)}},
		{NewOptions(WithMaxTensorBytes(64)), []tensor.Value{a, p}}, {nil, []tensor.Value{a, i64(0, 0, 1)}}, {nil, []tensor.Value{a, p}},
	}
	for _, mode := range []string{"constant", "reflect", "edge", "wrap"} {
		testNodeKeepsPlans(t, "Pad", 21, map[string]Attribute{"mode": strAttribute(mode)}, runs)
	}
}

// A ConvInteger or QLinearConv node keeps the geometry of its last run:
// runs on other shapes of x and w give what a new node gives.
func TestIntegerConvNodeKeepsGeometry(t *testing.T) {
	u8 := func(shape ...int) *tensor.Tensor {
		x := tensor.MustNew(tensor.Uint8, shape...)
		for i, b := range x.Bytes() {
			x.Bytes()[i] = byte(i*37) ^ b ^ 0x5a
		}
		return x
	}
	x, w := u8(1, 4, 8, 8), u8(4, 4, 3, 3)
	f := func(v float32) *tensor.Tensor { t, _ := tensor.FromSlice([]float32{v}, 1); return t }
	z := u8(1)
	runs := []keptRun{
		{nil, []tensor.Value{x, w}}, {nil, []tensor.Value{x, w}}, {nil, []tensor.Value{u8(2, 4, 6, 7), w}},
		{nil, []tensor.Value{x, u8(3, 4, 2, 2)}}, {nil, []tensor.Value{x, u8(4, 2, 3, 3)}}, {nil, []tensor.Value{u8(1, 4, 2, 2), w}},
		{NewOptions(WithMaxTensorBytes(64)), []tensor.Value{x, w}}, {nil, []tensor.Value{x, w}},
	}
	attrs := map[string]Attribute{"pads": ints(1, 1, 1, 1)}
	testNodeKeepsPlans(t, "ConvInteger", 10, attrs, runs)
	q := make([]keptRun, len(runs))
	for i, r := range runs {
		q[i] = keptRun{r.opt, []tensor.Value{r.in[0], f(0.01), z, r.in[1], f(0.02), z, f(0.5), z}}
	}
	testNodeKeepsPlans(t, "QLinearConv", 10, attrs, q)
}

// A binary elementwise node keeps the walk of its last run: runs on other
// shapes, broadcast either way, scalars, types and a size limit give what
// a new node gives.
func TestBinaryNodeKeepsWalk(t *testing.T) {
	f32 := func(shape ...int) *tensor.Tensor {
		x := tensor.MustNew(tensor.Float, shape...)
		d, _ := tensor.Data[float32](x)
		for i := range d {
			d[i] = float32(i%11) - 5.5
		}
		return x
	}
	i32 := func(shape ...int) *tensor.Tensor {
		x := tensor.MustNew(tensor.Int32, shape...)
		d, _ := tensor.Data[int32](x)
		for i := range d {
			d[i] = int32(i%9) - 4
		}
		return x
	}
	a, b, row, col := f32(2, 3, 4), f32(2, 3, 4), f32(4), f32(2, 3, 1)
	runs := []keptRun{
		{nil, []tensor.Value{a, b}}, {nil, []tensor.Value{a, b}}, {nil, []tensor.Value{a, row}}, {nil, []tensor.Value{row, a}},
		{nil, []tensor.Value{a, col}}, {nil, []tensor.Value{col, row}}, {nil, []tensor.Value{a, f32()}}, {nil, []tensor.Value{f32(), a}},
		{nil, []tensor.Value{i32(2, 3, 4), i32(4)}}, {nil, []tensor.Value{a, f32(3, 4)}}, {nil, []tensor.Value{a, b}},
		{NewOptions(WithMaxTensorBytes(64)), []tensor.Value{a, b}}, {nil, []tensor.Value{a, f32(5)}}, {nil, []tensor.Value{f32(0, 4), row}},
		{nil, []tensor.Value{a, b}},
	}
	for _, op := range []string{"Add", "Sub", "Mul", "Div", "Less"} {
		testNodeKeepsPlans(t, op, 14, nil, runs)
	}
}

// An Einsum node keeps the plan of its last run: runs on inputs of other
// shapes (broadcast ellipses included), types, counts and limits give what
// a new node gives.
func TestEinsumNodeKeepsPlan(t *testing.T) {
	f32 := func(shape ...int) *tensor.Tensor {
		x := tensor.MustNew(tensor.Float, shape...)
		d, _ := tensor.Data[float32](x)
		for i := range d {
			d[i] = float32(i%11) - 5.5
		}
		return x
	}
	i64 := func(shape ...int) *tensor.Tensor {
		x := tensor.MustNew(tensor.Int64, shape...)
		d, _ := tensor.Data[int64](x)
		for i := range d {
			d[i] = int64(i%9) - 4
		}
		return x
	}
	a, b := f32(2, 3, 4), f32(2, 4, 5)
	runs := []keptRun{
		{nil, []tensor.Value{a, b}}, {nil, []tensor.Value{a, b}}, {nil, []tensor.Value{f32(1, 3, 4), b}},
		{nil, []tensor.Value{f32(2, 5, 4), f32(2, 4, 3)}}, {nil, []tensor.Value{i64(2, 3, 4), i64(2, 4, 5)}},
		{nil, []tensor.Value{f32(3, 3, 4), b}}, {nil, []tensor.Value{a}}, {NewOptions(WithMaxTensorBytes(64)), []tensor.Value{a, b}},
		{nil, []tensor.Value{f32(2, 0, 4), b}}, {nil, []tensor.Value{a, b}},
	}
	for _, eq := range []string{"...ij,...jk->...ik", "bij,bjk->bki", "bij,bjk", "...ij,...jk->"} {
		testNodeKeepsPlans(t, "Einsum", 12, map[string]Attribute{"equation": strAttribute(eq)}, runs)
	}
	diag := []keptRun{
		{nil, []tensor.Value{f32(3, 3)}}, {nil, []tensor.Value{f32(3, 3)}}, {nil, []tensor.Value{f32(4, 4)}},
		{nil, []tensor.Value{f32(3, 4)}}, {nil, []tensor.Value{f32(2, 2)}},
	}
	testNodeKeepsPlans(t, "Einsum", 12, map[string]Attribute{"equation": strAttribute("ii->i")}, diag)
}

// A unary node keeps its kernel for the type of its last run: runs on
// other types give what a new node gives, and Clip, whose kernel comes
// from its bounds, keeps none (other bounds, other results).
func TestUnaryNodeKeepsKernel(t *testing.T) {
	f32 := tensor.MustFromSlice([]float32{-3, -0.5, 0, 0.25, 2, 7}, 2, 3)
	f64 := tensor.MustFromSlice([]float64{-3, -0.5, 0, 0.25, 2, 7}, 6)
	half, err := Cast(f32, CastOptions{To: tensor.Float16})
	if err != nil {
		t.Fatal(err)
	}
	runs := []keptRun{
		{nil, []tensor.Value{f32}}, {nil, []tensor.Value{f32}}, {nil, []tensor.Value{f64}}, {nil, []tensor.Value{half}},
		{nil, []tensor.Value{f32}}, {NewOptions(WithMaxTensorBytes(8)), []tensor.Value{f64}}, {nil, []tensor.Value{f64}},
	}
	for _, c := range []struct {
		op      string
		version int
		attrs   map[string]Attribute
	}{
		{"LeakyRelu", 16, map[string]Attribute{"alpha": {Type: AttrFloat, Float: 0.3}}},
		{"Elu", 6, map[string]Attribute{"alpha": {Type: AttrFloat, Float: 0.7}}},
		{"HardSigmoid", 6, nil},
		{"Gelu", 20, map[string]Attribute{"approximate": strAttribute("tanh")}},
		{"Relu", 14, nil},
	} {
		testNodeKeepsPlans(t, c.op, c.version, c.attrs, runs)
	}
	lo := func(v float32) *tensor.Tensor { return tensor.MustFromSlice([]float32{v}) }
	clip := []keptRun{
		{nil, []tensor.Value{f32, lo(-1), lo(1)}}, {nil, []tensor.Value{f32, lo(0), lo(5)}},
		{nil, []tensor.Value{f32, lo(-1), lo(1)}}, {nil, []tensor.Value{f32}},
	}
	testNodeKeepsPlans(t, "Clip", 13, nil, clip)
}

// A Col2Im node keeps the geometry of its last run: runs on other input
// shapes, image_shape and block_shape values, types and limits give what a
// new node gives.
func TestCol2ImNodeKeepsGeometry(t *testing.T) {
	f32 := func(shape ...int) *tensor.Tensor {
		x := tensor.MustNew(tensor.Float, shape...)
		d, _ := tensor.Data[float32](x)
		for i := range d {
			d[i] = float32(i%13) - 6
		}
		return x
	}
	i64 := func(v ...int64) *tensor.Tensor { return tensor.MustFromSlice(v, len(v)) }
	x := f32(1, 9, 9)
	runs := []keptRun{
		{nil, []tensor.Value{x, i64(5, 5), i64(3, 3)}}, {nil, []tensor.Value{x, i64(5, 5), i64(3, 3)}},
		{nil, []tensor.Value{f32(2, 9, 9), i64(5, 5), i64(3, 3)}}, {nil, []tensor.Value{f32(1, 4, 16), i64(5, 5), i64(2, 2)}},
		{nil, []tensor.Value{f32(1, 4, 16), i64(4, 7), i64(1, 4)}}, {nil, []tensor.Value{x, i64(4, 6), i64(3, 3)}},
		{nil, []tensor.Value{tensor.MustNew(tensor.Int32, 1, 9, 9), i64(5, 5), i64(3, 3)}}, {nil, []tensor.Value{x, tensor.MustFromSlice([]int64{5, 5, 1}, 3), i64(3, 3, 1)}},
		{NewOptions(WithMaxTensorBytes(64)), []tensor.Value{x, i64(5, 5), i64(3, 3)}}, {nil, []tensor.Value{x, i64(5, 5), i64(3, 3)}},
	}
	testNodeKeepsPlans(t, "Col2Im", 18, nil, runs)
	padded := []keptRun{
		{nil, []tensor.Value{f32(1, 9, 25), i64(5, 5), i64(3, 3)}}, {nil, []tensor.Value{f32(1, 9, 25), i64(5, 5), i64(3, 3)}},
		{nil, []tensor.Value{f32(1, 9, 20), i64(4, 5), i64(3, 3)}}, {nil, []tensor.Value{x, i64(5, 5), i64(3, 3)}},
		{nil, []tensor.Value{f32(1, 9, 25), i64(5, 5), i64(3, 3)}},
	}
	testNodeKeepsPlans(t, "Col2Im", 18, map[string]Attribute{"pads": ints(1, 1, 1, 1)}, padded)
}
