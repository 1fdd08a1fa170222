// Package bench measures onnxshape on the standard benchmark cases of the
// project: it writes the cases as ONNX node-test folders
// (model.onnx + test_data_set_0/input_K.pb), reads them back, runs them many
// times and reports the median and minimum time of one run, the output bytes,
// the bandwidth and the allocations of a run.
//
// The cases are generated, never committed: `go run ./bench/gen bench-data`
// writes them (about 600 MB of float32 data and models), `go run ./cmd/onnxshape bench
// bench-data` measures them. The onnxruntime comparison lives in the
// separate module bench/ort, so that this module never depends on cgo.
//
// It is supported API for measuring onnxshape on one's own machine and
// models: Zoo (ResNet-50, MobileNetV2, BERT- and GPT-style networks, an int8
// MLP, built in exporters' layouts), OperatorCases (a case for every
// registered operator), ReadCase, RunOurs and Measure. Its case lists grow with the
// operators; the names of existing cases do not change.
package bench

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"

	"github.com/onnxshape/onnxshape/onnx"
	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/tensor"
	"google.golang.org/protobuf/proto"
)

// Opset is the ai.onnx opset of every generated model: recent enough for
// Split's num_outputs and Resize's antialias, and served by onnxruntime 1.30.
const Opset = 21

// irVersion is the IR version that goes with Opset.
const irVersion = 10

// A Standard is one standard case: a single-node model and its inputs.
type Standard struct {
	// Name is the case's folder name, e.g. "transpose_nchw_nhwc".
	Name string
	// Op is the operator the case measures.
	Op string
	// build makes the model's node, inputs, constants and declared outputs
	// for a batch size (the N of NCHW; 8 in the standard cases).
	build func(batch int) caseSpec
}

// caseSpec is a model before it is encoded: one node, or a chain of them.
type caseSpec struct {
	node    *pb.NodeProto
	more    []*pb.NodeProto // the nodes after node, for the chains
	inputs  []named         // graph inputs, written as input_K.pb in this order
	consts  []named         // initializers
	outputs []outputSpec
}

type named struct {
	name string
	t    *tensor.Tensor
}

type outputSpec struct {
	name  string
	dt    tensor.DataType
	shape []int
}

