package bench

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/onnx"
	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
	"google.golang.org/protobuf/proto"
)

// An OpCase is one case of the every-operator benchmark: one
// operator on one kernel path (a reduction over the last, first or a middle
// axis; a same-shape or a broadcast binary; a Cast pair; a pooling mode),
// built at two sizes: large, about 25 MB of float32 input (an NCHW tensor
// [8, 64, 112, 112] or its equivalent), and small, a few KB ([1, 4, 16, 16]),
// where the cost of a call dominates.
//
// OperatorCases lists them; TestEveryOperatorHasACase fails for a
// registered operator without one, so a new operator comes with its case.
// An operator whose inputs cannot be made up generically (strings,
// sequences, optionals, subgraphs, boxes) is measured on an ONNX node test
// instead (NodeTest): the small case only.
type OpCase struct {
	// Name is the case's name, e.g. "reducesum_middle".
	Name string
	// Op is the operator measured.
	Op string
	// Memory marks an operator that only moves or converts bytes: its
	// yardstick is a copy reading and writing as many bytes as it reads and
	// writes, and at least its output's bytes (bench/ort's every-operator
	// table).
	Memory bool
	// NodeTest, for a case without a builder, names the ONNX node test
	// (a folder of the node-test tree) whose model and inputs are the small
	// case; there is no large one.
	NodeTest string

	opset int // the model's ai.onnx opset; 0: Opset or the operator's first version
	build func(d dims) caseSpec
}

// dims are the sizes a builder scales with: the NCHW shape of the main
// input and whether the case is the large one.
type dims struct {
	n, c, h, w int
	large      bool
}

func (d dims) nchw() []int { return []int{d.n, d.c, d.h, d.w} }

// pick is large when the case is large, small otherwise.
func (d dims) pick(large, small int) int {
	if d.large {
		return large
	}
	return small
}

var (
	largeDims = dims{8, 64, 112, 112, true}
	smallDims = dims{1, 4, 16, 16, false}
)

// HasLarge reports whether the case has a large size.
func (o OpCase) HasLarge() bool { return o.build != nil }

// Case builds the case in memory at one size. nodeTests is the root of the
// ONNX node tests, read for a NodeTest case (whose large size is nil, nil).
// The outputs' types and shapes are declared in the model (onnxruntime
// writes into tensors allocated once): onnxshape runs the model once to
// learn them.
func (o OpCase) Case(large bool, nodeTests string) (*Case, error) {
	if o.build == nil {
		if large {
			return nil, nil
		}
		c, err := ReadCase(filepath.Join(nodeTests, o.NodeTest))
		if err != nil {
			return nil, err
		}
		c.Name = o.Name
		return c, nil
	}
	d := smallDims
	if large {
		d = largeDims
	}
	spec := o.build(d)
	opset := o.opset
	if opset == 0 {
		opset = max(Opset, firstVersion(o.Op))
	}
	m, err := spec.modelAt(o.Name, opset)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", o.Name, err)
	}
	c := &Case{Name: o.Name, Model: m, Inputs: map[string]tensor.Value{}}
	for _, in := range spec.inputs {
		c.InputNames = append(c.InputNames, in.name)
		c.Inputs[in.name] = in.t
	}
	for _, out := range spec.outputs {
		c.OutputNames = append(c.OutputNames, out.name)
	}
	// Learn the outputs' types and shapes from one run.
	b, err := onnx.EncodeModel(m)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", o.Name, err)
	}
	gm, err := graph.LoadBytes(b, "")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", o.Name, err)
	}
	outs, err := gm.Run(context.Background(), c.Inputs, nil)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", o.Name, err)
	}
	g := m.GetGraph()
	for i, name := range c.OutputNames {
		v, _ := outs.Value(name)
		t, ok := v.(*tensor.Tensor)
		if !ok {
			return nil, fmt.Errorf("%s: output %s is not a tensor", o.Name, name)
		}
		g.Output[i] = onnx.TensorValueInfo(name, t.DataType(), t.Shape())
	}
	if c.Bytes, err = onnx.EncodeModel(m); err != nil {
		return nil, fmt.Errorf("%s: %w", o.Name, err)
	}
	return c, nil
}

// firstVersion is the first since-version of operator op in the registry.
func firstVersion(op string) int {
	for _, s := range ops.Schemas() {
		if s.Domain == "" && s.Name == op {
			return s.Since
		}
	}
	return 0
}

// modelAt is model with the ai.onnx opset set to opset.
func (c caseSpec) modelAt(name string, opset int) (*pb.ModelProto, error) {
	m, err := c.model(name)
	if err != nil {
		return nil, err
	}
	m.OpsetImport[0].Version = proto.Int64(int64(opset))
	return m, nil
}

