package reference_test

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// Random nodes of the ai.onnx.ml operators of classic-model exporters
// (Scaler, Normalizer, Imputer, CategoryMapper, OneHotEncoder,
// FeatureVectorizer, LinearRegressor, LinearClassifier), for
// TestEnginesAgreeOnRandomValidNodes. The linear operators' inputs and
// coefficients are multiples of 1/4 of small magnitude: every product and
// sum is then exact in float64, whatever order the fast engine's matrix
// product adds in, and the engines agree bit for bit (labels included).

var mlNumeric = []tensor.DataType{tensor.Float, tensor.Double, tensor.Int64, tensor.Int32}

// quarters is a tensor of multiples of 1/4 in [-3, 3] (integers in [-6,
// 6] for the integer types), a NaN now and then when nan.
func quarters(r *rand.Rand, dt tensor.DataType, shape []int, nan bool) *tensor.Tensor {
	x := tensor.MustNew(dt, shape...)
	for i := range x.Len() {
		v := float64(r.IntN(25)-12) / 4
		if nan && r.IntN(15) == 0 {
			v = math.NaN()
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
			d[i] = int64(r.IntN(13) - 6)
		case tensor.Int32:
			d, _ := tensor.Data[int32](x)
			d[i] = int32(r.IntN(13) - 6)
		}
	}
	return x
}

func quarterFloats(r *rand.Rand, n int) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = float32(r.IntN(25)-12) / 4
	}
	return v
}

func mlRowsShape(r *rand.Rand) []int {
	if r.IntN(4) == 0 {
		return []int{1 + r.IntN(5)}
	}
	return []int{r.IntN(5), 1 + r.IntN(5)}
}

var mlTransforms = []string{"NONE", "SOFTMAX", "LOGISTIC", "SOFTMAX_ZERO", "PROBIT"}