// Standards returns the standard benchmark cases, in the order their list
// lists them.
func Standards() []Standard {
	nchw := func(n int) []int { return []int{n, 64, 112, 112} }
	half := func(n int) []int { return []int{n, 64, 56, 56} }
	pad := func(mode string) func(int) caseSpec {
		return func(n int) caseSpec {
			return unary("Pad", nchw(n), []int{n, 64, 116, 116},
				[]*pb.AttributeProto{attrString("mode", mode)},
				int64Const("pads", 0, 0, 2, 2, 0, 0, 2, 2))
		}
	}
	resize := func(in, out []int, scale float32, attrs ...*pb.AttributeProto) caseSpec {
		c := unary("Resize", in, out, attrs, floatConst("scales", 1, 1, scale, scale))
		c.node.Input = []string{"x", "", "scales"} // roi left out
		return c
	}
	return []Standard{
		{"transpose_nchw_nhwc", "Transpose", func(n int) caseSpec {
			return unary("Transpose", nchw(n), []int{n, 112, 112, 64}, []*pb.AttributeProto{attrInts("perm", 0, 2, 3, 1)})
		}},
		{"transpose_nhwc_nchw", "Transpose", func(n int) caseSpec {
			return unary("Transpose", []int{n, 112, 112, 64}, nchw(n), []*pb.AttributeProto{attrInts("perm", 0, 3, 1, 2)})
		}},
		{"transpose_2d", "Transpose", func(int) caseSpec {
			return unary("Transpose", []int{2048, 2048}, []int{2048, 2048}, nil)
		}},
		{"concat_4_axis1", "Concat", func(n int) caseSpec {
			return concat(4, half(n), 1)
		}},
		{"concat_2_axis3", "Concat", func(n int) caseSpec {
			return concat(2, []int{n, 64, 112, 56}, 3)
		}},
		{"split_4_axis1", "Split", func(n int) caseSpec {
			c := caseSpec{
				node: &pb.NodeProto{OpType: proto.String("Split"), Input: []string{"x"},
					Attribute: []*pb.AttributeProto{attrInt("axis", 1), attrInt("num_outputs", 4)}},
				inputs: []named{randomFloats("x", []int{n, 256, 56, 56})},
			}
			for i := range 4 {
				name := fmt.Sprintf("y%d", i)
				c.node.Output = append(c.node.Output, name)
				c.outputs = append(c.outputs, outputSpec{name, tensor.Float, half(n)})
			}
			return c
		}},
		{"slice_step2", "Slice", func(n int) caseSpec {
			return unary("Slice", nchw(n), half(n), nil,
				int64Const("starts", 0, 0), int64Const("ends", 112, 112),
				int64Const("axes", 2, 3), int64Const("steps", 2, 2))
		}},
		{"pad_constant", "Pad", pad("constant")},
		{"pad_reflect", "Pad", pad("reflect")},
		{"pad_edge", "Pad", pad("edge")},
		{"resize_nearest_2x", "Resize", func(n int) caseSpec {
			return resize(half(n), nchw(n), 2, attrString("mode", "nearest"))
		}},
		{"resize_linear_2x", "Resize", func(n int) caseSpec {
			return resize(half(n), nchw(n), 2, attrString("mode", "linear"))
		}},
		{"resize_cubic_2x", "Resize", func(n int) caseSpec {
			return resize(half(n), nchw(n), 2, attrString("mode", "cubic"))
		}},
		{"resize_linear_antialias_half", "Resize", func(n int) caseSpec {
			return resize(nchw(n), half(n), 0.5, attrString("mode", "linear"), attrInt("antialias", 1))
		}},
		{"depthtospace_dcr", "DepthToSpace", func(n int) caseSpec {
			return unary("DepthToSpace", []int{n, 256, 56, 56}, nchw(n),
				[]*pb.AttributeProto{attrInt("blocksize", 2), attrString("mode", "DCR")})
		}},
		{"depthtospace_crd", "DepthToSpace", func(n int) caseSpec {
			return unary("DepthToSpace", []int{n, 256, 56, 56}, nchw(n),
				[]*pb.AttributeProto{attrInt("blocksize", 2), attrString("mode", "CRD")})
		}},
		{"spacetodepth", "SpaceToDepth", func(n int) caseSpec {
			return unary("SpaceToDepth", nchw(n), []int{n, 256, 56, 56},
				[]*pb.AttributeProto{attrInt("blocksize", 2)})
		}},
		{"tile_1122", "Tile", func(n int) caseSpec {
			return unary("Tile", half(n), nchw(n), nil, int64Const("repeats", 1, 1, 2, 2))
		}},
		{"expand", "Expand", func(n int) caseSpec {
			return unary("Expand", []int{1, 64, 1, 112}, nchw(n), nil, int64Const("shape", int64(n), 64, 112, 112))
		}},
		{"unsqueeze", "Unsqueeze", func(n int) caseSpec {
			return unary("Unsqueeze", nchw(n), []int{n, 1, 64, 112, 112}, nil, int64Const("axes", 1))
		}},
		{"reshape", "Reshape", func(n int) caseSpec {
			return unary("Reshape", nchw(n), []int{n, 64, 112 * 112}, nil, int64Const("shape", int64(n), 64, -1))
		}},
		{"flatten", "Flatten", func(n int) caseSpec {
			return unary("Flatten", nchw(n), []int{n, 64 * 112 * 112}, []*pb.AttributeProto{attrInt("axis", 1)})
		}},
		{"squeeze", "Squeeze", func(n int) caseSpec {
			return unary("Squeeze", []int{n, 1, 64, 112, 112}, nchw(n), nil, int64Const("axes", 1))
		}},
		{"identity", "Identity", func(n int) caseSpec {
			return unary("Identity", nchw(n), nchw(n), nil)
		}},
		{"maxpool_3x3_s2_p1_indices", "MaxPool", func(n int) caseSpec {
			c := unary("MaxPool", nchw(n), half(n), []*pb.AttributeProto{
				attrInts("kernel_shape", 3, 3), attrInts("strides", 2, 2), attrInts("pads", 1, 1, 1, 1)})
			c.node.Output = append(c.node.Output, "indices")
			c.outputs = append(c.outputs, outputSpec{"indices", tensor.Int64, half(n)})
			return c
		}},
		{"maxunpool_2x2_s2", "MaxUnpool", func(n int) caseSpec {
			c := unary("MaxUnpool", half(n), nchw(n), []*pb.AttributeProto{
				attrInts("kernel_shape", 2, 2), attrInts("strides", 2, 2)})
			c.node.Input = append(c.node.Input, "indices")
			c.inputs = append(c.inputs, unpoolIndices("indices", half(n)))
			return c
		}},
		{"reducemean_last_axis", "ReduceMean", func(n int) caseSpec {
			return unary("ReduceMean", nchw(n), []int{n, 64, 112, 1}, nil, int64Const("axes", -1))
		}},
		{"softmax_last_axis", "Softmax", func(n int) caseSpec {
			return unary("Softmax", nchw(n), nchw(n), []*pb.AttributeProto{attrInt("axis", -1)})
		}},
		{"averagepool_3x3_s1_p1", "AveragePool", func(n int) caseSpec {
			return unary("AveragePool", nchw(n), nchw(n), []*pb.AttributeProto{
				attrInts("kernel_shape", 3, 3), attrInts("strides", 1, 1), attrInts("pads", 1, 1, 1, 1)})
		}},
		{"globalaveragepool", "GlobalAveragePool", func(n int) caseSpec {
			return unary("GlobalAveragePool", nchw(n), []int{n, 64, 1, 1}, nil)
		}},
		// Overhead: the cost of a node, not of its bytes.
		{"chain_small_40", "Transpose", func(int) caseSpec { return smallChain(5) }},
		{"chain_small_10000", "Transpose", func(int) caseSpec { return smallChain(1250) }},
		// Overhead: a million nodes, each next to free.
		{"chain_identity_1m", "Identity", func(int) caseSpec {
			return chain(randomFloats("x", []int{1, 3, 8, 8}), []int{1, 3, 8, 8}, slices.Repeat([]link{{"Identity", nil, nil}}, 1_000_000))
		}},
		// Overhead: 60 Transposes of the 25.7 MB tensor (at batch 8), which
		// must hold two tensors at once, not 60.
		{"chain_transpose_60", "Transpose", func(n int) caseSpec {
			var links []link
			for range 30 {
				links = append(links, link{"Transpose", []*pb.AttributeProto{attrInts("perm", 0, 2, 3, 1)}, nil},
					link{"Transpose", []*pb.AttributeProto{attrInts("perm", 0, 3, 1, 2)}, nil})
			}
			return chain(randomFloats("x", nchw(n)), nchw(n), links)
		}},
		// Overhead: Pad with zero pads among the shape operators, 41 nodes.
		{"chain_pad_41", "Transpose", func(int) caseSpec { return padChain() }},
		{"cast_float_float16", "Cast", func(n int) caseSpec {
			c := unary("Cast", nchw(n), nchw(n), []*pb.AttributeProto{attrInt("to", int64(tensor.Float16))})
			c.outputs[0].dt = tensor.Float16
			return c
		}},
		{"gather_rows", "Gather", func(n int) caseSpec {
			// an embedding lookup: n*6250 random rows of a 50000 x 128 table
			c := unary("Gather", []int{50000, 128}, []int{n, 6250, 128}, []*pb.AttributeProto{attrInt("axis", 0)})
			c.node.Input = append(c.node.Input, "indices")
			r := rng("indices", []int{n, 6250})
			idx := make([]int64, n*6250)
			for i := range idx {
				idx[i] = r.Int64N(50000)
			}
			c.inputs = append(c.inputs, named{"indices", tensor.MustFromSlice(idx, n, 6250)})
			return c
		}},
		{"add_broadcast", "Add", func(n int) caseSpec {
			c := unary("Add", nchw(n), nchw(n), nil)
			c.node.Input = append(c.node.Input, "bias")
			c.inputs = append(c.inputs, randomFloats("bias", []int{1, 64, 1, 1}))
			return c
		}},
		{"where", "Where", func(n int) caseSpec {
			c := unary("Where", nchw(n), nchw(n), nil)
			c.node.Input = []string{"cond", "x", "other"}
			c.inputs = []named{randomBools("cond", nchw(n)), c.inputs[0], randomFloats("other", nchw(n))}
			return c
		}},
		// Compute: the matrix products, at fixed sizes.
		{"matmul_16x256x512_512", "MatMul", func(int) caseSpec {
			return unary("MatMul", []int{16, 256, 512}, []int{16, 256, 512}, nil, randomFloats("w", []int{512, 512}))
		}},
		{"gemm_1024", "Gemm", func(int) caseSpec {
			return unary("Gemm", []int{1024, 1024}, []int{1024, 1024}, nil,
				randomFloats("w", []int{1024, 1024}), randomFloats("bias", []int{1024}))
		}},
		// Compute: convolution, the speed table's three cases (weights
		// and bias are initializers).
		{"conv_3x3_64_64_p1", "Conv", func(n int) caseSpec {
			return unary("Conv", half(n), half(n), []*pb.AttributeProto{attrInts("pads", 1, 1, 1, 1)},
				randomFloats("w", []int{64, 64, 3, 3}), randomFloats("b", []int{64}))
		}},
		{"conv_1x1_64_256", "Conv", func(n int) caseSpec {
			return unary("Conv", half(n), []int{n, 256, 56, 56}, nil,
				randomFloats("w", []int{256, 64, 1, 1}), randomFloats("b", []int{256}))
		}},
		{"conv_depthwise_3x3_128", "Conv", func(n int) caseSpec {
			return unary("Conv", []int{n, 128, 56, 56}, []int{n, 128, 56, 56},
				[]*pb.AttributeProto{attrInt("group", 128), attrInts("pads", 1, 1, 1, 1)},
				randomFloats("w", []int{128, 1, 3, 3}), randomFloats("b", []int{128}))
		}},
		// Compute: normalizations. LayerNormalization over the hidden size
		// of a transformer (BERT-base: 128 tokens of 768), with scale and
		// bias; BatchNormalization's inference over the NCHW tensor.
		{"layernorm_hidden", "LayerNormalization", func(n int) caseSpec {
			shape := []int{n, 128, 768}
			return unary("LayerNormalization", shape, shape, []*pb.AttributeProto{attrInt("axis", -1)},
				randomFloats("scale", []int{768}), randomFloats("bias", []int{768}))
		}},
		{"batchnorm_inference", "BatchNormalization", func(n int) caseSpec {
			return unary("BatchNormalization", nchw(n), nchw(n), nil,
				randomFloats("scale", []int{64}), randomFloats("bias", []int{64}), randomFloats("mean", []int{64}),
				positiveFloats("var", []int{64}))
		}},
		// Recurrent: one LSTM layer, hidden 128, input 64, 100 steps, batch 8
		// (whatever the batch of the other cases), weights as initializers
		// in [-0.1, 0.1), a trained layer's scale (about 1/sqrt(hidden)):
		// weights in [-1, 1) make the layer chaotic, and any two engines'
		// rounding differences grow over the steps to the values' size.
		{"lstm_h128_i64_s100_b8", "LSTM", func(int) caseSpec {
			return unary("LSTM", []int{100, 8, 64}, []int{100, 1, 8, 128}, []*pb.AttributeProto{attrInt("hidden_size", 128)},
				scaled(randomFloats("W", []int{1, 512, 64}), 0.1), scaled(randomFloats("R", []int{1, 512, 128}), 0.1),
				scaled(randomFloats("B", []int{1, 1024}), 0.1))
		}},
		// The same layer as a GRU, linear_before_reset 1 as PyTorch exports
		// it (the reset gate scales the recurrent product, h's product apart).
		{"gru_h128_i64_s100_b8", "GRU", func(int) caseSpec {
			return unary("GRU", []int{100, 8, 64}, []int{100, 1, 8, 128}, []*pb.AttributeProto{attrInt("hidden_size", 128), attrInt("linear_before_reset", 1)},
				scaled(randomFloats("W", []int{1, 384, 64}), 0.1), scaled(randomFloats("R", []int{1, 384, 128}), 0.1),
				scaled(randomFloats("B", []int{1, 768}), 0.1))
		}},
	}
}