// node is a one-node case: op on the graph inputs ins and the initializers
// consts (in that order), with nOut outputs y0, y1... whose types and
// shapes Case learns.
// A node without inputs takes its constants as graph inputs instead, and
// without those either the graph has an input it does not use: the
// onnxruntime binding runs no model without inputs.
func node(op string, attrs []*pb.AttributeProto, ins []named, consts []named, nOut int) caseSpec {
	if len(ins) == 0 {
		ins, consts = consts, nil
	}
	c := caseSpec{node: &pb.NodeProto{OpType: proto.String(op), Attribute: attrs}, inputs: ins, consts: consts}
	if len(ins) == 0 {
		c.inputs = []named{floatScalar("unused", 0)}
	}
	for _, in := range ins {
		c.node.Input = append(c.node.Input, in.name)
	}
	for _, k := range consts {
		c.node.Input = append(c.node.Input, k.name)
	}
	for i := range nOut {
		name := fmt.Sprintf("y%d", i)
		c.node.Output = append(c.node.Output, name)
		c.outputs = append(c.outputs, outputSpec{name: name, dt: tensor.Float})
	}
	return c
}

// randomOf is a tensor of type dt with random values: floats in [-1, 1),
// integers in [0, 100) (signed ones in [-50, 50)), bools half true.
func randomOf(name string, dt tensor.DataType, shape []int) named {
	if dt == tensor.Bool {
		return randomBools(name, shape)
	}
	f := randomFloats(name, shape)
	if dt == tensor.Float {
		return f
	}
	src, _ := tensor.Data[float32](f.t)
	t := tensor.MustNew(dt, shape...)
	switch dt {
	case tensor.Double:
		fill(t, src, func(v float32) float64 { return float64(v) })
	case tensor.Float16, tensor.BFloat16:
		conv, err := ops.Cast(f.t, ops.CastOptions{To: dt})
		if err != nil {
			panic(err)
		}
		t = conv
	case tensor.Int32:
		fill(t, src, func(v float32) int32 { return int32(v * 50) })
	case tensor.Int64:
		fill(t, src, func(v float32) int64 { return int64(v * 50) })
	case tensor.Int8:
		fill(t, src, func(v float32) int8 { return int8(v * 50) })
	case tensor.Uint8:
		fill(t, src, func(v float32) uint8 { return uint8(50 + v*50) })
	case tensor.Uint32:
		fill(t, src, func(v float32) uint32 { return uint32(50 + v*50) })
	default:
		panic(fmt.Sprintf("randomOf: %v", dt))
	}
	return named{name, t}
}

func fill[E tensor.Element](t *tensor.Tensor, src []float32, f func(float32) E) {
	dst, _ := tensor.Data[E](t)
	for i, v := range src {
		dst[i] = f(v)
	}
}

// mapFloats applies f to a float32 tensor's values, in place.
func mapFloats(x named, f func(float32) float32) named {
	v, _ := tensor.Data[float32](x.t)
	for i := range v {
		v[i] = f(v[i])
	}
	return x
}

// randomIndices is an int64 tensor of indices in [0, n).
func randomIndices(name string, shape []int, n int) named {
	t := tensor.MustNew(tensor.Int64, shape...)
	v, _ := tensor.Data[int64](t)
	r := rng(name, shape)
	for i := range v {
		v[i] = r.Int64N(int64(n))
	}
	return named{name, t}
}

func int64Scalar(name string, v int64) named {
	return named{name, tensor.Scalar(v)}
}

func floatScalar(name string, v float32) named {
	return named{name, tensor.Scalar(v)}
}

func uint8Scalar(name string, v uint8) named {
	return named{name, tensor.Scalar(v)}
}

func attrs(a ...*pb.AttributeProto) []*pb.AttributeProto { return a }

func ints64(v ...int) []int64 {
	out := make([]int64, len(v))
	for i, x := range v {
		out[i] = int64(x)
	}
	return out
}

// lower is an operator's name in lower case, the start of its cases' names.
func lower(op string) string { return strings.ToLower(op) }

