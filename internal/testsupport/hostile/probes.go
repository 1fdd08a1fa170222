package hostile

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"

	"google.golang.org/protobuf/proto"

	"github.com/onnxshape/onnxshape/onnx"
	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/tensor"
)

// Probe is a hostile model for the in-process tests of the loader, infer
// and the runner (graph's and infer's TestHostileProbes): the bytes of a
// model file and the inputs to run it on. Each must be refused with a
// one-line error, or run with a bounded result, within seconds and
// without allocating in proportion to the sizes it announces.
type Probe struct {
	Name   string
	Model  []byte
	Inputs map[string]*tensor.Tensor
	// Runs marks a probe that may also succeed (a legitimate but large
	// graph, a Loop the context stops).
	Runs bool
	// Churn marks a probe whose allocations (not live memory) grow with
	// the time it runs until the context stops it: a Loop of 10^12 steps
	// allocates each step's values and lets them go.
	Churn bool
}

// Probes returns the in-process probes; dir is a folder the external-data
// probes may point out of.
func Probes() []Probe {
	var ps []Probe
	add := func(name string, m *pb.ModelProto, in map[string]*tensor.Tensor, runs bool) {
		b, err := onnx.EncodeModel(m)
		if err != nil {
			panic(fmt.Sprintf("probe %s: %v", name, err))
		}
		ps = append(ps, Probe{Name: name, Model: b, Inputs: in, Runs: runs})
	}
	x1 := map[string]*tensor.Tensor{"x": tensor.MustFromSlice([]float32{1}, 1)}
	in1 := []*pb.ValueInfoProto{info("x", tensor.Float, 1)}
	unary := func(op string, attrs ...*pb.AttributeProto) []*pb.NodeProto {
		return []*pb.NodeProto{node(op, []string{"x"}, []string{"y"}, attrs...)}
	}

	// Dimensions near 2^63, negative, or whose product overflows.
	add("input-dim-2^63-1", newModel(13, unary("Relu"), nil, []*pb.ValueInfoProto{info("x", tensor.Float, 1<<63-1)}, "y"), x1, false)
	add("input-dims-product-overflows", newModel(13, unary("Relu"), nil, []*pb.ValueInfoProto{info("x", tensor.Float, 1<<40, 1<<40)}, "y"), x1, false)
	add("initializer-dims-2^62x4", newModel(13, []*pb.NodeProto{node("Add", []string{"x", "w"}, []string{"y"})},
		[]*pb.TensorProto{{Name: proto.String("w"), DataType: proto.Int32(int32(tensor.Float)), Dims: []int64{1 << 62, 4}}}, in1, "y"), x1, false)
	add("initializer-negative-dim", newModel(13, []*pb.NodeProto{node("Add", []string{"x", "w"}, []string{"y"})},
		[]*pb.TensorProto{{Name: proto.String("w"), DataType: proto.Int32(int32(tensor.Float)), Dims: []int64{-1, 4}, FloatData: []float32{1, 2, 3, 4}}}, in1, "y"), x1, false)
	add("initializer-dims-product-overflows", newModel(13, []*pb.NodeProto{node("Add", []string{"x", "w"}, []string{"y"})},
		[]*pb.TensorProto{{Name: proto.String("w"), DataType: proto.Int32(int32(tensor.Float)), Dims: []int64{1 << 32, 1 << 32, 1 << 32}, RawData: []byte{0, 0, 0, 0}}}, in1, "y"), x1, false)
	// A raw_data that announces one length and holds another.
	add("raw-data-shorter-than-dims", newModel(13, []*pb.NodeProto{node("Add", []string{"x", "w"}, []string{"y"})},
		[]*pb.TensorProto{{Name: proto.String("w"), DataType: proto.Int32(int32(tensor.Float)), Dims: []int64{1 << 20}, RawData: []byte{0, 0, 0, 0}}}, in1, "y"), x1, false)

	// Graph structure.
	add("cycle", newModel(13, []*pb.NodeProto{node("Add", []string{"x", "b"}, []string{"a"}), node("Relu", []string{"a"}, []string{"b"}),
		node("Identity", []string{"a"}, []string{"y"})}, nil, in1, "y"), x1, false)
	add("self-loop", newModel(13, []*pb.NodeProto{node("Add", []string{"x", "y"}, []string{"y"})}, nil, in1, "y"), x1, false)
	add("value-produced-twice", newModel(13, []*pb.NodeProto{node("Relu", []string{"x"}, []string{"y"}), node("Neg", []string{"x"}, []string{"y"})}, nil, in1, "y"), x1, false)
	add("output-shadows-input", newModel(13, []*pb.NodeProto{node("Relu", []string{"x"}, []string{"x"})}, nil, in1, "x"), x1, false)
	add("undefined-input", newModel(13, []*pb.NodeProto{node("Add", []string{"x", "nowhere"}, []string{"y"})}, nil, in1, "y"), x1, false)
	chain := make([]*pb.NodeProto, 100000)
	for i := range chain {
		src, dst := fmt.Sprintf("v%d", i), fmt.Sprintf("v%d", i+1)
		if i == 0 {
			src = "x"
		}
		if i == len(chain)-1 {
			dst = "y"
		}
		chain[i] = node("Neg", []string{src}, []string{dst})
	}
	add("10^5-nodes", newModel(13, chain, nil, in1, "y"), x1, true)
	ps = append(ps, Probe{Name: "if-nested-10^4-deep", Model: nestedGraphs(10000), Runs: true})

	// Attributes and tensors that announce more than they hold.
	add("constant-attribute-2^40-floats", newModel(13, []*pb.NodeProto{node("Constant", nil, []string{"c"},
		&pb.AttributeProto{Name: proto.String("value"), Type: pb.AttributeProto_TENSOR.Enum(),
			T: &pb.TensorProto{DataType: proto.Int32(int32(tensor.Float)), Dims: []int64{1 << 40}}}), node("Add", []string{"x", "c"}, []string{"y"})}, nil, in1, "y"), x1, false)
	add("constant-of-shape-value-2^40", newModel(13, []*pb.NodeProto{node("ConstantOfShape", []string{"s"}, []string{"y"},
		&pb.AttributeProto{Name: proto.String("value"), Type: pb.AttributeProto_TENSOR.Enum(),
			T: &pb.TensorProto{DataType: proto.Int32(int32(tensor.Float)), Dims: []int64{1 << 40}}})},
		[]*pb.TensorProto{int64sTensor("s", 2)}, in1, "y"), x1, false)
	add("string-initializer-count-2^40", newModel(13, []*pb.NodeProto{node("Identity", []string{"w"}, []string{"y"})},
		[]*pb.TensorProto{{Name: proto.String("w"), DataType: proto.Int32(int32(tensor.String)), Dims: []int64{1 << 40}, StringData: [][]byte{[]byte("a")}}}, in1, "y"), x1, false)
	ps = append(ps, Probe{Name: "string-of-length-2^40", Model: giantString(), Inputs: x1})

	// External data out of the model's folder.
	for _, loc := range []string{"../../../../etc/passwd", "/etc/passwd", "sub/../../escape.bin", "a\x00b"} {
		add("external-data-"+loc, newModel(13, []*pb.NodeProto{node("Identity", []string{"w"}, []string{"y"})},
			[]*pb.TensorProto{external("w", loc, 4)}, in1, "y"), x1, false)
	}

	// Truncated and garbage protobuf.
	good, _ := onnx.EncodeModel(newModel(13, unary("Relu"), nil, in1, "y"))
	for _, cut := range []int{1, len(good) / 3, len(good) / 2, len(good) - 1} {
		ps = append(ps, Probe{Name: fmt.Sprintf("truncated-at-%d-of-%d", cut, len(good)), Model: good[:cut], Inputs: x1})
	}
	garbage := make([]byte, 4096)
	for i := range garbage {
		garbage[i] = byte(i*7919 + i>>3)
	}
	ps = append(ps, Probe{Name: "garbage-4KiB", Model: garbage, Inputs: x1})
	// A length prefix of 2^62 for the graph field.
	ps = append(ps, Probe{Name: "length-prefix-2^62", Model: append(binary.AppendUvarint([]byte{0x3a}, 1<<62), 1, 2, 3), Inputs: x1})

	// Operators asked for 10^12 elements or more.
	big := func(name string, nodes []*pb.NodeProto, inits ...*pb.TensorProto) {
		add(name, newModel(18, nodes, inits, in1, "y"), x1, false)
	}
	big("reshape-to-10^12", []*pb.NodeProto{node("Reshape", []string{"x", "s"}, []string{"y"})}, int64sTensor("s", 1000000, 1000000))
	big("expand-to-10^12", []*pb.NodeProto{node("Expand", []string{"x", "s"}, []string{"y"})}, int64sTensor("s", 1000000, 1000000))
	big("expand-to-2^63-1", []*pb.NodeProto{node("Expand", []string{"x", "s"}, []string{"y"})}, int64sTensor("s", 1<<63-1))
	big("expand-product-overflows", []*pb.NodeProto{node("Expand", []string{"x", "s"}, []string{"y"})}, int64sTensor("s", 1<<32, 1<<32, 1<<32))
	big("tile-10^12", []*pb.NodeProto{node("Tile", []string{"x", "s"}, []string{"y"})}, int64sTensor("s", 1000000000000))
	big("constant-of-shape-10^12", []*pb.NodeProto{node("ConstantOfShape", []string{"s"}, []string{"c"}), node("Add", []string{"x", "c"}, []string{"y"})}, int64sTensor("s", 1000000, 1000000))
	big("constant-of-shape-negative", []*pb.NodeProto{node("ConstantOfShape", []string{"s"}, []string{"c"}), node("Add", []string{"x", "c"}, []string{"y"})}, int64sTensor("s", -5, 3))
	big("range-10^12", []*pb.NodeProto{node("Range", []string{"a", "b", "d"}, []string{"r"}), node("Cast", []string{"r"}, []string{"y"}, i64("to", int64(tensor.Float)))},
		&pb.TensorProto{Name: proto.String("a"), DataType: proto.Int32(int32(tensor.Int64)), Int64Data: []int64{0}},
		&pb.TensorProto{Name: proto.String("b"), DataType: proto.Int32(int32(tensor.Int64)), Int64Data: []int64{1000000000000}},
		&pb.TensorProto{Name: proto.String("d"), DataType: proto.Int32(int32(tensor.Int64)), Int64Data: []int64{1}})
	big("range-float-step-tiny", []*pb.NodeProto{node("Range", []string{"a", "b", "d"}, []string{"y"})},
		&pb.TensorProto{Name: proto.String("a"), DataType: proto.Int32(int32(tensor.Float)), FloatData: []float32{0}},
		&pb.TensorProto{Name: proto.String("b"), DataType: proto.Int32(int32(tensor.Float)), FloatData: []float32{1}},
		&pb.TensorProto{Name: proto.String("d"), DataType: proto.Int32(int32(tensor.Float)), FloatData: []float32{1e-30}})
	big("pad-2^40", []*pb.NodeProto{node("Pad", []string{"x", "p"}, []string{"y"})}, int64sTensor("p", 0, 1<<40))
	// Crops 2^62 of the one element and pads as many back: an output of
	// one element, which may be refused or computed.
	add("pad-2^62-negative", newModel(18, []*pb.NodeProto{node("Pad", []string{"x", "p"}, []string{"y"})}, []*pb.TensorProto{int64sTensor("p", -(1 << 62), 1<<62)}, in1, "y"), x1, true)
	big("resize-sizes-10^12", []*pb.NodeProto{node("Resize", []string{"x4", "", "", "s"}, []string{"r"}), node("Identity", []string{"r"}, []string{"y"}),
		node("Reshape", []string{"x", "four"}, []string{"x4"})}, int64sTensor("s", 1, 1, 1000000, 1000000), int64sTensor("four", 1, 1, 1, 1))
	big("resize-scales-1e30", []*pb.NodeProto{node("Reshape", []string{"x", "four"}, []string{"x4"}), node("Resize", []string{"x4", "", "s"}, []string{"y"})},
		floatsTensor("s", 1, 1, 1e30, 1e30), int64sTensor("four", 1, 1, 1, 1))
	big("onehot-depth-10^12", []*pb.NodeProto{node("Cast", []string{"x"}, []string{"i"}, i64("to", int64(tensor.Int64))), node("OneHot", []string{"i", "d", "v"}, []string{"y"})},
		int64sTensor("d", 1000000000000), floatsTensor("v", 0, 1))
	add("eyelike-k-2^62", newModel(18, []*pb.NodeProto{node("Reshape", []string{"x", "s"}, []string{"x2"}), node("EyeLike", []string{"x2"}, []string{"y"}, i64("k", 1<<62))}, []*pb.TensorProto{int64sTensor("s", 1, 1)}, in1, "y"), x1, true)
	big("gather-index-2^62", []*pb.NodeProto{node("Gather", []string{"x", "i"}, []string{"y"})}, int64sTensor("i", 1<<62))
	add("slice-steps-int64-min", newModel(18, []*pb.NodeProto{node("Slice", []string{"x", "a", "b", "ax", "st"}, []string{"y"})}, []*pb.TensorProto{
		int64sTensor("a", -1<<63), int64sTensor("b", 1<<63-1), int64sTensor("ax", 0), int64sTensor("st", -1<<63)}, in1, "y"), x1, true)
	big("split-into-2^40", []*pb.NodeProto{node("Split", []string{"x"}, []string{"y"}, i64("num_outputs", 1<<40))})
	big("topk-k-2^62", []*pb.NodeProto{node("TopK", []string{"x", "k"}, []string{"y", "i"})}, int64sTensor("k", 1<<62))

	// Loop and Scan counts of 10^12: a scan output would stack 10^12
	// elements, refused after the first iteration; without one, the run
	// stops on its context.
	body := func(scanOut bool) *pb.GraphProto {
		g := &pb.GraphProto{Name: proto.String("body"),
			Node:   []*pb.NodeProto{node("Identity", []string{"c"}, []string{"c_out"}), node("Identity", []string{"v"}, []string{"v_out"})},
			Input:  []*pb.ValueInfoProto{info("i", tensor.Int64), info("c", tensor.Bool), info("v", tensor.Float, 1)},
			Output: []*pb.ValueInfoProto{info("c_out", tensor.Bool), info("v_out", tensor.Float, 1)}}
		if scanOut {
			g.Node = append(g.Node, node("Identity", []string{"v"}, []string{"s_out"}))
			g.Output = append(g.Output, info("s_out", tensor.Float, 1))
		}
		return g
	}
	count := &pb.TensorProto{Name: proto.String("m"), DataType: proto.Int32(int32(tensor.Int64)), Int64Data: []int64{1000000000000}}
	add("loop-10^12-scan-output", newModel(16, []*pb.NodeProto{node("Loop", []string{"m", "", "x"}, []string{"v", "y"}, graphAttr("body", body(true)))},
		[]*pb.TensorProto{count}, in1, "y"), x1, false)
	add("loop-10^12-no-output", newModel(16, []*pb.NodeProto{node("Loop", []string{"m", "", "x"}, []string{"y"}, graphAttr("body", body(false)))},
		[]*pb.TensorProto{count}, in1, "y"), x1, true)
	ps[len(ps)-1].Churn = true
	scanBody := &pb.GraphProto{Name: proto.String("scan"),
		Node:   []*pb.NodeProto{node("Identity", []string{"s"}, []string{"o"})},
		Input:  []*pb.ValueInfoProto{info("s", tensor.Float, 1)},
		Output: []*pb.ValueInfoProto{info("o", tensor.Float, 1)}}
	add("scan-10^12-steps", newModel(16, []*pb.NodeProto{
		node("Expand", []string{"x", "shape"}, []string{"xs"}),
		node("Scan", []string{"xs"}, []string{"y"}, i64("num_scan_inputs", 1), graphAttr("body", scanBody))},
		[]*pb.TensorProto{int64sTensor("shape", 1000000000000, 1)}, in1, "y"), x1, false)
	return append(ps, operatorProbes()...)
}