// link is one node of a chain: its operator, attributes and constant
// inputs after the chain's value.
type link struct {
	op     string
	attrs  []*pb.AttributeProto
	consts []string
}

// chain runs x through the links in turn; the last one's output y has
// shape out. Constant inputs are initializers named in consts.
func chain(x named, out []int, links []link, consts ...named) caseSpec {
	c := caseSpec{inputs: []named{x}, consts: consts, outputs: []outputSpec{{"y", tensor.Float, out}}}
	prev := x.name
	for i, l := range links {
		name := fmt.Sprintf("t%d", i+1)
		if i == len(links)-1 {
			name = "y"
		}
		nd := &pb.NodeProto{OpType: proto.String(l.op), Input: append([]string{prev}, l.consts...), Output: []string{name}, Attribute: l.attrs}
		if i > 0 {
			nd.Name = proto.String(name)
			c.more = append(c.more, nd)
		} else {
			c.node = nd
		}
		prev = name
	}
	return c
}

// smallChain is rounds of eight small shape operators on a [1,3,8,8]
// float tensor: two Transposes, Unsqueeze, Squeeze, two Reshapes, a Slice
// reversing W and an Identity. Each round ends at the shape it began with.
func smallChain(rounds int) caseSpec {
	round := []link{
		{"Transpose", []*pb.AttributeProto{attrInts("perm", 0, 2, 3, 1)}, nil},
		{"Transpose", []*pb.AttributeProto{attrInts("perm", 0, 3, 1, 2)}, nil},
		{"Unsqueeze", nil, []string{"axes0"}},
		{"Squeeze", nil, []string{"axes0"}},
		{"Reshape", nil, []string{"flat"}},
		{"Reshape", nil, []string{"square"}},
		{"Slice", nil, []string{"last", "before_first", "axis3", "back"}},
		{"Identity", nil, nil},
	}
	var links []link
	for range rounds {
		links = append(links, round...)
	}
	return chain(randomFloats("x", []int{1, 3, 8, 8}), []int{1, 3, 8, 8}, links,
		int64Const("axes0", 0), int64Const("flat", 1, 3, 64), int64Const("square", 1, 3, 8, 8),
		int64Const("last", 7), int64Const("before_first", -9), int64Const("axis3", 3), int64Const("back", -1))
}

