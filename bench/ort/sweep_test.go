//go:build ort

package main

import (
	"context"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/infer"
	"github.com/onnxshape/onnxshape/onnx"
	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// The registry sweep: for every operator of the default domain that
// ops.Schemas lists, random one-node models (shapes of rank 0-5 with size-0
// and size-1 dimensions and broadcasting, attributes drawn over their valid
// ranges, the element types the operator's class admits) run in
// onnxshape's fast engine, its reference engine and onnxruntime, and are
// compared: fast against reference bit for bit (within the stated bound
// for the products, Resize and the normalizations), onnxshape against
// onnxruntime within the operator class's tolerance, and the shapes
// package infer announces against the shapes the run gives.
//
// An operator of the registry without a generator must be listed in
// sweepNotGenerated with the reason, so an operator added to the registry
// fails the sweep until it is drawn or excused.
//
//	go test -tags ort -run TestORTSweep -short          # a few hundred cases (CI)
//	go test -tags ort -run TestORTSweep -sweep-full     # every operator x type, sweepFullPer cases each
//	go test -tags ort -run TestORTSweep -sweep-seed 7 -sweep-op 'Resize|Pad'
var (
	sweepFull  = flag.Bool("sweep-full", false, "registry sweep: every operator and type, many cases each")
	sweepSeed  = flag.Uint64("sweep-seed", 1, "registry sweep: the seed of the draw")
	sweepOp    = flag.String("sweep-op", "", "registry sweep: only the operators whose name matches this regular expression (anchored)")
	sweepTrace = flag.Bool("sweep-trace", false, "registry sweep: print each case before running it")
	sweepPer   = flag.Int("sweep-per", 0, "registry sweep: cases per operator and type (0: 1 with -short, 3 without, 12 with -sweep-full)")
)

// sweepCase is one node and its inputs; a nil input is an optional one
// left out.
type sweepCase struct {
	op     string
	opset  int
	inputs []*tensor.Tensor
	attrs  []*pb.AttributeProto
	nOut   int
	// tolerance against onnxruntime (see diffCase), and whether fast and
	// reference need only agree within it (products, Resize, normalizations).
	abs, rel     float64
	intAbs       float64 // integer outputs within this many steps of onnxruntime's
	boundedByRef bool
	// known names a divergence of docs/divergences.md or a bug that explains
	// a disagreement with onnxruntime in this case.
	known string
	// skipORT, when set, names why the case is not given to onnxruntime
	// (it would kill the process: docs/divergences.md); the engines and
	// infer are still compared.
	skipORT string
}

// sweepGen draws a case of op for element type dt.
type sweepGen func(r *rand.Rand, op string, dt tensor.DataType) *sweepCase

type sweepClass struct {
	types []tensor.DataType
	gen   sweepGen
}

var (
	tFloats  = []tensor.DataType{tensor.Float, tensor.Double, tensor.Float16, tensor.BFloat16}
	tInts    = []tensor.DataType{tensor.Int8, tensor.Int16, tensor.Int32, tensor.Int64, tensor.Uint8, tensor.Uint16, tensor.Uint32, tensor.Uint64}
	tUints   = []tensor.DataType{tensor.Uint8, tensor.Uint16, tensor.Uint32, tensor.Uint64}
	tNumeric = append(slices.Clone(tFloats), tInts...)
	tAll     = append(slices.Clone(tNumeric), tensor.Bool)
	tBool    = []tensor.DataType{tensor.Bool}
)

// sweepNotGenerated lists the operators of the registry the sweep does not
// draw, and why. Operators covered by their own differential families
// (ops_test.go, conv_test.go, norm_test.go, attention_test.go, rnn_test.go,
// controlflow_test.go, mlclassic_test.go...) are named by that file.
var sweepNotGenerated = map[string]string{
	"Bernoulli": "random", "Multinomial": "random", "RandomNormal": "random", "RandomNormalLike": "random",
	"RandomUniform": "random", "RandomUniformLike": "random", "Dropout": "random in training mode; Identity otherwise",
	"If": "controlflow_test.go", "Loop": "controlflow_test.go", "Scan": "controlflow_test.go",
}

func sweepClasses() map[string]sweepClass {
	m := map[string]sweepClass{}
	set := func(cl sweepClass, names ...string) {
		for _, n := range names {
			m[n] = cl
		}
	}
	// Unary elementwise.
	set(sweepClass{tFloats, genUnary}, "Acos", "Acosh", "Asin", "Asinh", "Atan", "Atanh", "Cos", "Cosh", "Sin", "Sinh", "Tan",
		"Erf", "Exp", "Log", "Sigmoid", "Tanh", "Softplus", "Softsign", "Elu", "Selu", "Celu", "HardSigmoid", "HardSwish",
		"Mish", "ThresholdedRelu", "Gelu", "Reciprocal", "Sqrt", "Ceil", "Floor", "Round", "IsNaN", "IsInf", "LeakyRelu")
	set(sweepClass{tNumeric, genUnary}, "Abs", "Neg", "Sign", "Relu", "Shrink")
	set(sweepClass{tInts, genUnary}, "BitwiseNot")
	set(sweepClass{tBool, genUnary}, "Not")
	// Binary and variadic with broadcasting.
	set(sweepClass{tNumeric, genBinary}, "Add", "Sub", "Mul", "Div", "Mod", "Max", "Min", "Equal", "Less", "Greater", "LessOrEqual", "GreaterOrEqual")
	set(sweepClass{tFloats, genBinary}, "Pow", "Sum", "Mean", "PRelu")
	set(sweepClass{tBool, genBinary}, "And", "Or", "Xor")
	set(sweepClass{tUints, genBinary}, "BitShift")
	set(sweepClass{tInts, genBinary}, "BitwiseAnd", "BitwiseOr", "BitwiseXor")
	set(sweepClass{tAll, genWhere}, "Where")
	set(sweepClass{tFloats, genClip}, "Clip")
	// Reductions and along-an-axis.
	set(sweepClass{[]tensor.DataType{tensor.Float, tensor.Double, tensor.Float16, tensor.Int32, tensor.Int64, tensor.Uint8, tensor.Int8}, genReduce},
		"ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL1", "ReduceL2", "ReduceLogSum", "ReduceLogSumExp", "ReduceSumSquare")
	set(sweepClass{[]tensor.DataType{tensor.Float, tensor.Double, tensor.Float16, tensor.Int32, tensor.Int64, tensor.Uint8, tensor.Int8}, genArg}, "ArgMax", "ArgMin")
	set(sweepClass{tFloats, genAxisOp}, "Softmax", "LogSoftmax", "Hardmax", "LpNormalization")
	set(sweepClass{[]tensor.DataType{tensor.Float, tensor.Double, tensor.Int32, tensor.Int64, tensor.Uint32, tensor.Uint64, tensor.Float16}, genCumSum}, "CumSum")
	// Movement.
	set(sweepClass{tAll, genMovement}, "Transpose", "Concat", "Split", "Squeeze", "Unsqueeze", "Flatten", "Reshape", "Expand",
		"Tile", "Pad", "Slice", "Gather", "GatherElements", "GatherND", "DepthToSpace", "SpaceToDepth", "Identity", "Shape", "Size", "Trilu")
	// Windows and products.
	set(sweepClass{[]tensor.DataType{tensor.Float, tensor.Double, tensor.Float16}, genConv}, "Conv", "ConvTranspose")
	set(sweepClass{[]tensor.DataType{tensor.Float, tensor.Double, tensor.Float16, tensor.Int8, tensor.Uint8}, genPool}, "MaxPool", "AveragePool", "LpPool", "GlobalAveragePool", "GlobalMaxPool", "GlobalLpPool")
	set(sweepClass{[]tensor.DataType{tensor.Float, tensor.Double, tensor.Float16, tensor.BFloat16, tensor.Int32, tensor.Int64, tensor.Uint32, tensor.Uint64}, genProduct}, "MatMul", "Gemm")
	set(sweepClass{[]tensor.DataType{tensor.Float, tensor.Double, tensor.Float16, tensor.Int32, tensor.Int64}, genEinsum}, "Einsum")
	set(sweepClass{[]tensor.DataType{tensor.Float, tensor.Double, tensor.Float16, tensor.Int8, tensor.Uint8, tensor.Int32}, genResize}, "Resize")
	set(sweepClass{tAll, genCast}, "Cast")
	moreSweepClasses(set)
	return m
}

// Attributes.

func aInt(name string, v int) *pb.AttributeProto {
	return &pb.AttributeProto{Name: proto.String(name), Type: pb.AttributeProto_INT.Enum(), I: proto.Int64(int64(v))}
}

func aInts(name string, v ...int) *pb.AttributeProto {
	a := &pb.AttributeProto{Name: proto.String(name), Type: pb.AttributeProto_INTS.Enum()}
	for _, x := range v {
		a.Ints = append(a.Ints, int64(x))
	}
	return a
}

func aFloat(name string, v float32) *pb.AttributeProto {
	return &pb.AttributeProto{Name: proto.String(name), Type: pb.AttributeProto_FLOAT.Enum(), F: proto.Float32(v)}
}

func aStr(name, v string) *pb.AttributeProto {
	return &pb.AttributeProto{Name: proto.String(name), Type: pb.AttributeProto_STRING.Enum(), S: []byte(v)}
}

func attrText(as []*pb.AttributeProto) string {
	var parts []string
	for _, a := range as {
		switch a.GetType() {
		case pb.AttributeProto_INT:
			parts = append(parts, fmt.Sprintf("%s=%d", a.GetName(), a.GetI()))
		case pb.AttributeProto_INTS:
			parts = append(parts, fmt.Sprintf("%s=%v", a.GetName(), a.GetInts()))
		case pb.AttributeProto_FLOAT:
			parts = append(parts, fmt.Sprintf("%s=%g", a.GetName(), a.GetF()))
		case pb.AttributeProto_STRING:
			parts = append(parts, fmt.Sprintf("%s=%s", a.GetName(), a.GetS()))
		}
	}
	return strings.Join(parts, " ")
}

// Inputs.

func i64s(v ...int) *tensor.Tensor {
	out := make([]int64, len(v))
	for i, x := range v {
		out[i] = int64(x)
	}
	return tensor.MustFromSlice(out, len(v))
}

func i64Scalar(v int) *tensor.Tensor { return tensor.Scalar(int64(v)) }

// sweepShape draws a shape of rank lo..hi: dimensions 1..4, a 1 or a 0 now
// and then.
func sweepShape(r *rand.Rand, lo, hi int, zeros bool) []int {
	s := randShape(r, lo+r.IntN(hi-lo+1), 1, 4)
	for i := range s {
		switch r.IntN(10) {
		case 0:
			s[i] = 1
		case 1:
			if zeros {
				s[i] = 0
			}
		}
	}
	return s
}

// specials puts NaN, infinities, signed zeros and tiny and huge numbers at
// random places of a float tensor, one case in three.
func specials(r *rand.Rand, t *tensor.Tensor) *tensor.Tensor {
	if !t.DataType().IsFloat() || t.Len() == 0 || r.IntN(3) != 0 {
		return t
	}
	v, err := t.Float64s()
	if err != nil {
		return t
	}
	for range 1 + r.IntN(3) {
		v[r.IntN(len(v))] = pick(r, math.NaN(), math.Inf(1), math.Inf(-1), math.Copysign(0, -1), 0, 1e-30, -3e38, 65504, 0.5, -0.5, 2.5)
	}
	return fromFloat64s(t.DataType(), v, t.Shape())
}

func fromFloat64s(dt tensor.DataType, v []float64, shape []int) *tensor.Tensor {
	switch dt {
	case tensor.Double:
		return tensor.MustFromSlice(v, shape...)
	case tensor.Float:
		f := make([]float32, len(v))
		for i, x := range v {
			f[i] = float32(x)
		}
		return tensor.MustFromSlice(f, shape...)
	case tensor.Float16, tensor.BFloat16:
		f := make([]float32, len(v))
		for i, x := range v {
			f[i] = float32(x)
		}
		return fromHalfSpecials(dt, f, shape)
	}
	panic(dt)
}

// fromHalfSpecials is fromFloat32s for values that may be NaN, infinite
// or out of float16's range (fromFloat32s handles normal numbers only).
func fromHalfSpecials(dt tensor.DataType, v []float32, shape []int) *tensor.Tensor {
	t := fromFloat32s(dt, v, shape)
	if dt != tensor.Float16 {
		return t
	}
	b := t.Bytes()
	for i, x := range v {
		var h uint16
		switch {
		case math.IsNaN(float64(x)):
			h = 0x7e00
		case math.IsInf(float64(x), 0), math.Abs(float64(x)) > 65520:
			h = 0x7c00
			if x < 0 {
				h |= 0x8000
			}
		case x == 0 && math.Signbit(float64(x)):
			h = 0x8000
		default:
			continue
		}
		b[2*i], b[2*i+1] = byte(h), byte(h>>8)
	}
	out, err := tensor.FromBytes(dt, b, shape...)
	if err != nil {
		panic(err)
	}
	return out
}

func tolFor(c *sweepCase, dt tensor.DataType, abs, rel float64) *sweepCase {
	c.abs, c.rel = abs, rel
	switch dt {
	case tensor.Float16:
		c.abs, c.rel = max(c.abs, 1e-3), max(c.rel, 2e-3)
	case tensor.BFloat16:
		c.abs, c.rel = max(c.abs, 8e-3), max(c.rel, 1.6e-2)
	}
	return c
}

// Generators.

func genUnary(r *rand.Rand, op string, dt tensor.DataType) *sweepCase {
	x := specials(r, randTensor(r, dt, sweepShape(r, 0, 5, true)))
	c := &sweepCase{op: op, opset: 22, inputs: []*tensor.Tensor{x}, nOut: 1}
	f := func() float32 { return float32(math.Round((r.Float64()*4-1)*8) / 8) }
	switch op {
	case "Elu", "Celu", "ThresholdedRelu":
		c.attrs = append(c.attrs, aFloat("alpha", f()))
		if op == "Celu" && c.attrs[0].GetF() == 0 {
			c.attrs[0].F = proto.Float32(1)
		}
	case "LeakyRelu":
		c.attrs = append(c.attrs, aFloat("alpha", f()))
	case "Selu":
		c.attrs = append(c.attrs, aFloat("alpha", f()), aFloat("gamma", f()))
	case "HardSigmoid":
		c.attrs = append(c.attrs, aFloat("alpha", f()), aFloat("beta", f()))
	case "Shrink":
		c.attrs = append(c.attrs, aFloat("bias", f()), aFloat("lambd", float32(r.IntN(3))))
	case "Gelu":
		c.attrs = append(c.attrs, aStr("approximate", pick(r, "none", "tanh")))
	case "IsInf":
		c.attrs = append(c.attrs, aInt("detect_negative", r.IntN(2)), aInt("detect_positive", r.IntN(2)))
	case "Relu", "Abs", "Neg", "Sign":
		if !dt.IsFloat() {
			c.opset = 14
		}
	case "BitwiseNot":
		c.opset = 18
	}
	if op == "Celu" || op == "Gelu" || op == "Mish" || op == "Softplus" || op == "Softsign" {
		c.opset = max(c.opset, 22)
	}
	if op == "Gelu" {
		c.opset = 20
	}
	switch op {
	case "Abs", "Neg", "Sign", "Relu", "Ceil", "Floor", "Round", "IsNaN", "IsInf", "Not", "BitwiseNot", "LeakyRelu", "Shrink", "ThresholdedRelu":
		return tolFor(c, dt, 0, 0)
	}
	return tolFor(c, dt, 1e-6, 1e-5)
}

func genBinary(r *rand.Rand, op string, dt tensor.DataType) *sweepCase {
	k := 2
	if op == "Sum" || op == "Mean" || op == "Max" || op == "Min" {
		k = 1 + r.IntN(3)
	}
	shapes := broadcastShapes(r, k)
	if op == "PRelu" { // the slope broadcasts to X one way (unidirectional)
		shapes[1] = slices.Clone(shapes[0])
		for i := range shapes[1] {
			if r.IntN(2) == 0 {
				shapes[1][i] = 1
			}
		}
		shapes[1] = shapes[1][r.IntN(len(shapes[1])+1):]
	}
	c := &sweepCase{op: op, opset: 22, nOut: 1}
	for j, s := range shapes {
		x := randTensor(r, dt, s)
		if dt.IsFloat() && op != "Pow" {
			x = specials(r, x)
		}
		if j == 1 && (op == "Div" || op == "Mod") && !dt.IsFloat() {
			// integer division by zero is undefined (onnxruntime traps)
			v, _ := x.Float64s()
			ints := make([]int64, len(v))
			for i := range v {
				if ints[i] = int64(v[i]); ints[i] == 0 {
					ints[i] = 3
				}
			}
			x = intTensor(dt, ints, s)
		}
		if j == 1 && op == "BitShift" {
			v, _ := x.Float64s()
			ints := make([]int64, len(v))
			for i := range v {
				ints[i] = int64(v[i]) % int64(8*dt.Size())
			}
			x = intTensor(dt, ints, s)
		}
		c.inputs = append(c.inputs, x)
	}
	switch op {
	case "Mod":
		fmod := 0
		if dt.IsFloat() || r.IntN(2) == 0 {
			fmod = 1
		}
		c.attrs = append(c.attrs, aInt("fmod", fmod))
		c.opset = 13
	case "BitShift":
		c.attrs = append(c.attrs, aStr("direction", pick(r, "LEFT", "RIGHT")))
		c.opset = 11
	case "BitwiseAnd", "BitwiseOr", "BitwiseXor":
		c.opset = 18
	case "PRelu", "Pow", "Sum", "Mean", "Max", "Min", "Equal", "Less", "Greater", "LessOrEqual", "GreaterOrEqual":
		c.opset = 19
	default:
		c.opset = 14
	}
	switch op {
	case "Mean", "Pow", "Div":
		return tolFor(c, dt, 1e-6, 1e-6)
	case "Sum":
		return tolFor(c, dt, 1e-6, 1e-6)
	}
	return tolFor(c, dt, 0, 0)
}

func genWhere(r *rand.Rand, op string, dt tensor.DataType) *sweepCase {
	s := broadcastShapes(r, 3)
	return &sweepCase{op: op, opset: 16, nOut: 1, inputs: []*tensor.Tensor{randTensor(r, tensor.Bool, s[0]), randTensor(r, dt, s[1]), randTensor(r, dt, s[2])}}
}

func genClip(r *rand.Rand, op string, dt tensor.DataType) *sweepCase {
	x := specials(r, randTensor(r, dt, sweepShape(r, 1, 5, true)))
	c := &sweepCase{op: op, opset: 13, nOut: 1, inputs: []*tensor.Tensor{x, nil, nil}}
	if r.IntN(3) > 0 {
		c.inputs[1] = specials(r, randTensor(r, dt, nil))
	}
	if r.IntN(3) > 0 {
		c.inputs[2] = randTensor(r, dt, nil)
	}
	for len(c.inputs) > 1 && c.inputs[len(c.inputs)-1] == nil {
		c.inputs = c.inputs[:len(c.inputs)-1]
	}
	return c
}

// randAxes draws k distinct axes of a rank-n tensor, each negative half the time.
func randAxes(r *rand.Rand, n, k int) []int {
	perm := r.Perm(n)[:k]
	for i := range perm {
		if r.IntN(2) == 0 {
			perm[i] -= n
		}
	}
	return perm
}

func genReduce(r *rand.Rand, op string, dt tensor.DataType) *sweepCase {
	shape := sweepShape(r, 0, 5, true)
	x := randTensor(r, dt, shape)
	c := &sweepCase{op: op, opset: 18, nOut: 1, inputs: []*tensor.Tensor{x}}
	c.attrs = append(c.attrs, aInt("keepdims", r.IntN(2)))
	switch r.IntN(4) {
	case 0: // no axes: all of them, or none with noop_with_empty_axes
		c.attrs = append(c.attrs, aInt("noop_with_empty_axes", r.IntN(2)))
	case 1: // an empty axes input
		c.inputs = append(c.inputs, tensor.MustFromSlice([]int64{}, 0))
		c.attrs = append(c.attrs, aInt("noop_with_empty_axes", r.IntN(2)))
	default:
		if len(shape) > 0 {
			c.inputs = append(c.inputs, i64s(randAxes(r, len(shape), 1+r.IntN(len(shape)))...))
		}
	}
	// onnxruntime refuses an empty reduction of Max/Min; the others have an
	// identity (0, 1, -inf for LogSumExp...).
	switch op {
	case "ReduceMax", "ReduceMin":
		return tolFor(c, dt, 0, 0)
	case "ReduceProd":
		return tolFor(c, dt, 1e-5, 1e-5)
	}
	return tolFor(c, dt, 1e-5, 1e-5)
}

func genArg(r *rand.Rand, op string, dt tensor.DataType) *sweepCase {
	shape := sweepShape(r, 1, 5, false)
	c := &sweepCase{op: op, opset: 13, nOut: 1, inputs: []*tensor.Tensor{randTensor(r, dt, shape)}}
	c.attrs = append(c.attrs, aInt("axis", randAxes(r, len(shape), 1)[0]), aInt("keepdims", r.IntN(2)), aInt("select_last_index", r.IntN(2)))
	return c
}

func genAxisOp(r *rand.Rand, op string, dt tensor.DataType) *sweepCase {
	shape := sweepShape(r, 1, 5, true)
	c := &sweepCase{op: op, opset: 13, nOut: 1, inputs: []*tensor.Tensor{specials(r, randTensor(r, dt, shape))}}
	c.attrs = append(c.attrs, aInt("axis", randAxes(r, len(shape), 1)[0]))
	if op == "LpNormalization" {
		c.opset = 22
		c.attrs = append(c.attrs, aInt("p", 1+r.IntN(2)))
	}
	return tolFor(c, dt, 1e-6, 1e-5)
}

func genCumSum(r *rand.Rand, op string, dt tensor.DataType) *sweepCase {
	shape := sweepShape(r, 1, 5, true)
	c := &sweepCase{op: op, opset: 14, nOut: 1, inputs: []*tensor.Tensor{randTensor(r, dt, shape), i64Scalar(randAxes(r, len(shape), 1)[0])}}
	c.attrs = append(c.attrs, aInt("exclusive", r.IntN(2)), aInt("reverse", r.IntN(2)))
	return tolFor(c, dt, 1e-5, 1e-5)
}

func genMovement(r *rand.Rand, op string, dt tensor.DataType) *sweepCase {
	shape := sweepShape(r, 1, 5, true)
	n := len(shape)
	x := randTensor(r, dt, shape)
	c := &sweepCase{op: op, opset: 21, nOut: 1, inputs: []*tensor.Tensor{x}}
	switch op {
	case "Transpose":
		if r.IntN(4) > 0 {
			c.attrs = append(c.attrs, aInts("perm", r.Perm(n)...))
		}
	case "Concat":
		axis := r.IntN(n)
		for range r.IntN(3) {
			s := slices.Clone(shape)
			s[axis] = r.IntN(4)
			c.inputs = append(c.inputs, randTensor(r, dt, s))
		}
		if r.IntN(2) == 0 {
			axis -= n
		}
		c.attrs = append(c.attrs, aInt("axis", axis))
	case "Split":
		axis := r.IntN(n)
		if r.IntN(2) == 0 {
			k := 1 + r.IntN(3)
			c.nOut = k
			c.attrs = append(c.attrs, aInt("num_outputs", k))
		} else {
			var parts []int
			left := shape[axis]
			for left > 0 && len(parts) < 3 {
				p := r.IntN(left + 1)
				parts = append(parts, p)
				left -= p
			}
			parts = append(parts, left)
			c.nOut = len(parts)
			c.inputs = append(c.inputs, i64s(parts...))
		}
		c.opset = 18
		if r.IntN(2) == 0 {
			axis -= n
		}
		c.attrs = append(c.attrs, aInt("axis", axis))
	case "Squeeze":
		var ones []int
		for i, d := range shape {
			if d == 1 && r.IntN(3) > 0 {
				ones = append(ones, i-n*r.IntN(2))
			}
		}
		if len(ones) > 0 || r.IntN(2) == 0 {
			c.inputs = append(c.inputs, i64s(ones...))
		}
	case "Unsqueeze":
		k := 1 + r.IntN(2)
		c.inputs = append(c.inputs, i64s(randAxes(r, n+k, k)...))
	case "Flatten":
		c.attrs = append(c.attrs, aInt("axis", r.IntN(2*n+1)-n))
	case "Reshape":
		target := slices.Clone(shape)
		r.Shuffle(len(target), func(i, j int) { target[i], target[j] = target[j], target[i] })
		allowzero := r.IntN(2)
		for i := range target {
			switch {
			case r.IntN(4) == 0 && i < n && target[i] == shape[i] && allowzero == 0:
				target[i] = 0
			}
		}
		if r.IntN(3) == 0 {
			hasZero := slices.Contains(shape, 0)
			if !hasZero || allowzero == 0 {
				target[r.IntN(len(target))] = -1
			}
		}
		c.inputs = append(c.inputs, i64s(target...))
		c.attrs = append(c.attrs, aInt("allowzero", allowzero))
	case "Expand":
		target := slices.Clone(shape)
		for i := range target {
			if shape[i] == 1 {
				target[i] = r.IntN(4)
			} else if r.IntN(3) == 0 {
				target[i] = 1
			}
		}
		target = append(randShape(r, r.IntN(2), 1, 3), target...)
		c.inputs = append(c.inputs, i64s(target...))
	case "Tile":
		reps := randShape(r, n, 0, 3)
		c.inputs = append(c.inputs, i64s(reps...))
	case "Pad":
		mode := pick(r, "constant", "reflect", "edge", "wrap")
		pads := make([]int, 2*n)
		for i := range pads {
			pads[i] = r.IntN(5) - 1
		}
		c.inputs = append(c.inputs, i64s(pads...))
		if mode == "constant" && r.IntN(2) == 0 {
			c.inputs = append(c.inputs, randTensor(r, dt, nil))
		}
		c.attrs = append(c.attrs, aStr("mode", mode))
	case "Slice":
		var starts, ends, axes, steps []int
		for _, a := range r.Perm(n)[:1+r.IntN(n)] {
			d := shape[a]
			starts = append(starts, r.IntN(2*d+5)-d-2)
			ends = append(ends, pick(r, r.IntN(2*d+5)-d-2, math.MaxInt64, math.MinInt64+1))
			axes = append(axes, a-n*r.IntN(2))
			steps = append(steps, pick(r, 1, 1, 2, -1, -2, 3))
		}
		c.inputs = append(c.inputs, i64s(starts...), i64s(ends...), i64s(axes...), i64s(steps...))
	case "Gather", "GatherElements":
		axis := r.IntN(n)
		d := shape[axis]
		var ishape []int
		if op == "Gather" {
			ishape = sweepShape(r, 0, 3, true)
		} else {
			ishape = slices.Clone(shape)
			ishape[axis] = r.IntN(4)
		}
		if d == 0 {
			ishape = append(ishape[:0:0], 0)
			if op == "GatherElements" {
				ishape = slices.Clone(shape)
			}
		}
		cnt, _ := tensor.NumElements(ishape)
		idx := make([]int64, cnt)
		for i := range idx {
			idx[i] = int64(r.IntN(2*max(d, 1)) - d)
		}
		c.inputs = append(c.inputs, tensor.MustFromSlice(idx, ishape...))
		c.attrs = append(c.attrs, aInt("axis", axis-n*r.IntN(2)))
	case "GatherND":
		batch := r.IntN(n)
		k := 1 + r.IntN(n-batch)
		ishape := append(slices.Clone(shape[:batch]), append(randShape(r, r.IntN(2), 0, 3), k)...)
		cnt, _ := tensor.NumElements(ishape)
		idx := make([]int64, cnt)
		for i := range idx {
			d := shape[batch+i%k]
			idx[i] = int64(r.IntN(2*max(d, 1)) - d)
		}
		c.inputs = append(c.inputs, tensor.MustFromSlice(idx, ishape...))
		c.attrs = append(c.attrs, aInt("batch_dims", batch))
	case "DepthToSpace", "SpaceToDepth":
		b := 1 + r.IntN(3)
		s := []int{r.IntN(3), 1 + r.IntN(3), 1 + r.IntN(3), 1 + r.IntN(3)}
		if op == "DepthToSpace" {
			s[1] *= b * b
			c.attrs = append(c.attrs, aStr("mode", pick(r, "DCR", "CRD")))
		} else {
			s[2] *= b
			s[3] *= b
		}
		c.inputs[0] = randTensor(r, dt, s)
		c.attrs = append(c.attrs, aInt("blocksize", b))
		c.opset = 13
	case "Shape":
		if r.IntN(2) == 0 {
			c.attrs = append(c.attrs, aInt("start", r.IntN(2*n+3)-n-1))
		}
		if r.IntN(2) == 0 {
			c.attrs = append(c.attrs, aInt("end", r.IntN(2*n+3)-n-1))
		}
	case "Trilu":
		if n < 2 {
			c.inputs[0] = randTensor(r, dt, append(shape, 3))
		}
		c.attrs = append(c.attrs, aInt("upper", r.IntN(2)))
		if r.IntN(2) == 0 {
			c.inputs = append(c.inputs, i64Scalar(r.IntN(7)-3))
		}
	}
	return c
}

// windowAttrs draws kernel, strides, dilations, pads and auto_pad for a
// window over spatial; pads stay below the kernel (a window of padding
// only is a divergence of its own).
func windowAttrs(r *rand.Rand, spatial []int, dilate bool) (attrs []*pb.AttributeProto, kernel []int) {
	k := len(spatial)
	kernel, strides, dil, pads := make([]int, k), make([]int, k), make([]int, k), make([]int, 2*k)
	for a := range k {
		kernel[a], strides[a], dil[a] = 1+r.IntN(3), 1+r.IntN(3), 1
		if dilate && r.IntN(3) == 0 {
			dil[a] = 2
		}
		if kernel[a] > 1 && r.IntN(2) == 0 {
			pads[a], pads[a+k] = r.IntN(kernel[a]), r.IntN(kernel[a])
		}
		if (kernel[a]-1)*dil[a]+1 > spatial[a]+pads[a]+pads[a+k] {
			kernel[a], dil[a], pads[a], pads[a+k] = 1, 1, 0, 0
		}
	}
	attrs = append(attrs, aInts("kernel_shape", kernel...), aInts("strides", strides...))
	if dilate {
		attrs = append(attrs, aInts("dilations", dil...))
	}
	switch r.IntN(6) {
	case 0:
		attrs = append(attrs, aStr("auto_pad", "VALID"))
	case 1:
		attrs = append(attrs, aStr("auto_pad", pick(r, "SAME_UPPER", "SAME_LOWER")))
	default:
		attrs = append(attrs, aInts("pads", pads...))
	}
	return attrs, kernel
}

func genPool(r *rand.Rand, op string, dt tensor.DataType) *sweepCase {
	spatial := randShape(r, 1+r.IntN(3), 1, 6)
	x := randTensor(r, dt, append([]int{r.IntN(3), 1 + r.IntN(3)}, spatial...))
	c := &sweepCase{op: op, opset: 22, nOut: 1, inputs: []*tensor.Tensor{x}}
	if strings.HasPrefix(op, "Global") {
		if op == "GlobalLpPool" {
			c.attrs = append(c.attrs, aInt("p", 1+r.IntN(3)))
		}
		return tolFor(c, dt, 1e-5, 1e-5)
	}
	a, _ := windowAttrs(r, spatial, op != "LpPool")
	c.attrs = a
	switch op {
	case "MaxPool":
		c.attrs = append(c.attrs, aInt("ceil_mode", r.IntN(2)))
		if dt.IsFloat() && r.IntN(2) == 0 {
			c.nOut = 2
			c.attrs = append(c.attrs, aInt("storage_order", r.IntN(2)))
		}
	case "AveragePool":
		c.attrs = append(c.attrs, aInt("ceil_mode", r.IntN(2)), aInt("count_include_pad", r.IntN(2)))
	case "LpPool":
		c.attrs = append(c.attrs, aInt("p", 1+r.IntN(3)), aInt("ceil_mode", r.IntN(2)))
	}
	return tolFor(c, dt, 1e-5, 1e-5)
}

func genConv(r *rand.Rand, op string, dt tensor.DataType) *sweepCase {
	k := 1 + r.IntN(3)
	spatial := randShape(r, k, 1, 6)
	group := pick(r, 1, 1, 2, 3)
	cin, cout := group*(1+r.IntN(2)), group*(1+r.IntN(2))
	x := randTensor(r, dt, append([]int{r.IntN(3), cin}, spatial...))
	c := &sweepCase{op: op, opset: 22, nOut: 1, boundedByRef: true}
	a, kernel := windowAttrs(r, spatial, true)
	var w *tensor.Tensor
	if op == "Conv" {
		w = randTensor(r, dt, append([]int{cout, cin / group}, kernel...))
	} else {
		w = randTensor(r, dt, append([]int{cin, cout / group}, kernel...))
		if r.IntN(3) == 0 {
			op := make([]int, k)
			for i := range op {
				op[i] = r.IntN(2)
			}
			a = append(a, aInts("output_padding", op...))
		}
	}
	c.inputs = []*tensor.Tensor{x, w}
	if r.IntN(2) == 0 {
		c.inputs = append(c.inputs, randTensor(r, dt, []int{cout}))
	}
	c.attrs = append(a, aInt("group", group))
	return tolFor(c, dt, 1e-4, 1e-4)
}

func genProduct(r *rand.Rand, op string, dt tensor.DataType) *sweepCase {
	c := &sweepCase{op: op, opset: 13, nOut: 1, boundedByRef: true}
	m, k, n := r.IntN(5), r.IntN(6), r.IntN(5)
	if op == "MatMul" {
		batch := broadcastShapes(r, 2)
		a := append(slices.Clone(batch[0]), m, k)
		b := append(slices.Clone(batch[1]), k, n)
		if r.IntN(5) == 0 {
			a = []int{k}
		}
		if r.IntN(5) == 0 {
			b = []int{k}
		}
		c.inputs = []*tensor.Tensor{randTensor(r, dt, a), randTensor(r, dt, b)}
		return tolFor(c, dt, 1e-4, 1e-5)
	}
	ta, tb := r.IntN(2), r.IntN(2)
	as, bs := []int{m, k}, []int{k, n}
	if ta == 1 {
		as = []int{k, m}
	}
	if tb == 1 {
		bs = []int{n, k}
	}
	c.inputs = []*tensor.Tensor{randTensor(r, dt, as), randTensor(r, dt, bs)}
	if r.IntN(3) > 0 {
		cs := pick(r, []int{m, n}, []int{1, n}, []int{n}, []int{m, 1}, []int{1}, []int{})
		c.inputs = append(c.inputs, randTensor(r, dt, cs))
	}
	c.attrs = append(c.attrs, aInt("transA", ta), aInt("transB", tb))
	if dt.IsFloat() {
		c.attrs = append(c.attrs, aFloat("alpha", pick[float32](r, 1, 0.5, -2, 0)), aFloat("beta", pick[float32](r, 1, 0.25, 0, -1)))
	}
	return tolFor(c, dt, 1e-4, 1e-5)
}

// genEinsum draws an equation over up to three operands of labels a-f,
// explicit or implicit, with repeated labels (diagonals), sums and an
// ellipsis now and then.
func genEinsum(r *rand.Rand, op string, dt tensor.DataType) *sweepCase {
	labels := "abcdef"
	size := map[byte]int{}
	for i := range labels {
		size[labels[i]] = r.IntN(4)
		if r.IntN(3) > 0 {
			size[labels[i]]++
		}
	}
	ell := r.IntN(4) == 0
	ellShape := randShape(r, r.IntN(3), 1, 3)
	nops := 1 + r.IntN(3)
	var terms []string
	var inputs []*tensor.Tensor
	used := map[byte]bool{}
	for range nops {
		var term []byte
		for range r.IntN(4) {
			l := labels[r.IntN(len(labels))]
			term = append(term, l)
			used[l] = true
		}
		var shape []int
		t := string(term)
		for _, l := range term {
			shape = append(shape, size[l])
		}
		if ell && r.IntN(2) == 0 {
			t = "..." + t
			shape = append(slices.Clone(ellShape), shape...)
		}
		terms = append(terms, t)
		inputs = append(inputs, randTensor(r, dt, shape))
	}
	eq := strings.Join(terms, ",")
	if r.IntN(3) > 0 {
		var out []byte
		for i := range labels {
			if used[labels[i]] && r.IntN(2) == 0 {
				out = append(out, labels[i])
			}
		}
		r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
		o := string(out)
		if strings.Contains(eq, "...") {
			o = "..." + o
		}
		eq += "->" + o
	}
	c := &sweepCase{op: op, opset: 12, nOut: 1, inputs: inputs, attrs: []*pb.AttributeProto{aStr("equation", eq)}, boundedByRef: true}
	return tolFor(c, dt, 1e-4, 1e-5)
}

func genResize(r *rand.Rand, op string, dt tensor.DataType) *sweepCase {
	n := 1 + r.IntN(4)
	shape := randShape(r, n, 1, 5)
	x := randTensor(r, dt, shape)
	mode := pick(r, "nearest", "linear", "cubic")
	ctm := pick(r, "half_pixel", "half_pixel_symmetric", "pytorch_half_pixel", "align_corners", "asymmetric", "tf_crop_and_resize")
	c := &sweepCase{op: op, opset: 19, nOut: 1, boundedByRef: true}
	c.attrs = append(c.attrs, aStr("mode", mode), aStr("coordinate_transformation_mode", ctm))
	// linear and cubic interpolate over at most the last 2 axes in
	// onnxruntime (and over any in the spec): resize only those, or use axes.
	var axes []int
	for a := range n {
		if mode == "nearest" || a >= n-2 {
			axes = append(axes, a)
		}
	}
	if r.IntN(3) == 0 {
		c.attrs = append(c.attrs, aInts("axes", axes...))
	}
	var roi, scales, sizes *tensor.Tensor
	if ctm == "tf_crop_and_resize" {
		rv := make([]float32, 2*len(axes))
		for i := range axes {
			lo, hi := float32(r.IntN(5))/10, 1-float32(r.IntN(5))/10
			if r.IntN(5) == 0 {
				lo, hi = -0.2, 1.2
			}
			rv[i], rv[i+len(axes)] = lo, hi
		}
		if len(c.attrs) == 2 { // no axes attribute: roi covers every axis
			full := make([]float32, 2*n)
			for a := range n {
				full[a], full[a+n] = 0, 1
			}
			for i, a := range axes {
				full[a], full[a+n] = rv[i], rv[i+len(axes)]
			}
			rv = full
		}
		roi = tensor.MustFromSlice(rv, len(rv))
		c.attrs = append(c.attrs, aFloat("extrapolation_value", pick[float32](r, 0, -1, 7)))
	}
	count := len(axes)
	if len(c.attrs) == 2 || (ctm == "tf_crop_and_resize" && len(c.attrs) == 3) {
		count = n
	}
	if r.IntN(2) == 0 {
		sv := make([]float32, count)
		for i := range sv {
			sv[i] = 1
			if count == n && !slices.Contains(axes, i) {
				continue
			}
			sv[i] = pick[float32](r, 0.5, 0.6, 1, 1.5, 2, 3, 0.25, 1.7)
		}
		scales = tensor.MustFromSlice(sv, count)
	} else {
		zv := make([]int64, count)
		for i := range zv {
			a := i
			if count != n {
				a = axes[i]
			}
			zv[i] = int64(shape[a])
			if count == n && !slices.Contains(axes, i) {
				continue
			}
			zv[i] = int64(1 + r.IntN(8))
		}
		sizes = tensor.MustFromSlice(zv, count)
		if r.IntN(3) == 0 {
			c.attrs = append(c.attrs, aStr("keep_aspect_ratio_policy", pick(r, "not_larger", "not_smaller")))
		}
	}
	switch mode {
	case "nearest":
		c.attrs = append(c.attrs, aStr("nearest_mode", pick(r, "round_prefer_floor", "round_prefer_ceil", "floor", "ceil")))
	case "cubic":
		c.attrs = append(c.attrs, aFloat("cubic_coeff_a", pick[float32](r, -0.75, -0.5)), aInt("exclude_outside", r.IntN(2)))
	}
	if mode != "nearest" && r.IntN(4) == 0 {
		c.attrs = append(c.attrs, aInt("antialias", 1))
	}
	c.inputs = []*tensor.Tensor{x, roi, scales, sizes}
	for c.inputs[len(c.inputs)-1] == nil {
		c.inputs = c.inputs[:len(c.inputs)-1]
	}
	if mode == "nearest" {
		return tolFor(c, dt, 0, 0)
	}
	if !dt.IsFloat() {
		c.abs = 1 // integer outputs round an interpolation that may differ in its last bit
		return c
	}
	return tolFor(c, dt, 1e-4, 1e-4)
}

func genCast(r *rand.Rand, op string, dt tensor.DataType) *sweepCase {
	to := pick(r, tAll...)
	x := randTensor(r, dt, sweepShape(r, 0, 4, true))
	if dt.IsFloat() && to.IsFloat() {
		x = specials(r, x)
	}
	return &sweepCase{op: op, opset: 21, nOut: 1, inputs: []*tensor.Tensor{x}, attrs: []*pb.AttributeProto{aInt("to", int(to))}}
}

// The harness.

// model encodes c as a one-node model. outs, when set, declares the
// outputs' types and ranks (from onnxshape's run) and widens rank-0 ones
// to [1] (the Go binding refuses rank-0 values); without it the outputs
// are declared without a type.
func (c *sweepCase) model(outs []*tensor.Tensor) ([]byte, []string, error) {
	g := &pb.GraphProto{Name: proto.String("sweep")}
	nd := &pb.NodeProto{OpType: proto.String(c.op), Attribute: c.attrs}
	for i, t := range c.inputs {
		name := fmt.Sprintf("x%d", i)
		switch {
		case t == nil:
			name = ""
		case !harnessFeeds(t):
			tp, err := onnx.TensorToProto(t, name)
			if err != nil {
				return nil, nil, err
			}
			g.Initializer = append(g.Initializer, tp)
		default:
			g.Input = append(g.Input, onnx.TensorValueInfo(name, t.DataType(), t.Shape()))
		}
		nd.Input = append(nd.Input, name)
	}
	var names []string
	for i := range c.nOut {
		name := fmt.Sprintf("y%d", i)
		nd.Output = append(nd.Output, name)
		if outs == nil {
			g.Output = append(g.Output, &pb.ValueInfoProto{Name: proto.String(name)})
			names = append(names, name)
			continue
		}
		dt := outs[i].DataType()
		if wide, ok := widerOutputType(dt); ok {
			// the binding cannot read packed 4-bit values: a Cast, exact
			g.Node = append(g.Node, &pb.NodeProto{OpType: proto.String("Cast"), Input: []string{name}, Output: []string{name + "c"},
				Attribute: []*pb.AttributeProto{aInt("to", int(wide))}})
			name, dt = name+"c", wide
		}
		if outs[i].Rank() == 0 {
			shapeName := fmt.Sprintf("widen%d", i)
			tp, _ := onnx.TensorToProto(i64s(1), shapeName)
			g.Initializer = append(g.Initializer, tp)
			g.Node = append(g.Node, &pb.NodeProto{OpType: proto.String("Reshape"), Input: []string{name, shapeName}, Output: []string{name + "w"}})
			name += "w"
			g.Output = append(g.Output, onnx.TensorValueInfo(name, dt, []int{1}))
		} else {
			g.Output = append(g.Output, onnx.TensorValueInfo(name, dt, outs[i].Shape()))
		}
		names = append(names, name)
	}
	g.Node = append([]*pb.NodeProto{nd}, g.Node...)
	if outs != nil && len(g.Input) == 0 {
		g.Input = append(g.Input, onnx.TensorValueInfo("unused", tensor.Float, []int{1}))
	}
	m := &pb.ModelProto{
		IrVersion:   proto.Int64(9),
		OpsetImport: []*pb.OperatorSetIdProto{{Domain: proto.String(""), Version: proto.Int64(int64(c.opset))}},
		Graph:       g,
	}
	b, err := onnx.EncodeModel(m)
	return b, names, err
}

func (c *sweepCase) feeds() map[string]tensor.Value {
	in := map[string]tensor.Value{}
	for i, t := range c.inputs {
		if t != nil && harnessFeeds(t) {
			in[fmt.Sprintf("x%d", i)] = t
		}
	}
	return in
}

// harnessFeeds reports whether t is fed as an input; the others (rank 0,
// which the binding refuses, and the types it cannot hold) are stored in
// the model as initializers.
func harnessFeeds(t *tensor.Tensor) bool {
	_, ok := ortTypeOf(t.DataType())
	return ok && t.Rank() > 0
}

// widerOutputType is the type an output of dt is cast to (exactly) for
// the binding to read it, when it cannot read dt itself.
func widerOutputType(dt tensor.DataType) (tensor.DataType, bool) {
	switch dt {
	case tensor.Int4, tensor.Int2:
		return tensor.Int8, true
	case tensor.Uint4, tensor.Uint2:
		return tensor.Uint8, true
	case tensor.Float4E2M1, tensor.Float8E8M0:
		return tensor.Float, true
	}
	return dt, false
}

// widened is t cast as widerOutputType says (t itself if not).
func widened(t *tensor.Tensor) *tensor.Tensor {
	wide, ok := widerOutputType(t.DataType())
	if !ok {
		return t
	}
	v, err := t.Float64s()
	if err != nil {
		panic(err)
	}
	if wide == tensor.Float {
		return fromFloat64s(wide, v, t.Shape())
	}
	iv := make([]int64, len(v))
	for i, x := range v {
		iv[i] = int64(x)
	}
	return intTensor(wide, iv, t.Shape())
}

// runEngine runs the untyped model in onnxshape under engine e.
func (c *sweepCase) runEngine(model []byte, e graph.Engine) ([]*tensor.Tensor, error) {
	m, err := graph.LoadBytes(model, "")
	if err != nil {
		return nil, err
	}
	out, err := m.Run(context.Background(), c.feeds(), &graph.RunOptions{Engine: e, Threads: 1})
	if err != nil {
		return nil, err
	}
	res := make([]*tensor.Tensor, c.nOut)
	for i := range res {
		v, ok := out.Map()[fmt.Sprintf("y%d", i)]
		if !ok {
			return nil, fmt.Errorf("no output y%d", i)
		}
		if res[i], ok = v.(*tensor.Tensor); !ok {
			return nil, fmt.Errorf("output y%d is not a tensor", i)
		}
	}
	return res, nil
}

// inferCheck compares the shapes package infer announces with the run's.
func (c *sweepCase) inferCheck(model []byte, outs []*tensor.Tensor) string {
	res, err := infer.Bytes(context.Background(), model, "", nil)
	if err != nil {
		return "infer: " + err.Error()
	}
	for i, o := range outs {
		v, err := res.Value(fmt.Sprintf("y%d", i))
		if err != nil || v == nil {
			continue
		}
		if v.Type != tensor.Undefined && v.Type != o.DataType() {
			return fmt.Sprintf("infer: y%d type %v, run %v", i, v.Type, o.DataType())
		}
		if !v.Ranked {
			continue
		}
		if len(v.Shape) != o.Rank() {
			return fmt.Sprintf("infer: y%d rank %d, run %v", i, len(v.Shape), o.Shape())
		}
		for a, d := range v.Shape {
			if k, ok := d.Value(); ok && int(k) != o.Shape()[a] {
				return fmt.Sprintf("infer: y%d shape %v, run %v", i, v.Shape, o.Shape())
			}
		}
	}
	return ""
}

// sweepOutcome classifies one case.
type sweepOutcome int

const (
	swAgree sweepOutcome = iota
	swBothRefuse
	swNoKernel    // onnxruntime has no kernel for the operator and type
	swOffSpec     // onnxruntime's checker refuses the model, onnxshape runs it
	swHarness     // the binding cannot take the case (no input of rank > 0)
	swKnown       // disagreement explained by c.known
	swFail        // a bug
	swRefOnlyFail // fast and reference disagree
)

func (c *sweepCase) describe() string {
	var in []string
	for _, t := range c.inputs {
		if t == nil {
			in = append(in, "-")
			continue
		}
		if t.Len() <= 24 {
			v, _ := t.Float64s()
			in = append(in, fmt.Sprintf("%v%v%v", t.DataType(), t.Shape(), v))
		} else {
			in = append(in, fmt.Sprintf("%v%v", t.DataType(), t.Shape()))
		}
	}
	return fmt.Sprintf("%s-%d(%s) %s", c.op, c.opset, strings.Join(in, ", "), attrText(c.attrs))
}

func isORTSchemaRefusal(err error) bool {
	s := err.Error()
	for _, k := range []string{"Type Error", "type constraint", "not in allowed", "InvalidGraph", "INVALID_GRAPH", "Unrecognized attribute", "Invalid model", "ShapeInferenceError", "is not a registered function/op"} {
		if strings.Contains(s, k) {
			return true
		}
	}
	return false
}

// runSweepCase runs c everywhere and returns its outcome and a message.
func runSweepCase(c *sweepCase) (sweepOutcome, string) {
	out, msg, inferMsg := runSweepCaseAll(c)
	if inferMsg != "" {
		if msg == "" {
			msg = "agrees"
		}
		return swFail, inferMsg + " (against onnxruntime: " + msg + ")"
	}
	return out, msg
}

func runSweepCaseAll(c *sweepCase) (_ sweepOutcome, _, inferMsg string) {
	untyped, _, err := c.model(nil)
	if err != nil {
		return swHarness, err.Error(), inferMsg
	}
	fast, fastErr := c.runEngine(untyped, graph.EngineFast)
	inferMsg = "" // how package infer's shapes differ from the run's
	ref, refErr := c.runEngine(untyped, graph.EngineReference)
	// fast against reference
	cmpRef := &diffCase{}
	if c.boundedByRef {
		cmpRef.abs, cmpRef.rel = c.abs, c.rel
	}
	switch {
	case (fastErr == nil) != (refErr == nil):
		return swRefOnlyFail, fmt.Sprintf("fast engine: %v; reference engine: %v", fastErr, refErr), inferMsg
	case fastErr == nil:
		for i := range fast {
			msg := cmpRef.compareOutput(fast[i], ref[i])
			if msg != "" && c.boundedByRef && !fast[i].DataType().IsFloat() && withinOne(fast[i], ref[i]) {
				msg = "" // the bound of a float result rounded to an integer type
			}
			if msg != "" {
				return swRefOnlyFail, fmt.Sprintf("fast and reference engines differ: y%d: %s", i, msg), inferMsg
			}
		}
		inferMsg = c.inferCheck(untyped, fast)
	}
	if c.skipORT != "" {
		return swKnown, c.skipORT, inferMsg
	}
	var ortIn []diffInput
	for i, t := range c.inputs {
		if t != nil && harnessFeeds(t) {
			ortIn = append(ortIn, diffInput{fmt.Sprintf("x%d", i), t})
		}
	}
	if len(ortIn) == 0 {
		// the binding needs an input of rank > 0: an unused one
		ortIn = append(ortIn, diffInput{"unused", tensor.MustFromSlice([]float32{0}, 1)})
	}
	dc := &diffCase{inputs: ortIn, abs: c.abs, rel: c.rel, intAbs: c.intAbs}
	model, names := untyped, []string(nil)
	for i := range c.nOut {
		names = append(names, fmt.Sprintf("y%d", i))
	}
	if fastErr == nil {
		if model, names, err = c.model(fast); err != nil {
			return swHarness, err.Error(), inferMsg
		}
	}
	var likes []*tensor.Tensor // the outputs as the ORT model declares them
	for _, o := range fast {
		o = widened(o)
		if o.Rank() == 0 {
			o, _ = o.Reshape(1)
		}
		likes = append(likes, o)
	}
	theirs, ortErr := runORTModel(model, dc, names, likes)
	switch {
	case fastErr != nil && ortErr != nil:
		return swBothRefuse, "", inferMsg
	case fastErr == nil && ortErr != nil:
		s := ortErr.Error()
		if strings.Contains(s, "Could not find an implementation") || strings.Contains(s, "data type is not supported") ||
			strings.Contains(s, "Failed to find kernel") || strings.Contains(s, "NOT_IMPLEMENTED") ||
			strings.Contains(s, "only supports") || strings.Contains(s, "only support ") || strings.Contains(s, "not supported for") ||
			strings.Contains(s, "does not support double") {
			return swNoKernel, "", inferMsg
		}
		if k := knownDivergence(c, s); k != "" {
			return swKnown, k, inferMsg
		}
		if isORTSchemaRefusal(ortErr) {
			return swOffSpec, firstLine(ortErr), inferMsg
		}
		if c.known != "" {
			return swKnown, c.known, inferMsg
		}
		return swFail, "onnxruntime refuses what onnxshape runs: " + s, inferMsg
	case fastErr != nil:
		if k := knownDivergence(c, fastErr.Error()); k != "" {
			return swKnown, k, inferMsg
		}
		if c.known != "" {
			return swKnown, c.known, inferMsg
		}
		return swFail, "onnxshape refuses what onnxruntime runs: " + fastErr.Error(), inferMsg
	}
	var notes []string
	for i := range names {
		if msg := dc.compareOutput(likes[i], theirs[i]); msg != "" {
			notes = append(notes, names[i]+": "+msg)
		}
	}
	if len(notes) > 0 {
		if k := knownDivergence(c, strings.Join(notes, "; ")); k != "" {
			return swKnown, k, inferMsg
		}
		if c.known != "" {
			return swKnown, c.known, inferMsg
		}
		return swFail, strings.Join(notes, "; "), inferMsg
	}
	return swAgree, "", inferMsg
}

func TestORTSweep(t *testing.T) {
	classes := sweepClasses()
	re := mustAnchored(t, *sweepOp)
	per := *sweepPer
	if per == 0 {
		per = 3
		if testing.Short() {
			per = 1
		}
		if *sweepFull {
			per = 12
		}
	}
	// The operators of the registry, default domain.
	var names []string
	seen := map[string]bool{}
	for _, s := range ops.Schemas() {
		if s.Domain == "" && !seen[s.Name] {
			seen[s.Name] = true
			names = append(names, s.Name)
		}
	}
	sort.Strings(names)
	var missing []string
	for _, n := range names {
		if _, ok := classes[n]; !ok {
			if _, ok := sweepNotGenerated[n]; !ok {
				missing = append(missing, n)
			}
		}
	}
	counts := map[sweepOutcome]int{}
	offSpec := map[string]int{}
	known := map[string]int{}
	total, failures, generated := 0, 0, 0
	for _, op := range names {
		cl, ok := classes[op]
		if !ok || !re.MatchString(op) {
			continue
		}
		generated++
		r := rand.New(rand.NewPCG(*sweepSeed, uint64(len(op))*7919+uint64(op[0])))
		types := cl.types
		if testing.Short() && !*sweepFull && len(types) > 2 {
			// two types per operator, drawn: every type over seeds
			types = []tensor.DataType{types[0], types[1+r.IntN(len(types)-1)]}
		}
		for _, dt := range types {
			for i := range per {
				c := cl.gen(r, op, dt)
				if c == nil {
					continue // no case of this type (the generator says so)
				}
				var out sweepOutcome
				var msg string
				func() {
					defer func() {
						if p := recover(); p != nil {
							out, msg = swFail, fmt.Sprintf("panic: %v", p)
						}
					}()
					if *sweepTrace {
						fmt.Fprintln(os.Stderr, "sweep:", c.describe()) // a crash of onnxruntime names its case
					}
					out, msg = runSweepCase(c)
				}()
				total++
				counts[out]++
				switch out {
				case swOffSpec:
					if offSpec[op+" "+dt.String()]++; offSpec[op+" "+dt.String()] == 1 && testing.Verbose() {
						t.Logf("%s %v: onnxruntime's checker: %s", op, dt, msg)
					}
				case swKnown:
					known[msg]++
				case swFail, swRefOnlyFail:
					failures++
					if failures <= 40 {
						t.Errorf("%s %v #%d: %s\n\t%s", op, dt, i, msg, c.describe())
					}
				}
			}
		}
	}
	t.Logf("registry sweep (seed %d): %d operators of %d registered drawn, %d cases: %d agree, %d refused by both, %d with no onnxruntime kernel, %d off the spec's types (onnxruntime's checker refuses, onnxshape runs), %d the binding cannot take, %d known divergences, %d failures (%d fast against reference)",
		*sweepSeed, generated, len(names), total, counts[swAgree], counts[swBothRefuse], counts[swNoKernel], counts[swOffSpec], counts[swHarness], counts[swKnown], counts[swFail]+counts[swRefOnlyFail], counts[swRefOnlyFail])
	for k, v := range known {
		t.Logf("known: %d cases: %s", v, k)
	}
	if testing.Verbose() {
		for k, v := range offSpec {
			t.Logf("onnxshape accepts what onnxruntime's checker refuses: %s (%d)", k, v)
		}
	}
	t.Logf("not generated yet: %s", strings.Join(missing, " "))
	if *sweepOp == "" {
		notDrawn := len(names) - generated
		t.Logf("%d registered operators not drawn by the sweep (%d excused in sweepNotGenerated, the rest covered by their own families or not yet generated)", notDrawn, len(sweepNotGenerated))
	}
}

func mustAnchored(t *testing.T, expr string) *regexp.Regexp {
	re, err := regexp.Compile("^(?:" + expr + ")$")
	if expr == "" {
		re, err = regexp.Compile("")
	}
	if err != nil {
		t.Fatal(err)
	}
	return re
}

func (c *sweepCase) attr(name string) (*pb.AttributeProto, bool) {
	for _, a := range c.attrs {
		if a.GetName() == name {
			return a, true
		}
	}
	return nil, false
}

// knownDivergence names the row of docs/divergences.md that explains a
// disagreement of c with onnxruntime (msg says how they disagree), "" if
// none does.
func knownDivergence(c *sweepCase, msg string) string {
	str := func(name string) string {
		if a, ok := c.attr(name); ok {
			return string(a.GetS())
		}
		return ""
	}
	switch c.op {
	case "Squeeze":
		if len(c.inputs) > 1 && c.inputs[1].Len() == 0 {
			return "divergence: Squeeze with an empty axes input removes nothing (onnxruntime removes every 1)"
		}
	case "MaxPool", "AveragePool", "LpPool":
		if p := str("auto_pad"); p == "SAME_UPPER" || p == "SAME_LOWER" {
			return divergenceSamePadding
		}
		if a, ok := c.attr("ceil_mode"); ok && a.GetI() == 1 && c.inputs[0].DataType() == tensor.Float16 {
			return divergenceHalfAveragePoolCeil
		}
	case "Pad":
		if m := str("mode"); m == "wrap" || m == "reflect" {
			return "divergence: Pad wrap/reflect with pads of the axis length or more (onnxruntime refuses or is wrong)"
		}
	case "Resize":
		if !c.inputs[0].DataType().IsFloat() && str("mode") != "nearest" {
			return "divergence: Resize linear/cubic on integers rounds (onnxruntime truncates)"
		}
		if str("coordinate_transformation_mode") == "align_corners" && len(c.inputs) > 2 && c.inputs[2] != nil {
			return "divergence: Resize align_corners with scales uses the unrounded length"
		}
	case "DepthToSpace", "SpaceToDepth":
		if strings.Contains(msg, "onnxruntime refuses") || strings.Contains(msg, "kernel") {
			return "divergence: DepthToSpace/SpaceToDepth on every type"
		}
	case "ReduceMean":
		if strings.Contains(msg, "NaN") {
			return divergenceEmptyMean
		}
	case "ReduceLogSum", "ReduceLogSumExp":
		if !c.inputs[0].DataType().IsFloat() {
			return divergenceIntegerLogOfNonPositive
		}
	case "Shrink":
		if c.inputs[0].DataType() == tensor.Double {
			return "divergence: Shrink on double computes in double (onnxruntime in float32)"
		}
	case "Slice":
		if len(c.inputs) > 4 && c.inputs[4] != nil {
			ends, _ := c.inputs[2].Float64s()
			steps, _ := c.inputs[4].Float64s()
			for i := range ends {
				if steps[i] < 0 && ends[i] >= math.MaxInt64 {
					return divergenceSliceIntMaxBackward
				}
			}
		}
	case "LpNormalization":
		if v, _ := c.inputs[0].Float64s(); slices.ContainsFunc(v, func(x float64) bool { return math.Abs(x) > 1.8e19 }) {
			return divergenceLpNormOverflow
		}
	case "MatMul":
		if strings.Contains(msg, "cannot broadcast") {
			return "divergence: MatMul of an empty batch by a 1-D B (onnxruntime refuses to broadcast a 0)"
		}
	case "Split":
		if _, ok := c.attr("num_outputs"); ok && (strings.Contains(msg, "Invalid num_outputs") || strings.Contains(msg, "exceeds the remaining size")) {
			return divergenceSplitUneven
		}
	case "Clip":
		if v, _ := c.inputs[0].Float64s(); slices.ContainsFunc(v, func(x float64) bool { return math.IsInf(x, 0) }) {
			return divergenceClipInfinity
		}
	case "Hardmax":
		if v, _ := c.inputs[0].Float64s(); slices.ContainsFunc(v, math.IsNaN) {
			return "divergence: Hardmax picks the first NaN (numpy's argmax); onnxruntime never picks a NaN"
		}
	case "Sign":
		if v, _ := c.inputs[0].Float64s(); slices.ContainsFunc(v, math.IsNaN) {
			return "divergence: Sign of NaN is NaN (numpy); onnxruntime gives 0"
		}
	case "ConvTranspose":
		if strings.Contains(msg, "output_padding") || strings.Contains(msg, "invalid dimensions for output") {
			return divergenceConvTransposeOutputPadding
		}
	}
	switch {
	case c.op == "GatherND" && slices.Contains(c.inputs[0].Shape(), 0):
		return "divergence: GatherND with an index out of an empty axis: refused (the spec's error); onnxruntime does not read the indices of an empty output"
	case c.op == "Resize" && len(c.inputs) == 3 && strings.HasPrefix(msg, "y0:"):
		return "divergence: Resize coordinates near a rounding boundary, computed in float64 from the float32 scale (onnxruntime in float32)"
	case (c.op == "Gemm" || c.op == "MatMul") && strings.HasPrefix(msg, "y0:") && gemmEmptyK(c):
		return divergenceEmptyInnerProduct
	case c.op == "LogSoftmax" || c.op == "Softmax":
		if v, _ := c.inputs[0].Float64s(); slices.ContainsFunc(v, math.IsNaN) && c.inputs[0].DataType() == tensor.Double {
			return "divergence: double LogSoftmax of a slice holding NaN: NaN across the slice; onnxruntime's double kernel gives finite numbers to the other elements"
		}
		if v, _ := c.inputs[0].Float64s(); slices.ContainsFunc(v, func(x float64) bool { return math.IsInf(x, 1) }) {
			return "divergence: double LogSoftmax of a slice holding +inf: NaN across the slice (numpy's inf - inf in the reference); onnxruntime's double kernel gives -inf to the finite elements (its float kernel agrees with us)"
		}
	}
	if strings.Contains(msg, "zero effective input extent") {
		return divergencePadCroppedToNothing
	}
	if strings.Contains(msg, "Tensor type mismatch") {
		return divergenceORTTypeMismatch
	}
	if (c.op == "Shrink" || c.op == "Pow") && !c.inputs[0].DataType().IsFloat() {
		return "divergence: Pow, Shrink with a float result stored in an integer type: truncated and saturated (onnxruntime static_cast)"
	}
	if a, ok := c.attr("auto_pad"); ok && string(a.GetS()) == "VALID" && (strings.Contains(msg, "shape") || strings.Contains(msg, "invalid dimensions")) {
		return divergenceValidKernelLongerThanInput
	}
	if strings.HasPrefix(c.op, "Reduce") && len(c.inputs) > 1 && c.inputs[1] != nil && slices.Contains(c.inputs[0].Shape(), 0) {
		return divergenceEmptyNegativeAxes
	}
	if c.op == "ReduceProd" && !c.inputs[0].DataType().IsFloat() {
		return divergenceProdOverflow
	}
	return moreKnownDivergence(c, msg)
}

const (
	divergenceLpNormOverflow             = "divergence: LpNormalization of float32 elements whose square overflows: onnxshape computes in float64 (x/|x| = -1), onnxruntime and numpy's float32 overflow (-0)"
	divergenceSliceIntMaxBackward        = "divergence: Slice with end INT64_MAX and a negative step: the spec clamps end to dim-1 (numpy's slice); onnxruntime reads it as 'to the beginning'"
	divergenceSplitUneven                = "divergence: Split num_outputs that does not divide the axis into chunks of ceil(len/n): the spec's last chunks are smaller or empty; onnxruntime refuses"
	divergenceEmptyInnerProduct          = "divergence: MatMul and Gemm with an inner dimension of 0: the sum of nothing is 0 (Gemm: beta*C); onnxruntime leaves MatMul's output uninitialized and copies Gemm's C without beta"
	divergenceClipInfinity               = "divergence: Clip of an infinity with a bound left out: onnxshape keeps it (the reference evaluator's np.clip with None); onnxruntime clamps to the type's lowest/max"
	divergenceConvTransposeOutputPadding = "divergence: ConvTranspose output_padding not below the stride, or with auto_pad SAME: onnxruntime refuses or computes another output length"
	divergencePadCroppedToNothing        = "divergence: Pad edge/reflect/wrap where a negative pad crops an axis to nothing and the output is empty: onnxruntime refuses"
	divergenceORTTypeMismatch            = "divergence: onnxruntime's uint32 MatMul of empty tensors fails with an internal type mismatch (a bug of its kernel)"
	divergenceValidKernelLongerThanInput = "divergence: pooling with auto_pad VALID and a kernel longer than the input: no window (length 0); onnxruntime's integer division gives 1"
	divergenceIntegerLogOfNonPositive    = "divergence: integer ReduceLogSum/ReduceLogSumExp of a sum <= 0 (log NaN or -inf, undefined in the type): onnxshape 0, onnxruntime INT64_MIN"
)

// withinOne reports whether two integer tensors of one shape differ by at
// most 1 in every element.
func withinOne(a, b *tensor.Tensor) bool {
	x, err1 := a.Float64s()
	y, err2 := b.Float64s()
	if err1 != nil || err2 != nil || len(x) != len(y) {
		return false
	}
	for i := range x {
		if math.Abs(x[i]-y[i]) > 1 {
			return false
		}
	}
	return true
}

// pinRun runs c in onnxshape's fast engine and in onnxruntime.
func pinRun(c *sweepCase) (ours []*tensor.Tensor, oursErr error, theirs []*tensor.Tensor, ortErr error) {
	untyped, _, err := c.model(nil)
	if err != nil {
		return nil, err, nil, err
	}
	ours, oursErr = c.runEngine(untyped, graph.EngineFast)
	var in []diffInput
	for i, t := range c.inputs {
		if t != nil && t.Rank() > 0 {
			in = append(in, diffInput{fmt.Sprintf("x%d", i), t})
		}
	}
	model, names := untyped, []string(nil)
	for i := range c.nOut {
		names = append(names, fmt.Sprintf("y%d", i))
	}
	if oursErr == nil {
		model, names, _ = c.model(ours)
	}
	theirs, ortErr = runORTModel(model, &diffCase{inputs: in}, names, ours)
	return
}

// TestORTSweepDivergences pins the disagreements the registry sweep found
// where onnxruntime departs from the specification (docs/divergences.md,
// "The registry sweep"): what onnxshape gives, and that onnxruntime still
// does otherwise (a test that fails on its side means onnxruntime changed:
// move the row).
func TestORTSweepDivergences(t *testing.T) {
	f32 := func(v ...float32) *tensor.Tensor { return tensor.MustFromSlice(v, len(v)) }
	inf := float32(math.Inf(1))
	type pin struct {
		name       string
		c          *sweepCase
		ours       []float64 // y0's elements ("" shape check only when nil)
		oursShape  []int
		ortRefuses bool
		ortValues  []float64
	}
	pins := []pin{
		{name: "Slice end INT64_MAX with step -1", c: &sweepCase{op: "Slice", opset: 21, nOut: 1,
			inputs: []*tensor.Tensor{f32(1, 2, 3, 4), i64s(-1), i64s(math.MaxInt64), i64s(0), i64s(-1)}},
			ours: []float64{}, oursShape: []int{0}, ortValues: []float64{4, 3, 2, 1}},
		{name: "Split num_outputs 3 of 4", c: &sweepCase{op: "Split", opset: 18, nOut: 3,
			inputs: []*tensor.Tensor{f32(1, 2, 3, 4)}, attrs: []*pb.AttributeProto{aInt("num_outputs", 3)}},
			ours: []float64{1, 2}, ortRefuses: true},
		{name: "LpNormalization of a float32 whose square overflows", c: &sweepCase{op: "LpNormalization", opset: 22, nOut: 1,
			inputs: []*tensor.Tensor{f32(-3e38, 0)}, attrs: []*pb.AttributeProto{aInt("axis", 0)}},
			ours: []float64{-1, 0}, ortValues: []float64{0, 0}},
		{name: "MatMul of an empty batch by a 1-D B", c: &sweepCase{op: "MatMul", opset: 13, nOut: 1,
			inputs: []*tensor.Tensor{tensor.MustNew(tensor.Float, 3, 0, 2), f32(1, 2)}},
			ours: []float64{}, oursShape: []int{3, 0}, ortRefuses: true},
		{name: "Clip of -inf with min left out", c: &sweepCase{op: "Clip", opset: 13, nOut: 1,
			inputs: []*tensor.Tensor{f32(-inf, 5), nil, tensor.Scalar(float32(1))}},
			ours: []float64{math.Inf(-1), 1}, ortValues: []float64{-math.MaxFloat32, 1}},
		{name: "ConvTranspose output_padding 1 with stride 1", c: &sweepCase{op: "ConvTranspose", opset: 22, nOut: 1,
			inputs: []*tensor.Tensor{tensor.MustFromSlice([]float32{1, 2}, 1, 1, 2), tensor.MustFromSlice([]float32{1}, 1, 1, 1)},
			attrs:  []*pb.AttributeProto{aInts("output_padding", 1)}},
			ours: []float64{1, 2, 0}, ortRefuses: true},
		{name: "LpPool VALID with a kernel longer than the input", c: &sweepCase{op: "LpPool", opset: 22, nOut: 1,
			inputs: []*tensor.Tensor{tensor.MustFromSlice([]float32{1, 2}, 1, 1, 2)},
			attrs:  []*pb.AttributeProto{aInts("kernel_shape", 3), aInts("strides", 3), aStr("auto_pad", "VALID")}},
			ours: []float64{}, oursShape: []int{1, 1, 0}, ortValues: nil},
		{name: "uint32 MatMul of empty tensors", c: &sweepCase{op: "MatMul", opset: 13, nOut: 1,
			inputs: []*tensor.Tensor{tensor.MustNew(tensor.Uint32, 2, 0), tensor.MustNew(tensor.Uint32, 0, 3)}},
			ours: []float64{0, 0, 0, 0, 0, 0}, oursShape: []int{2, 3}, ortRefuses: true},
		{name: "Pad edge over an axis cropped to nothing, empty output", c: &sweepCase{op: "Pad", opset: 21, nOut: 1,
			inputs: []*tensor.Tensor{tensor.MustNew(tensor.Float, 2, 1), i64s(1, -1, 0, 0)}, attrs: []*pb.AttributeProto{aStr("mode", "edge")}},
			ours: []float64{}, oursShape: []int{3, 0}, ortRefuses: true},
		{name: "Gemm with K = 0", c: &sweepCase{op: "Gemm", opset: 13, nOut: 1,
			inputs: []*tensor.Tensor{tensor.MustNew(tensor.Float, 1, 0), tensor.MustNew(tensor.Float, 0, 2), f32(4, 8)},
			attrs:  []*pb.AttributeProto{aFloat("beta", 0.25)}},
			ours: []float64{1, 2}, ortValues: []float64{4, 8}},
		{name: "LogSoftmax of a slice holding +inf", c: &sweepCase{op: "LogSoftmax", opset: 13, nOut: 1,
			inputs: []*tensor.Tensor{tensor.MustFromSlice([]float64{1, math.Inf(1)}, 2)}, attrs: []*pb.AttributeProto{aInt("axis", 0)}},
			ours: []float64{math.NaN(), math.NaN()}, ortValues: []float64{math.Inf(-1), math.NaN()}},
		{name: "GatherND index out of an empty axis, empty output", c: &sweepCase{op: "GatherND", opset: 13, nOut: 1,
			inputs: []*tensor.Tensor{tensor.MustNew(tensor.Float, 1, 0, 0), tensor.MustFromSlice([]int64{1, 0}, 1, 2, 1)}, attrs: []*pb.AttributeProto{aInt("batch_dims", 1)}},
			ortValues: []float64{}},
	}
	for _, p := range pins {
		ours, oursErr, theirs, ortErr := pinRun(p.c)
		if p.ours == nil && p.oursShape == nil { // onnxshape refuses
			if oursErr == nil {
				t.Errorf("%s: onnxshape no longer refuses", p.name)
			}
			if ortErr != nil {
				t.Errorf("%s: onnxruntime: %v", p.name, ortErr)
			}
			continue
		}
		if oursErr != nil {
			t.Errorf("%s: onnxshape: %v", p.name, oursErr)
			continue
		}
		got, _ := ours[0].Float64s()
		if p.oursShape != nil && !slices.Equal(ours[0].Shape(), p.oursShape) {
			t.Errorf("%s: onnxshape's shape %v, want %v", p.name, ours[0].Shape(), p.oursShape)
		}
		if len(got) != len(p.ours) || !slices.EqualFunc(got, p.ours, func(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }) {
			t.Errorf("%s: onnxshape gives %v, want %v", p.name, got, p.ours)
		}
		switch {
		case p.ortRefuses:
			if ortErr == nil {
				t.Errorf("%s: onnxruntime no longer refuses", p.name)
			}
		case ortErr != nil:
			t.Errorf("%s: onnxruntime: %v", p.name, ortErr)
		case p.ortValues == nil: // another shape than ours
			if slices.Equal(theirs[0].Shape(), ours[0].Shape()) {
				t.Errorf("%s: onnxruntime now gives our shape %v", p.name, ours[0].Shape())
			}
		default:
			v, _ := theirs[0].Float64s()
			if !slices.EqualFunc(v, p.ortValues, func(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }) {
				t.Errorf("%s: onnxruntime gives %v, the row says %v", p.name, v, p.ortValues)
			}
		}
	}
}

// gemmEmptyK reports whether a MatMul or Gemm case has an inner dimension of 0.
func gemmEmptyK(c *sweepCase) bool {
	a, b := c.inputs[0].Shape(), c.inputs[1].Shape()
	if c.op == "MatMul" {
		return a[len(a)-1] == 0 || (len(b) > 0 && b[max(0, len(b)-2)] == 0)
	}
	k := a[1]
	if at, ok := c.attr("transA"); ok && at.GetI() == 1 {
		k = a[0]
	}
	return k == 0
}