func init() {
	generators["Scaler"] = func(r *rand.Rand) (*ops.Node, []tensor.Value) {
		x := quarters(r, mlNumeric[r.IntN(4)], randShape(r, 1+r.IntN(3), 4), true)
		c := x.Shape()[x.Rank()-1]
		k := 1
		if r.IntN(2) == 0 {
			k = c
		}
		n := &ops.Node{OpType: "Scaler", Domain: mlDomain, Version: 1, Attrs: map[string]ops.Attribute{
			"offset": attrFloats(quarterFloats(r, k)...), "scale": attrFloats(quarterFloats(r, k)...)}}
		if r.IntN(20) == 0 {
			n.Attrs["scale"] = attrFloats(quarterFloats(r, k+1)...) // [length]
		}
		return n, []tensor.Value{x}
	}
	generators["Normalizer"] = func(r *rand.Rand) (*ops.Node, []tensor.Value) {
		x := randTensor(r, mlNumeric[r.IntN(4)], mlRowsShape(r), -5, 5, true)
		n := &ops.Node{OpType: "Normalizer", Domain: mlDomain, Version: 1, Attrs: map[string]ops.Attribute{}}
		if k := r.IntN(4); k < 3 {
			n.Attrs["norm"] = attrStr([]string{"MAX", "L1", "L2"}[k])
		}
		return n, []tensor.Value{x}
	}
	generators["Imputer"] = func(r *rand.Rand) (*ops.Node, []tensor.Value) {
		dt := mlNumeric[r.IntN(4)]
		x := quarters(r, dt, randShape(r, 1+r.IntN(3), 4), true)
		c := x.Shape()[x.Rank()-1]
		k := 1
		if r.IntN(2) == 0 && c > 0 {
			k = c
		}
		n := &ops.Node{OpType: "Imputer", Domain: mlDomain, Version: 1, Attrs: map[string]ops.Attribute{}}
		if dt.IsFloat() {
			n.Attrs["imputed_value_floats"] = attrFloats(quarterFloats(r, k)...)
			switch r.IntN(3) {
			case 0:
				n.Attrs["replaced_value_float"] = attrFloat(float32(math.NaN()))
			case 1:
				n.Attrs["replaced_value_float"] = attrFloat(float32(r.IntN(5)-2) / 4)
			}
		} else {
			v := make([]int, k)
			for i := range v {
				v[i] = r.IntN(100)
			}
			n.Attrs["imputed_value_int64s"] = attrInts(v...)
			if r.IntN(2) == 0 {
				n.Attrs["replaced_value_int64"] = attrInt(r.IntN(5) - 2)
			}
		}
		return n, []tensor.Value{x}
	}
	generators["CategoryMapper"] = func(r *rand.Rand) (*ops.Node, []tensor.Value) {
		count := r.IntN(6)
		ints, strs := make([]int, count), make([]string, count)
		for i := range ints {
			ints[i], strs[i] = r.IntN(8), fmt.Sprint("c", r.IntN(8))
		}
		n := &ops.Node{OpType: "CategoryMapper", Domain: mlDomain, Version: 1, Attrs: map[string]ops.Attribute{
			"cats_int64s": attrInts(ints...), "cats_strings": attrStrs(strs...)}}
		if r.IntN(2) == 0 {
			n.Attrs["default_int64"] = attrInt(-9)
			n.Attrs["default_string"] = attrStr("none")
		}
		shape := randShape(r, r.IntN(3), 4)
		if r.IntN(2) == 0 {
			x := tensor.MustNew(tensor.String, shape...)
			for i := range x.Strings() {
				x.Strings()[i] = fmt.Sprint("c", r.IntN(10))
			}
			return n, []tensor.Value{x}
		}
		return n, []tensor.Value{randTensor(r, tensor.Int64, shape, 0, 10, false)}
	}
	generators["OneHotEncoder"] = func(r *rand.Rand) (*ops.Node, []tensor.Value) {
		dt := []tensor.DataType{tensor.String, tensor.Int64, tensor.Int32, tensor.Float, tensor.Double}[r.IntN(5)]
		count := 1 + r.IntN(5)
		n := &ops.Node{OpType: "OneHotEncoder", Domain: mlDomain, Version: 1, Attrs: map[string]ops.Attribute{}}
		shape := randShape(r, r.IntN(3), 3)
		var x *tensor.Tensor
		if dt == tensor.String {
			strs := make([]string, count)
			for i := range strs {
				strs[i] = fmt.Sprint(r.IntN(6))
			}
			n.Attrs["cats_strings"] = attrStrs(strs...)
			x = tensor.MustNew(tensor.String, shape...)
			for i := range x.Strings() {
				x.Strings()[i] = fmt.Sprint(r.IntN(7))
			}
		} else {
			ints := make([]int, count)
			for i := range ints {
				ints[i] = r.IntN(6) - 1
			}
			n.Attrs["cats_int64s"] = attrInts(ints...)
			x = randTensor(r, dt, shape, -2, 6, true)
		}
		if r.IntN(3) == 0 {
			n.Attrs["zeros"] = attrInt(0) // [zeros] when an element has no category
		}
		return n, []tensor.Value{x}
	}
	generators["FeatureVectorizer"] = func(r *rand.Rand) (*ops.Node, []tensor.Value) {
		dt := mlNumeric[r.IntN(4)]
		rows := 1 + r.IntN(3)
		count := 1 + r.IntN(3)
		var in []tensor.Value
		dims := make([]int, count)
		for i := range dims {
			c := r.IntN(4)
			shape := []int{rows, c}
			if rows == 1 && r.IntN(3) == 0 {
				shape = []int{c}
			}
			in = append(in, randTensor(r, dt, shape, -5, 5, false))
			dims[i] = c + r.IntN(3) - 1
			if dims[i] < 0 {
				dims[i] = 0
			}
		}
		n := &ops.Node{OpType: "FeatureVectorizer", Domain: mlDomain, Version: 1, Attrs: map[string]ops.Attribute{
			"inputdimensions": attrInts(dims...)}}
		return n, in
	}
	generators["LinearRegressor"] = func(r *rand.Rand) (*ops.Node, []tensor.Value) {
		x := quarters(r, mlNumeric[r.IntN(4)], mlRowsShape(r), false)
		c := x.Shape()[x.Rank()-1]
		targets := 1 + r.IntN(3)
		n := &ops.Node{OpType: "LinearRegressor", Domain: mlDomain, Version: 1, Attrs: map[string]ops.Attribute{
			"coefficients": attrFloats(quarterFloats(r, targets*c)...)}}
		if targets > 1 || r.IntN(2) == 0 {
			n.Attrs["targets"] = attrInt(targets)
		}
		if r.IntN(2) == 0 {
			n.Attrs["intercepts"] = attrFloats(quarterFloats(r, targets)...)
		}
		if k := r.IntN(6); k < 5 {
			n.Attrs["post_transform"] = attrStr(mlTransforms[k])
		}
		return n, []tensor.Value{x}
	}
	generators["LinearClassifier"] = func(r *rand.Rand) (*ops.Node, []tensor.Value) {
		x := quarters(r, mlNumeric[r.IntN(4)], mlRowsShape(r), false)
		c := x.Shape()[x.Rank()-1]
		e := 2 + r.IntN(3)
		k := e
		if e == 2 && r.IntN(2) == 0 {
			k = 1 // the binary form
		}
		n := &ops.Node{OpType: "LinearClassifier", Domain: mlDomain, Version: 1, Attrs: map[string]ops.Attribute{
			"coefficients": attrFloats(quarterFloats(r, k*c)...)}}
		if r.IntN(2) == 0 {
			labels := make([]int, e)
			for i := range labels {
				labels[i] = 10 * i
			}
			n.Attrs["classlabels_ints"] = attrInts(labels...)
		} else {
			labels := make([]string, e)
			for i := range labels {
				labels[i] = fmt.Sprint("class", i)
			}
			n.Attrs["classlabels_strings"] = attrStrs(labels...)
		}
		if r.IntN(2) == 0 {
			n.Attrs["intercepts"] = attrFloats(quarterFloats(r, k)...)
		}
		if k := r.IntN(6); k < 5 {
			n.Attrs["post_transform"] = attrStr(mlTransforms[k])
		}
		if r.IntN(3) == 0 {
			n.Attrs["multi_class"] = attrInt(r.IntN(2))
		}
		return n, []tensor.Value{x}
	}
}