// padChain is 41 small nodes on a [1,3,8,8] float tensor: four rounds of
// smallChain's eight shape operators with a Pad of zero pads after the
// Unsqueeze/Squeeze pair and after the Slice, then an Identity (the audit of
// Pad among the prepared operators).
func padChain() caseSpec {
	round := []link{
		{"Transpose", []*pb.AttributeProto{attrInts("perm", 0, 2, 3, 1)}, nil},
		{"Transpose", []*pb.AttributeProto{attrInts("perm", 0, 3, 1, 2)}, nil},
		{"Unsqueeze", nil, []string{"axes0"}},
		{"Squeeze", nil, []string{"axes0"}},
		{"Pad", nil, []string{"zero_pads"}},
		{"Reshape", nil, []string{"flat"}},
		{"Reshape", nil, []string{"square"}},
		{"Slice", nil, []string{"last", "before_first", "axis3", "back"}},
		{"Pad", nil, []string{"zero_pads"}},
		{"Identity", nil, nil},
	}
	var links []link
	for range 4 {
		links = append(links, round...)
	}
	links = append(links, link{"Identity", nil, nil})
	return chain(randomFloats("x", []int{1, 3, 8, 8}), []int{1, 3, 8, 8}, links,
		int64Const("axes0", 0), int64Const("flat", 1, 3, 64), int64Const("square", 1, 3, 8, 8),
		int64Const("last", 7), int64Const("before_first", -9), int64Const("axis3", 3), int64Const("back", -1),
		int64Const("zero_pads", 0, 0, 0, 0, 0, 0, 0, 0))
}