// giantString encodes a model whose one initializer is a string tensor
// whose one string announces a length of 2^40 bytes and holds three.
func giantString() []byte {
	field := func(b []byte, num uint64, v []byte) []byte {
		b = protowireTag(b, num, 2)
		b = binary.AppendUvarint(b, uint64(len(v)))
		return append(b, v...)
	}
	varint := func(b []byte, num, v uint64) []byte {
		b = protowireTag(b, num, 0)
		return binary.AppendUvarint(b, v)
	}
	// TensorProto: dims (1) = 1, data_type (2) = 8, string_data (6) announcing 2^40, name (8).
	var tp []byte
	tp = varint(tp, 1, 1)
	tp = varint(tp, 2, uint64(tensor.String))
	tp = field(tp, 8, []byte("w"))
	tp = protowireTag(tp, 6, 2)
	tp = binary.AppendUvarint(tp, 1<<40)
	tp = append(tp, "abc"...)
	// GraphProto: initializer (5).
	g := field(nil, 5, tp)
	// ModelProto: ir_version (1) = 8, graph (7).
	m := varint(nil, 1, 8)
	m = field(m, 8, field(varint(nil, 2, 13), 1, nil)) // opset_import {domain "", version 13}
	return field(m, 7, g)
}

// probeClasses adds the in-process probes to the corpus, each run by the
// command (refused, or for the probes that may run, run with a bounded
// preview) and checked (a report of at most one line on stderr). The
// Loop without outputs that only a context stops runs with run's
// --timeout, which must stop it with one line.
func (w *writer) probeClasses() {
	x := w.npy("probe-x.npy", "<f4", []int64{1}, []byte{0, 0, 0x80, 0x3f})
	dir := w.path("probes")
	w.fail(os.MkdirAll(dir, 0o755))
	w.fail(os.WriteFile(w.path("escape.bin"), make([]byte, 16), 0o644))
	for i, p := range Probes() {
		path := filepath.Join(dir, fmt.Sprintf("probe%02d.onnx", i))
		w.fail(os.WriteFile(path, p.Model, 0o644))
		class := "in-process probe " + p.Name + " (graph's TestHostileProbes)"
		exits := []int{1}
		if p.Runs {
			exits = []int{0, 1}
		}
		args := []string{"run", path}
		if p.Inputs != nil {
			args = append(args, "--input", "x="+x)
		}
		if p.Churn {
			args, exits = append(args, "--timeout", "1s"), []int{1}
		}
		w.add(Case{Name: "probe-run-" + p.Name, Class: class, Args: args, Exits: exits, MaxStdout: 1 << 16})
		w.add(Case{Name: "probe-check-" + p.Name, Class: class, Args: []string{"check", path}, Exits: []int{0, 1, 2, 3}, MaxStdout: 1 << 20, Report: true})
	}
}