// OperatorCases returns the cases of the every-operator benchmark, sorted
// by operator and name: at least one for every registered operator.
func OperatorCases() []OpCase {
	var cs []OpCase
	add := func(op, name string, memory bool, build func(d dims) caseSpec) {
		if name == "" {
			name = lower(op)
		} else {
			name = lower(op) + "_" + name
		}
		cs = append(cs, OpCase{Name: name, Op: op, Memory: memory, build: build})
	}
	nodeTest := func(op, test string) {
		cs = append(cs, OpCase{Name: lower(op) + "_nodetest", Op: op, NodeTest: test})
	}
	x := func(d dims) named { return randomFloats("x", d.nchw()) }
	positive := func(d dims) named { return mapFloats(x(d), func(v float32) float32 { return v*v + 0.5 }) }
	above1 := func(d dims) named { return mapFloats(x(d), func(v float32) float32 { return 1 + v*v }) }
	unaryOn := func(op string, in func(dims) named, a ...*pb.AttributeProto) func(dims) caseSpec {
		return func(d dims) caseSpec { return node(op, a, []named{in(d)}, nil, 1) }
	}

	// Elementwise unary operators on float32.
	for _, op := range []string{"Abs", "Asin", "Acos", "Atan", "Atanh", "Asinh", "Ceil", "Celu", "Cos", "Cosh", "Elu",
		"Erf", "Exp", "Floor", "Gelu", "HardSigmoid", "HardSwish", "LeakyRelu", "Mish", "Neg", "Reciprocal", "Relu",
		"Round", "Selu", "Shrink", "Sigmoid", "Sign", "Sin", "Sinh", "Softplus", "Softsign", "Swish", "Tan", "Tanh",
		"ThresholdedRelu", "IsNaN", "IsInf"} {
		add(op, "", false, unaryOn(op, x))
	}
	add("Acosh", "", false, unaryOn("Acosh", above1))
	add("Log", "", false, unaryOn("Log", positive))
	add("Sqrt", "", false, unaryOn("Sqrt", positive))
	add("Identity", "", true, unaryOn("Identity", x))
	add("Dropout", "", true, unaryOn("Dropout", x))
	add("Not", "", false, unaryOn("Not", func(d dims) named { return randomBools("x", d.nchw()) }))
	add("BitwiseNot", "", false, unaryOn("BitwiseNot", func(d dims) named { return randomOf("x", tensor.Int32, d.nchw()) }))
	add("Clip", "", false, func(d dims) caseSpec {
		return node("Clip", nil, []named{x(d)}, []named{floatScalar("lo", -0.5), floatScalar("hi", 0.5)}, 1)
	})
	add("BitCast", "", true, func(d dims) caseSpec {
		return node("BitCast", attrs(attrInt("to", int64(tensor.Int32))), []named{x(d)}, nil, 1)
	})

	// Along one axis.
	for _, op := range []string{"Softmax", "LogSoftmax", "Hardmax", "LpNormalization"} {
		add(op, "last", false, unaryOn(op, x, attrInt("axis", -1)))
	}
	add("Softmax", "channel", false, unaryOn("Softmax", x, attrInt("axis", 1)))
	add("MeanVarianceNormalization", "", false, unaryOn("MeanVarianceNormalization", x))
	add("LRN", "size3", false, unaryOn("LRN", x, attrInt("size", 3)))
	for _, op := range []string{"CumSum", "CumProd"} {
		add(op, "last", false, func(d dims) caseSpec {
			return node(op, nil, []named{x(d)}, []named{int64Scalar("axis", -1)}, 1)
		})
		add(op, "channel", false, func(d dims) caseSpec {
			return node(op, nil, []named{x(d)}, []named{int64Scalar("axis", 1)}, 1)
		})
	}

	// Binary operators: same shapes, and a [1, C, 1, 1] right input
	// broadcast over NCHW.
	binary := func(op string, dt tensor.DataType, a ...*pb.AttributeProto) {
		for _, bc := range []bool{false, true} {
			name := "same"
			if bc {
				name = "broadcast"
			}
			if dt != tensor.Float {
				name = strings.ToLower(dt.String()) + "_" + name
			}
			add(op, name, false, func(d dims) caseSpec {
				bs := d.nchw()
				if bc {
					bs = []int{1, d.c, 1, 1}
				}
				l, r := randomOf("a", dt, d.nchw()), randomOf("b", dt, bs)
				if op == "Div" || op == "Mod" || op == "Pow" {
					r = mapFloats(r, func(v float32) float32 { return 0.5 + v*v })
				}
				if op == "BitShift" {
					v, _ := tensor.Data[uint32](r.t)
					for i := range v {
						v[i] %= 8
					}
				}
				return node(op, a, []named{l, r}, nil, 1)
			})
		}
	}
	for _, op := range []string{"Add", "Sub", "Mul", "Div", "Pow", "Max", "Min", "Mean", "Sum", "PRelu",
		"Equal", "Greater", "GreaterOrEqual", "Less", "LessOrEqual"} {
		binary(op, tensor.Float)
	}
	binary("Mod", tensor.Float, attrInt("fmod", 1))
	binary("Equal", tensor.Int64)
	binary("Add", tensor.Int64)
	for _, op := range []string{"And", "Or", "Xor"} {
		binary(op, tensor.Bool)
	}
	for _, op := range []string{"BitwiseAnd", "BitwiseOr", "BitwiseXor"} {
		binary(op, tensor.Int32)
	}
	binary("BitShift", tensor.Uint32, attrString("direction", "LEFT"))
	add("Where", "", true, func(d dims) caseSpec {
		return node("Where", nil, []named{randomBools("cond", d.nchw()), x(d), randomFloats("other", d.nchw())}, nil, 1)
	})

	// Reductions over the last, the first and a middle (channel) axis.
	for _, op := range []string{"ReduceL1", "ReduceL2", "ReduceLogSum", "ReduceLogSumExp", "ReduceMax", "ReduceMean",
		"ReduceMin", "ReduceProd", "ReduceSum", "ReduceSumSquare"} {
		for _, ax := range []struct {
			name string
			axis int64
		}{{"last", -1}, {"first", 0}, {"middle", 1}} {
			in := x
			if op == "ReduceLogSum" {
				in = positive
			}
			add(op, ax.name, false, func(d dims) caseSpec {
				return node(op, nil, []named{in(d)}, []named{int64Const("axes", ax.axis)}, 1)
			})
		}
	}
	for _, op := range []string{"ArgMax", "ArgMin"} {
		for _, ax := range []struct {
			name string
			axis int64
		}{{"last", -1}, {"first", 0}, {"middle", 1}} {
			add(op, ax.name, false, unaryOn(op, x, attrInt("axis", ax.axis)))
		}
	}
	add("TopK", "k10_last", false, func(d dims) caseSpec {
		return node("TopK", nil, []named{randomFloats("x", []int{d.pick(784, 4), d.pick(8192, 256)})}, []named{int64Const("k", 10)}, 2)
	})

	// Conversions: each class of Cast pair.
	for _, p := range []struct{ from, to tensor.DataType }{
		{tensor.Float, tensor.Float16}, {tensor.Float16, tensor.Float}, {tensor.Float, tensor.BFloat16},
		{tensor.Float, tensor.Double}, {tensor.Double, tensor.Float}, {tensor.Float, tensor.Int32},
		{tensor.Int32, tensor.Float}, {tensor.Float, tensor.Int64}, {tensor.Int64, tensor.Int32},
		{tensor.Int32, tensor.Int64}, {tensor.Float, tensor.Uint8}, {tensor.Uint8, tensor.Float},
		{tensor.Float, tensor.Bool}, {tensor.Bool, tensor.Float}, {tensor.Float, tensor.Float8E4M3FN},
	} {
		name := strings.ToLower(p.from.String() + "_" + p.to.String())
		add("Cast", name, true, func(d dims) caseSpec {
			return node("Cast", attrs(attrInt("to", int64(p.to))), []named{randomOf("x", p.from, d.nchw())}, nil, 1)
		})
	}
	add("CastLike", "float_float16", true, func(d dims) caseSpec {
		return node("CastLike", nil, []named{x(d)}, []named{{"like", tensor.MustNew(tensor.Float16, 1)}}, 1)
	})
	add("QuantizeLinear", "uint8", false, func(d dims) caseSpec {
		return node("QuantizeLinear", nil, []named{x(d)}, []named{floatScalar("scale", 0.01), uint8Scalar("zp", 128)}, 1)
	})
	add("DequantizeLinear", "uint8", false, func(d dims) caseSpec {
		return node("DequantizeLinear", nil, []named{randomOf("x", tensor.Uint8, d.nchw())}, []named{floatScalar("scale", 0.01), uint8Scalar("zp", 128)}, 1)
	})
	add("DynamicQuantizeLinear", "", false, func(d dims) caseSpec { return node("DynamicQuantizeLinear", nil, []named{x(d)}, nil, 3) })

	// Pooling: every mode.
	pool := func(op, name string, a ...*pb.AttributeProto) {
		add(op, name, false, unaryOn(op, x, a...))
	}
	k3s1p1 := []*pb.AttributeProto{attrInts("kernel_shape", 3, 3), attrInts("strides", 1, 1), attrInts("pads", 1, 1, 1, 1)}
	k3s2p1 := []*pb.AttributeProto{attrInts("kernel_shape", 3, 3), attrInts("strides", 2, 2), attrInts("pads", 1, 1, 1, 1)}
	k2s2 := []*pb.AttributeProto{attrInts("kernel_shape", 2, 2), attrInts("strides", 2, 2)}
	pool("MaxPool", "3x3_s2_p1", k3s2p1...)
	pool("MaxPool", "2x2_s2", k2s2...)
	add("MaxPool", "3x3_s2_p1_indices", false, func(d dims) caseSpec { return node("MaxPool", k3s2p1, []named{x(d)}, nil, 2) })
	pool("AveragePool", "3x3_s1_p1", k3s1p1...)
	pool("AveragePool", "3x3_s1_p1_countpad", append(slices.Clone(k3s1p1), attrInt("count_include_pad", 1))...)
	pool("AveragePool", "2x2_s2", k2s2...)
	pool("LpPool", "3x3_s1_p1", k3s1p1...)
	pool("LpPool", "2x2_s2", k2s2...)
	for _, op := range []string{"GlobalAveragePool", "GlobalMaxPool", "GlobalLpPool"} {
		pool(op, "")
	}
	add("MaxUnpool", "2x2_s2", true, func(d dims) caseSpec {
		half := []int{d.n, d.c, d.h / 2, d.w / 2}
		return node("MaxUnpool", k2s2, []named{randomFloats("x", half), unpoolIndices("indices", half)}, nil, 1)
	})

	// Data movement.
	add("Transpose", "nchw_nhwc", true, unaryOn("Transpose", x, attrInts("perm", 0, 2, 3, 1)))
	add("Concat", "2_axis1", true, func(d dims) caseSpec {
		return node("Concat", attrs(attrInt("axis", 1)), []named{x(d), randomFloats("x1", d.nchw())}, nil, 1)
	})
	add("Split", "4_axis1", true, unaryOn("Split", x, attrInt("axis", 1), attrInt("num_outputs", 4)))
	for i := range cs[len(cs)-1:] {
		b := cs[len(cs)-1+i].build
		cs[len(cs)-1+i].build = func(d dims) caseSpec {
			c := b(d)
			c.node.Output, c.outputs = nil, nil
			for k := range 4 {
				name := fmt.Sprintf("y%d", k)
				c.node.Output = append(c.node.Output, name)
				c.outputs = append(c.outputs, outputSpec{name: name, dt: tensor.Float})
			}
			return c
		}
	}
	add("Slice", "step2", true, func(d dims) caseSpec {
		return node("Slice", nil, []named{x(d)}, []named{int64Const("starts", 0, 0), int64Const("ends", ints64(d.h, d.w)...),
			int64Const("axes", 2, 3), int64Const("steps", 2, 2)}, 1)
	})
	for _, mode := range []string{"constant", "reflect", "edge"} {
		add("Pad", mode, true, func(d dims) caseSpec {
			return node("Pad", attrs(attrString("mode", mode)), []named{x(d)}, []named{int64Const("pads", 0, 0, 2, 2, 0, 0, 2, 2)}, 1)
		})
	}
	for _, mode := range []string{"nearest", "linear", "cubic"} {
		add("Resize", mode+"_2x", false, func(d dims) caseSpec {
			c := node("Resize", attrs(attrString("mode", mode)), []named{randomFloats("x", []int{d.n, d.c, d.h / 2, d.w / 2})},
				[]named{floatConst("scales", 1, 1, 2, 2)}, 1)
			c.node.Input = []string{"x", "", "scales"}
			return c
		})
	}
	add("Upsample", "nearest_2x", true, func(d dims) caseSpec {
		return node("Upsample", nil, []named{randomFloats("x", []int{d.n, d.c, d.h / 2, d.w / 2})}, []named{floatConst("scales", 1, 1, 2, 2)}, 1)
	})
	cs[len(cs)-1].opset = 9
	for _, mode := range []string{"DCR", "CRD"} {
		add("DepthToSpace", strings.ToLower(mode), true, unaryOn("DepthToSpace", x, attrInt("blocksize", 2), attrString("mode", mode)))
	}
	add("SpaceToDepth", "", true, unaryOn("SpaceToDepth", x, attrInt("blocksize", 2)))
	add("Tile", "1122", true, func(d dims) caseSpec {
		return node("Tile", nil, []named{randomFloats("x", []int{d.n, d.c, d.h / 2, d.w / 2})}, []named{int64Const("repeats", 1, 1, 2, 2)}, 1)
	})
	add("Expand", "", true, func(d dims) caseSpec {
		return node("Expand", nil, []named{randomFloats("x", []int{1, d.c, 1, d.w})}, []named{int64Const("shape", ints64(d.nchw()...)...)}, 1)
	})
	add("Unsqueeze", "", true, func(d dims) caseSpec { return node("Unsqueeze", nil, []named{x(d)}, []named{int64Const("axes", 1)}, 1) })
	add("Squeeze", "", true, func(d dims) caseSpec {
		return node("Squeeze", nil, []named{randomFloats("x", []int{d.n, 1, d.c, d.h, d.w})}, []named{int64Const("axes", 1)}, 1)
	})
	add("Reshape", "", true, func(d dims) caseSpec {
		return node("Reshape", nil, []named{x(d)}, []named{int64Const("shape", int64(d.n), int64(d.c), -1)}, 1)
	})
	add("Flatten", "", true, unaryOn("Flatten", x, attrInt("axis", 1)))
	add("Shape", "", true, unaryOn("Shape", x))
	add("Size", "", true, unaryOn("Size", x))
	add("Gather", "channels", true, func(d dims) caseSpec {
		return node("Gather", attrs(attrInt("axis", 1)), []named{x(d), randomIndices("indices", []int{d.c}, d.c)}, nil, 1)
	})
	add("Gather", "rows", true, func(d dims) caseSpec {
		rows := d.pick(6250*8, 64)
		return node("Gather", attrs(attrInt("axis", 0)), []named{randomFloats("x", []int{d.pick(50000, 256), 128}), randomIndices("indices", []int{rows}, d.pick(50000, 256))}, nil, 1)
	})
	add("GatherElements", "last", true, func(d dims) caseSpec {
		return node("GatherElements", attrs(attrInt("axis", -1)), []named{x(d), randomIndices("indices", d.nchw(), d.w)}, nil, 1)
	})
	planes := func(d dims) named { // every (n, c) pair once, in a shuffled order
		t := tensor.MustNew(tensor.Int64, d.n*d.c, 2)
		v, _ := tensor.Data[int64](t)
		r := rng("planes", d.nchw())
		for i, p := range r.Perm(d.n * d.c) {
			v[2*i], v[2*i+1] = int64(p/d.c), int64(p%d.c)
		}
		return named{"indices", t}
	}
	add("GatherND", "planes", true, func(d dims) caseSpec { return node("GatherND", nil, []named{x(d), planes(d)}, nil, 1) })
	add("ScatterND", "planes", true, func(d dims) caseSpec {
		return node("ScatterND", nil, []named{x(d), planes(d), randomFloats("updates", []int{d.n * d.c, d.h, d.w})}, nil, 1)
	})
	for _, op := range []string{"ScatterElements", "Scatter"} {
		add(op, "last", true, func(d dims) caseSpec {
			return node(op, attrs(attrInt("axis", -1)), []named{x(d), randomIndices("indices", d.nchw(), d.w), randomFloats("updates", d.nchw())}, nil, 1)
		})
	}
	cs[len(cs)-1].opset = 10
	add("Compress", "channels", true, func(d dims) caseSpec {
		return node("Compress", attrs(attrInt("axis", 1)), []named{x(d), randomBools("cond", []int{d.c})}, nil, 1)
	})
	add("Trilu", "upper", true, unaryOn("Trilu", x))
	add("ReverseSequence", "", true, func(d dims) caseSpec {
		lens := randomIndices("lens", []int{d.c}, d.n)
		v, _ := tensor.Data[int64](lens.t)
		for i := range v {
			v[i]++
		}
		return node("ReverseSequence", attrs(attrInt("batch_axis", 1), attrInt("time_axis", 0)), []named{x(d), lens}, nil, 1)
	})
	add("CenterCropPad", "", true, func(d dims) caseSpec {
		return node("CenterCropPad", nil, []named{x(d)}, []named{int64Const("shape", ints64(d.n, d.c, d.h-4, d.w+4)...)}, 1)
	})
	add("NonZero", "", false, func(d dims) caseSpec {
		return node("NonZero", nil, []named{mapFloats(x(d), func(v float32) float32 { return float32(math.Max(float64(v)-0.75, 0)) })}, nil, 1)
	})
	add("Unique", "", false, func(d dims) caseSpec {
		return node("Unique", nil, []named{mapFloats(x(d), func(v float32) float32 { return float32(math.Round(float64(v) * 64)) })}, nil, 4)
	})
	add("OneHot", "", false, func(d dims) caseSpec {
		return node("OneHot", attrs(attrInt("axis", -1)), []named{randomIndices("indices", []int{d.n, d.c, d.h}, d.w)},
			[]named{int64Scalar("depth", int64(d.w)), floatConst("values", 0, 1)}, 1)
	})
	add("Range", "", false, func(d dims) caseSpec {
		n := float32(d.n * d.c * d.h * d.w)
		return node("Range", nil, nil, []named{floatScalar("start", 0), floatScalar("limit", n), floatScalar("delta", 1)}, 1)
	})
	add("ConstantOfShape", "", true, func(d dims) caseSpec {
		return node("ConstantOfShape", nil, nil, []named{int64Const("shape", ints64(d.nchw()...)...)}, 1)
	})
	add("EyeLike", "", true, func(d dims) caseSpec {
		return node("EyeLike", nil, []named{randomFloats("x", []int{d.pick(2560, 32), d.pick(2560, 32)})}, nil, 1)
	})
	// The random generators, seeded so that every run draws the same.
	add("RandomUniformLike", "", false, func(d dims) caseSpec {
		return node("RandomUniformLike", attrs(attrFloat("seed", 1)), []named{x(d)}, nil, 1)
	})
	add("RandomNormalLike", "", false, func(d dims) caseSpec {
		return node("RandomNormalLike", attrs(attrFloat("seed", 1)), []named{x(d)}, nil, 1)
	})
	add("Bernoulli", "", false, func(d dims) caseSpec {
		return node("Bernoulli", attrs(attrFloat("seed", 1)), []named{x(d)}, nil, 1)
	})
	add("RandomUniform", "", false, func(d dims) caseSpec {
		return node("RandomUniform", attrs(attrInts("shape", ints64(d.nchw()...)...), attrFloat("seed", 1)), nil, nil, 1)
	})
	add("RandomNormal", "", false, func(d dims) caseSpec {
		return node("RandomNormal", attrs(attrInts("shape", ints64(d.nchw()...)...), attrFloat("seed", 1)), nil, nil, 1)
	})
	add("Constant", "", true, func(d dims) caseSpec {
		v, _ := onnx.TensorToProto(randomFloats("value", d.nchw()).t, "value")
		a := &pb.AttributeProto{Name: proto.String("value"), Type: pb.AttributeProto_TENSOR.Enum(), T: v}
		return node("Constant", attrs(a), nil, nil, 1)
	})
	for _, op := range []string{"BlackmanWindow", "HammingWindow", "HannWindow"} {
		add(op, "", false, func(d dims) caseSpec {
			return node(op, nil, nil, []named{int64Scalar("size", int64(d.n*d.c*d.h*d.w))}, 1)
		})
	}

	// Products, convolutions, normalisations, recurrences.
	add("MatMul", "", false, func(d dims) caseSpec {
		k := d.pick(512, 16)
		return node("MatMul", nil, []named{randomFloats("a", []int{d.pick(16, 1), d.pick(256, 4), k})}, []named{randomFloats("w", []int{k, k})}, 1)
	})
	add("Gemm", "", false, func(d dims) caseSpec {
		k := d.pick(1024, 16)
		return node("Gemm", nil, []named{randomFloats("a", []int{k, k})}, []named{randomFloats("w", []int{k, k}), randomFloats("bias", []int{k})}, 1)
	})
	add("Einsum", "batched_matmul", false, func(d dims) caseSpec {
		b, k := d.pick(16, 2), d.pick(512, 8)
		return node("Einsum", attrs(attrString("equation", "bij,bjk->bik")), []named{randomFloats("a", []int{b, d.pick(256, 4), k}), randomFloats("b", []int{b, k, k})}, nil, 1)
	})
	add("MatMulInteger", "", false, func(d dims) caseSpec {
		k := d.pick(1024, 16)
		return node("MatMulInteger", nil, []named{randomOf("a", tensor.Uint8, []int{k, k})}, []named{randomOf("w", tensor.Uint8, []int{k, k})}, 1)
	})
	add("QLinearMatMul", "", false, func(d dims) caseSpec {
		k := d.pick(1024, 16)
		return node("QLinearMatMul", nil, []named{randomOf("a", tensor.Uint8, []int{k, k})}, []named{floatScalar("as", 0.01), uint8Scalar("az", 128),
			randomOf("w", tensor.Uint8, []int{k, k}), floatScalar("ws", 0.01), uint8Scalar("wz", 128), floatScalar("ys", 0.5), uint8Scalar("yz", 128)}, 1)
	})
	half := func(d dims) []int { return []int{d.n, d.c, d.h / 2, d.w / 2} }
	add("Conv", "3x3_p1", false, func(d dims) caseSpec {
		return node("Conv", attrs(attrInts("pads", 1, 1, 1, 1)), []named{randomFloats("x", half(d))}, []named{randomFloats("w", []int{d.c, d.c, 3, 3}), randomFloats("b", []int{d.c})}, 1)
	})
	add("Conv", "depthwise_3x3", false, func(d dims) caseSpec {
		return node("Conv", attrs(attrInt("group", int64(d.c)), attrInts("pads", 1, 1, 1, 1)), []named{x(d)}, []named{randomFloats("w", []int{d.c, 1, 3, 3}), randomFloats("b", []int{d.c})}, 1)
	})
	add("ConvTranspose", "2x2_s2", false, func(d dims) caseSpec {
		return node("ConvTranspose", attrs(attrInts("strides", 2, 2)), []named{randomFloats("x", half(d))}, []named{randomFloats("w", []int{d.c, d.c, 2, 2})}, 1)
	})
	add("ConvInteger", "3x3_p1", false, func(d dims) caseSpec {
		return node("ConvInteger", attrs(attrInts("pads", 1, 1, 1, 1)), []named{randomOf("x", tensor.Uint8, half(d))}, []named{randomOf("w", tensor.Uint8, []int{d.c, d.c, 3, 3})}, 1)
	})
	add("QLinearConv", "3x3_p1", false, func(d dims) caseSpec {
		return node("QLinearConv", attrs(attrInts("pads", 1, 1, 1, 1)), []named{randomOf("x", tensor.Uint8, half(d))}, []named{floatScalar("xs", 0.01), uint8Scalar("xz", 128),
			randomOf("w", tensor.Uint8, []int{d.c, d.c, 3, 3}), floatScalar("ws", 0.01), uint8Scalar("wz", 128), floatScalar("ys", 0.5), uint8Scalar("yz", 128)}, 1)
	})
	add("BatchNormalization", "inference", false, func(d dims) caseSpec {
		return node("BatchNormalization", nil, []named{x(d)}, []named{randomFloats("scale", []int{d.c}), randomFloats("bias", []int{d.c}),
			randomFloats("mean", []int{d.c}), positiveFloats("var", []int{d.c})}, 1)
	})
	add("InstanceNormalization", "", false, func(d dims) caseSpec {
		return node("InstanceNormalization", nil, []named{x(d)}, []named{randomFloats("scale", []int{d.c}), randomFloats("bias", []int{d.c})}, 1)
	})
	add("GroupNormalization", "", false, func(d dims) caseSpec {
		return node("GroupNormalization", attrs(attrInt("num_groups", int64(d.c/2))), []named{x(d)}, []named{randomFloats("scale", []int{d.c}), randomFloats("bias", []int{d.c})}, 1)
	})
	for _, op := range []string{"LayerNormalization", "RMSNormalization"} {
		add(op, "last", false, func(d dims) caseSpec {
			return node(op, attrs(attrInt("axis", -1)), []named{x(d)}, []named{randomFloats("scale", []int{d.w})}, 1)
		})
	}
	for _, r := range []struct {
		op    string
		gates int
	}{{"LSTM", 4}, {"GRU", 3}, {"RNN", 1}} {
		add(r.op, "", false, func(d dims) caseSpec {
			steps, batch, in, hidden := d.pick(100, 4), d.pick(8, 1), d.pick(64, 8), d.pick(128, 8)
			return node(r.op, attrs(attrInt("hidden_size", int64(hidden))), []named{randomFloats("x", []int{steps, batch, in})},
				[]named{scaled(randomFloats("W", []int{1, r.gates * hidden, in}), 0.1), scaled(randomFloats("R", []int{1, r.gates * hidden, hidden}), 0.1),
					scaled(randomFloats("B", []int{1, 2 * r.gates * hidden}), 0.1)}, 1)
		})
	}
	add("Attention", "", false, func(d dims) caseSpec {
		s := []int{d.pick(8, 1), d.pick(12, 2), d.pick(256, 8), d.pick(64, 8)}
		return node("Attention", nil, []named{randomFloats("q", s), randomFloats("k", s), randomFloats("v", s)}, nil, 1)
	})
	add("RotaryEmbedding", "", false, func(d dims) caseSpec {
		b, h, s, hd := d.pick(8, 1), d.pick(12, 2), d.pick(1024, 8), d.pick(64, 8)
		return node("RotaryEmbedding", nil, []named{randomFloats("x", []int{b, h, s, hd}), randomFloats("cos", []int{b, s, hd / 2}), randomFloats("sin", []int{b, s, hd / 2})}, nil, 1)
	})
	add("Det", "", false, func(d dims) caseSpec {
		return node("Det", nil, []named{randomFloats("x", []int{d.pick(100000, 16), 8, 8})}, nil, 1)
	})
	for _, op := range []string{"NegativeLogLikelihoodLoss", "SoftmaxCrossEntropyLoss"} {
		add(op, "", false, func(d dims) caseSpec {
			pix := d.h * d.w
			return node(op, nil, []named{randomFloats("x", []int{d.n, d.c, pix}), randomIndices("target", []int{d.n, pix}, d.c)}, nil, 1)
		})
	}

	// Sequences: short chains from a tensor back to a tensor, named for
	// the operator each measures.
	seq := func(op string, links ...*pb.NodeProto) {
		add(op, "", true, func(d dims) caseSpec {
			c := caseSpec{node: links[0], more: links[1:], inputs: []named{x(d), randomFloats("x1", []int{d.n, 1, d.h, d.w})},
				consts: []named{int64Scalar("pos", 1)}, outputs: []outputSpec{{name: "y0", dt: tensor.Float}}}
			return c
		})
	}
	nd := func(op string, in []string, out string, a ...*pb.AttributeProto) *pb.NodeProto {
		return &pb.NodeProto{OpType: proto.String(op), Input: in, Output: []string{out}, Attribute: a, Name: proto.String(out)}
	}
	split := func() *pb.NodeProto { return nd("SplitToSequence", []string{"x"}, "s", attrInt("axis", 1)) }
	concat := func(in string) *pb.NodeProto { return nd("ConcatFromSequence", []string{in}, "y0", attrInt("axis", 1)) }
	seq("SplitToSequence", split(), concat("s"))
	seq("ConcatFromSequence", split(), concat("s"))
	seq("SequenceErase", split(), nd("SequenceErase", []string{"s", "pos"}, "t"), concat("t"))
	seq("SequenceAt", split(), nd("SequenceAt", []string{"s", "pos"}, "y0"))
	seq("SequenceLength", split(), nd("SequenceLength", []string{"s"}, "y0"))
	seq("SequenceInsert", split(), nd("SequenceInsert", []string{"s", "x1", "pos"}, "t"), concat("t"))
	seq("SequenceConstruct", nd("SequenceConstruct", []string{"x", "x"}, "s"), concat("s"))
	seq("SequenceEmpty", nd("SequenceEmpty", nil, "s"), nd("SequenceInsert", []string{"s", "x"}, "t"), concat("t"))

	// Operators measured on a node test: their inputs (strings,
	// sequences, optionals, subgraphs, boxes, offsets) are the test's.
	for _, t := range []struct{ op, test string }{
		{"AffineGrid", "test_affine_grid_2d"},
		{"CausalConvWithState", "test_causal_conv_with_state_silu_with_past_state"},
		{"Col2Im", "test_col2im"},
		{"DFT", "test_dft"},
		{"GridSample", "test_gridsample_bilinear"},
		{"ImageDecoder", "test_image_decoder_decode_png_rgb"},
		{"LinearAttention", "test_linear_attention_gated_delta"},
		{"MelWeightMatrix", "test_melweightmatrix"},
		{"RoiAlign", "test_roialign_aligned_true"},
		{"STFT", "test_stft"},
		{"TfIdfVectorizer", "test_tfidfvectorizer_tf_uniandbigrams_skip5"},
		{"DeformConv", "test_basic_deform_conv_with_padding"},
		{"If", "test_if"},
		{"Loop", "test_loop11"},
		{"NonMaxSuppression", "test_nonmaxsuppression_two_batches"},
		{"Optional", "test_if_opt"},
		{"OptionalGetElement", "test_optional_get_element_tensor"},
		{"OptionalHasElement", "test_optional_has_element_optional_input"},
		{"RegexFullMatch", "test_regex_full_match_basic"},
		{"Scan", "test_scan9_sum"},
		{"SequenceMap", "test_sequence_map_add_1_sequence_1_tensor"},
		{"StringConcat", "test_string_concat"},
		{"StringNormalizer", "test_strnormalizer_export_monday_casesensintive_lower"},
		{"StringSplit", "test_string_split_basic"},
		{"SwiGLU", "test_swiglu"},
		{"TensorScatter", "test_tensorscatter"},
	} {
		nodeTest(t.op, t.test)
	}
	slices.SortStableFunc(cs, func(a, b OpCase) int { return strings.Compare(a.Name, b.Name) })
	return cs
}

// NodeTestsDir is where the ONNX node tests are: $ONNXSHAPE_NODE_TESTS, or
// shared/onnx-node beside the repository, seen from a package directory
// one or two levels down (bench, bench/ort).
func NodeTestsDir() string {
	if d := os.Getenv("ONNXSHAPE_NODE_TESTS"); d != "" {
		return d
	}
	for _, d := range []string{filepath.Join("..", "..", "shared", "onnx-node"), filepath.Join("..", "..", "..", "shared", "onnx-node")} {
		if _, err := os.Stat(d); err == nil {
			return d
		}
	}
	return filepath.Join("..", "..", "shared", "onnx-node")
}