// randomBools is a bool tensor of random values, the same for the same
// name and shape on every machine.
func randomBools(name string, shape []int) named {
	t := tensor.MustNew(tensor.Bool, shape...)
	v, _ := tensor.Data[bool](t)
	r := rng(name, shape)
	for i := range v {
		v[i] = r.IntN(2) == 0
	}
	return named{name, t}
}

// unary is a node with one float input x of shape in, one float output y of
// shape out, and constant inputs (initializers) after x.
func unary(op string, in, out []int, attrs []*pb.AttributeProto, consts ...named) caseSpec {
	c := caseSpec{
		node:    &pb.NodeProto{OpType: proto.String(op), Input: []string{"x"}, Output: []string{"y"}, Attribute: attrs},
		inputs:  []named{randomFloats("x", in)},
		outputs: []outputSpec{{"y", tensor.Float, out}},
	}
	for _, k := range consts {
		c.node.Input = append(c.node.Input, k.name)
		c.consts = append(c.consts, k)
	}
	return c
}

// concat joins k random inputs of one shape along axis.
func concat(k int, shape []int, axis int) caseSpec {
	out := append([]int{}, shape...)
	out[axis] *= k
	c := caseSpec{
		node: &pb.NodeProto{OpType: proto.String("Concat"), Output: []string{"y"},
			Attribute: []*pb.AttributeProto{attrInt("axis", int64(axis))}},
		outputs: []outputSpec{{"y", tensor.Float, out}},
	}
	for i := range k {
		x := randomFloats(fmt.Sprintf("x%d", i), shape)
		c.node.Input = append(c.node.Input, x.name)
		c.inputs = append(c.inputs, x)
	}
	return c
}

// randomFloats is a float32 tensor of uniform values in [-1, 1), the same
// for the same name and shape on every machine.
func randomFloats(name string, shape []int) named {
	t := tensor.MustNew(tensor.Float, shape...)
	v, _ := tensor.Data[float32](t)
	r := rng(name, shape)
	for i := range v {
		v[i] = 2*r.Float32() - 1
	}
	return named{name, t}
}

// positiveFloats is a float32 tensor of uniform values in [0.5, 1.5), a
// variance.
func positiveFloats(name string, shape []int) named {
	x := randomFloats(name, shape)
	v, _ := tensor.Data[float32](x.t)
	for i := range v {
		v[i] = 1 + v[i]/2
	}
	return x
}

// scaled multiplies a float32 tensor's values by s, in place.
func scaled(x named, s float32) named {
	v, _ := tensor.Data[float32](x.t)
	for i := range v {
		v[i] *= s
	}
	return x
}

// unpoolIndices are MaxUnpool indices for a 2x2, stride-2 pooling of an
// input of shape [N, C, 2H, 2W]: for each pooled element, the flat index of
// one element of its window, as MaxPool would report it.
func unpoolIndices(name string, pooled []int) named {
	n, c, h, w := pooled[0], pooled[1], pooled[2], pooled[3]
	t := tensor.MustNew(tensor.Int64, pooled...)
	v, _ := tensor.Data[int64](t)
	r := rng(name, pooled)
	i := 0
	for plane := range n * c {
		for y := range h {
			for x := range w {
				dy, dx := r.IntN(2), r.IntN(2)
				v[i] = int64((plane*2*h+2*y+dy)*2*w + 2*x + dx)
				i++
			}
		}
	}
	return named{name, t}
}

func rng(name string, shape []int) *rand.Rand {
	h := fnv.New64a()
	fmt.Fprint(h, name, shape)
	return rand.New(rand.NewPCG(h.Sum64(), 7))
}

func int64Const(name string, v ...int64) named {
	return named{name, tensor.MustFromSlice(v)}
}

func floatConst(name string, v ...float32) named {
	return named{name, tensor.MustFromSlice(v)}
}

func attrInt(name string, v int64) *pb.AttributeProto {
	return &pb.AttributeProto{Name: proto.String(name), Type: pb.AttributeProto_INT.Enum(), I: proto.Int64(v)}
}

func attrInts(name string, v ...int64) *pb.AttributeProto {
	return &pb.AttributeProto{Name: proto.String(name), Type: pb.AttributeProto_INTS.Enum(), Ints: v}
}

func attrFloat(name string, v float32) *pb.AttributeProto {
	return &pb.AttributeProto{Name: proto.String(name), Type: pb.AttributeProto_FLOAT.Enum(), F: proto.Float32(v)}
}

func attrString(name, v string) *pb.AttributeProto {
	return &pb.AttributeProto{Name: proto.String(name), Type: pb.AttributeProto_STRING.Enum(), S: []byte(v)}
}

// model wraps the case's node in a model.
func (c caseSpec) model(name string) (*pb.ModelProto, error) {
	g := &pb.GraphProto{Name: proto.String(name), Node: append([]*pb.NodeProto{c.node}, c.more...)}
	c.node.Name = proto.String(name)
	for _, in := range c.inputs {
		g.Input = append(g.Input, onnx.TensorValueInfo(in.name, in.t.DataType(), in.t.Shape()))
	}
	for _, k := range c.consts {
		tp, err := onnx.TensorToProto(k.t, k.name)
		if err != nil {
			return nil, err
		}
		g.Initializer = append(g.Initializer, tp)
	}
	for _, out := range c.outputs {
		if out.shape == nil {
			// To be learnt (OpCase.Case): a name only.
			g.Output = append(g.Output, &pb.ValueInfoProto{Name: proto.String(out.name)})
			continue
		}
		g.Output = append(g.Output, onnx.TensorValueInfo(out.name, out.dt, out.shape))
	}
	return &pb.ModelProto{
		IrVersion:    proto.Int64(irVersion),
		ProducerName: proto.String("onnxshape bench"),
		OpsetImport:  []*pb.OperatorSetIdProto{{Domain: proto.String(""), Version: proto.Int64(Opset)}},
		Graph:        g,
	}, nil
}

// Write writes the case with batch size batch (8 in the standard cases) as
// root/<Name>/model.onnx and root/<Name>/test_data_set_0/input_K.pb. No
// output_K.pb is written: the expected values come from the differential
// check against onnxruntime (bench/ort).
func (s Standard) Write(root string, batch int) error {
	c := s.build(batch)
	m, err := c.model(s.Name)
	if err != nil {
		return fmt.Errorf("%s: %w", s.Name, err)
	}
	b, err := onnx.EncodeModel(m)
	if err != nil {
		return fmt.Errorf("%s: %w", s.Name, err)
	}
	dir := filepath.Join(root, s.Name)
	data := filepath.Join(dir, "test_data_set_0")
	if err := os.MkdirAll(data, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "model.onnx"), b, 0o644); err != nil {
		return err
	}
	for i, in := range c.inputs {
		b, err := onnx.EncodeValue(in.t, in.name)
		if err != nil {
			return fmt.Errorf("%s: input %s: %w", s.Name, in.name, err)
		}
		if err := os.WriteFile(filepath.Join(data, fmt.Sprintf("input_%d.pb", i)), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}
