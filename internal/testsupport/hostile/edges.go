package hostile

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"google.golang.org/protobuf/proto"

	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/tensor"
)

// edgeClasses are the cases of the second hostile-file audit: the commands around the runner,
// the reference engine and the defaults.
func (w *writer) edgeClasses() {
	// plan builds zero-filled inputs: an input declared [2^40 3], or
	// given that shape, is refused before it is made.
	declared := w.model("plan-huge-input.onnx", newModel(13, []*pb.NodeProto{node("Identity", []string{"x"}, []string{"y"})}, nil,
		[]*pb.ValueInfoProto{info("x", tensor.Float, 1<<40, 3)}, "y"))
	symbolic := w.model("plan-any-input.onnx", newModel(13, []*pb.NodeProto{node("Identity", []string{"x"}, []string{"y"})}, nil,
		[]*pb.ValueInfoProto{info("x", tensor.Float)}, "y"))
	const plan = "plan: zero-filled inputs built without a cap"
	w.add(Case{Name: "plan-declared-2^40x3", Class: plan, Args: []string{"plan", declared}})
	w.add(Case{Name: "plan-declared-2^40x3-max-bytes", Class: plan, Args: []string{"plan", declared, "--max-bytes", "1000000"}})
	w.add(Case{Name: "plan-shape-2^40x3", Class: plan, Args: []string{"plan", symbolic, "--shape", "x=1099511627776,3"}})
	w.add(Case{Name: "plan-shape-2^40x3-max-run-bytes", Class: plan,
		Args: []string{"plan", symbolic, "--shape", "x=1099511627776,3", "--max-run-bytes", "1000000"}})
	w.add(Case{Name: "plan-shape-no-cap-max-run-bytes", Class: plan,
		Args: []string{"plan", symbolic, "--shape", "x=100000,3000", "--max-bytes", "-1", "--max-run-bytes", "1000000"}})

	// Errors over 1 MiB vanished: a cycle of 100,000 nodes, a node name of
	// 10 MiB. Each is one bounded line now.
	const cycleNodes = 100000
	cycle := make([]*pb.NodeProto, cycleNodes)
	for i := range cycle {
		cycle[i] = node("Identity", []string{"v" + strconv.Itoa((i+cycleNodes-1)%cycleNodes)}, []string{"v" + strconv.Itoa(i)})
		cycle[i].Name = proto.String(fmt.Sprintf("node-%06d", i))
	}
	cyclePath := w.model("cycle-100k.onnx", newModel(13, cycle, nil, nil, "v0"))
	const long = "errors: an error line over 1 MiB gave nothing on stderr"
	w.add(Case{Name: "cycle-100k-nodes", Class: long, Args: []string{"run", cyclePath}})
	w.add(Case{Name: "cycle-100k-nodes-check", Class: long + " (check)", Args: []string{"check", cyclePath},
		Exits: []int{1, 2}, MaxStdout: 1 << 16, Report: true})
	named := node("Identity", nil, []string{"y"}) // no input: refused, naming the node
	named.Name = proto.String(strings.Repeat("n", 10<<20))
	namePath := w.model("name-10MiB.onnx", newModel(13, []*pb.NodeProto{named}, nil, nil, "y"))
	w.add(Case{Name: "node-name-10MiB", Class: long, Args: []string{"run", namePath}})
	w.add(Case{Name: "node-name-10MiB-plan", Class: long, Args: []string{"plan", namePath}})
	w.add(Case{Name: "node-name-10MiB-check", Class: long + " (check: its findings)", Args: []string{"check", namePath},
		Exits: []int{1}, MaxStdout: 1 << 16, Report: true})

	// fold: a total bound, the per-tensor cap, refusals, a pipe as OUT,
	// external data in a branch.
	const foldClass = "fold: no total bound, caps bypassed, refusals with status 0, pipes, external data in subgraphs"
	var consts []*pb.NodeProto
	var outs []*pb.ValueInfoProto
	for i := range 300 {
		consts = append(consts, node("ConstantOfShape", []string{"shape"}, []string{"c" + strconv.Itoa(i)}))
		outs = append(outs, &pb.ValueInfoProto{Name: proto.String("c" + strconv.Itoa(i))})
	}
	many := newModel(13, consts, []*pb.TensorProto{int64sTensor("shape", 15<<18)}, nil, "c0") // 15 MiB of float each
	many.Graph.Output = outs
	w.fail(os.MkdirAll(w.path("fold"), 0o755))
	manyPath := w.model(filepath.Join("fold", "many.onnx"), many)
	// Under a total of 32 MiB: the default (256 MiB) works the same way
	// but writes a 256 MiB OUT, too slow for a busy CI machine.
	w.add(Case{Name: "fold-300-constants-15MiB", Class: foldClass,
		Args:  []string{"fold", manyPath, "-o", w.path(filepath.Join("fold", "many-out.onnx")), "--max-fold-total-bytes", "33554432"},
		Exits: []int{0}, MaxStdout: 1 << 12})
	huge := newModel(13, []*pb.NodeProto{node("Expand", []string{"one", "shape"}, []string{"y"})},
		[]*pb.TensorProto{int64sTensor("one", 1), int64sTensor("shape", 3<<27)}, nil, "y") // 3 GiB of int64
	w.add(Case{Name: "fold-max-fold-bytes-10G", Class: foldClass,
		Args: []string{"fold", w.model(filepath.Join("fold", "huge.onnx"), huge), "-o", w.path(filepath.Join("fold", "huge-out.onnx")),
			"--max-fold-bytes", "10000000000", "--max-fold-total-bytes", "-1"}, Exits: []int{0}, MaxStdout: 1 << 12})
	refused := newModel(13, []*pb.NodeProto{node("Reshape", []string{"x", "shape"}, []string{"y"})},
		[]*pb.TensorProto{int64sTensor("x", 1, 2, 3), int64sTensor("shape", 2, 2)}, nil, "y")
	refusedPath := w.model(filepath.Join("fold", "refused.onnx"), refused)
	w.add(Case{Name: "fold-refusal-exit-1", Class: foldClass,
		Args: []string{"fold", refusedPath, "-o", w.path(filepath.Join("fold", "refused-out.onnx"))}, Exits: []int{1}, MaxStdout: 1 << 12, Report: true})
	if err := mkfifo(w.path(filepath.Join("fold", "pipe.onnx"))); err == nil {
		w.add(Case{Name: "fold-o-pipe", Class: foldClass,
			Args: []string{"fold", refusedPath, "-o", w.path(filepath.Join("fold", "pipe.onnx"))}, Exits: []int{2}})
	}
	branch := &pb.GraphProto{Name: proto.String("then"), Node: []*pb.NodeProto{node("Identity", []string{"w"}, []string{"t"})},
		Initializer: []*pb.TensorProto{external("w", "weights.bin", 4)}, Output: []*pb.ValueInfoProto{info("t", tensor.Float, 4)}}
	other := &pb.GraphProto{Name: proto.String("else"), Node: []*pb.NodeProto{node("Identity", []string{"one"}, []string{"e"})},
		Output: []*pb.ValueInfoProto{info("e", tensor.Float, 1)}}
	ifModel := newModel(13, []*pb.NodeProto{node("If", []string{"cond"}, []string{"y"}, graphAttr("then_branch", branch), graphAttr("else_branch", other))},
		[]*pb.TensorProto{{Name: proto.String("cond"), DataType: proto.Int32(int32(tensor.Bool)), Int32Data: []int32{1}}, floatsTensor("one", 1)}, nil, "y")
	w.fail(os.MkdirAll(w.path(filepath.Join("fold", "branch")), 0o755))
	w.fail(os.WriteFile(w.path(filepath.Join("fold", "branch", "weights.bin")), make([]byte, 16), 0o644))
	w.add(Case{Name: "fold-if-branch-external-elsewhere", Class: foldClass,
		Args:  []string{"fold", w.model(filepath.Join("fold", "branch", "model.onnx"), ifModel), "-o", w.path(filepath.Join("fold", "branch-out.onnx"))},
		Exits: []int{2}})

	// A run that needs 800 MiB at once, under the default caps and a
	// 1.5 GiB address space (of which the Go runtime reserves 1.2 GB at
	// start): the default cap comes from what is left of the address space
	// now, so the run is refused, where the fixed 4 GiB let it run out of
	// memory.
	needs800MiB := newModel(13, []*pb.NodeProto{node("Expand", []string{"one", "shape"}, []string{"a"}), node("Neg", []string{"a"}, []string{"y"})},
		[]*pb.TensorProto{floatsTensor("one", 1), int64sTensor("shape", 100<<20)}, nil, "y") // 400 MiB each
	w.add(Case{Name: "run-needs-800MiB-under-1.5GiB", Class: "defaults: the run cap above what ulimit -v leaves",
		Args: []string{"run", w.model("needs-800MiB.onnx", needs800MiB)}, LimitKiB: 1572864})

	w.referenceClasses()

	// 10 million empty NodeProto messages: 20 MB that decode to 2 GB.
	emptyPath := w.path("empty-nodes.onnx")
	w.fail(os.WriteFile(emptyPath, emptyNodes(10_000_000), 0o644))
	const empty = "load: 10 million empty nodes (20 MB) decode to 2 GB"
	w.add(Case{Name: "empty-nodes-20MB", Class: empty, Args: []string{"run", emptyPath}})
	w.add(Case{Name: "empty-nodes-20MB-check", Class: empty + " (check: unreadable)", Args: []string{"check", emptyPath}, Exits: []int{2}})
}

// emptyNodes encodes a model whose graph holds n empty NodeProto
// messages: two bytes each, a few hundred decoded.
func emptyNodes(n int) []byte {
	var b []byte
	b = protowireTag(b, 1, 0) // ir_version
	b = binary.AppendUvarint(b, 8)
	var opset []byte
	opset = protowireTag(opset, 2, 0) // OperatorSetIdProto.version 13
	opset = binary.AppendUvarint(opset, 13)
	b = protowireTag(b, 8, 2) // opset_import
	b = binary.AppendUvarint(b, uint64(len(opset)))
	b = append(b, opset...)
	graph := make([]byte, 0, 2*n)
	for range n {
		graph = append(graph, 0x0a, 0) // node: an empty NodeProto
	}
	b = protowireTag(b, 7, 2) // graph
	b = binary.AppendUvarint(b, uint64(len(graph)))
	return append(b, graph...)
}

// referenceClasses are the cases of the reference engine outside the
// run's caps: Softmax and ReduceSum of 128 and 256 MiB held five to eight times
// over (index lists and float copies of the whole input), a SONNX MaxPool
// that converted its input before refusing its output, and one whose
// kernel of 2^31-1 and pads of 2^31-2 made it loop for minutes before it
// refused an output of 2^62 windows; an ArgMax that copied its input. Each runs under an address space that
// holds what the fast engine needs (the Go runtime reserves about 1.2 GB
// of it at start) and not what the reference engine took.
func (w *writer) referenceClasses() {
	const class = "reference engine: allocations outside the run's caps, output sizes checked late"
	const side = 8192 // 256 MiB of float
	head := npyHeader("<f4", []int64{1, 1, side, side})
	quarter, err := w.sparse("256MiB.npy", head, int64(len(head))+4*side*side)
	if err != nil {
		w.skip("reference-256MiB", class, "no sparse files: "+err.Error())
	} else {
		x := []*pb.ValueInfoProto{info("x", tensor.Float, 1, 1, side, side)}
		// Softmax of 128 MiB (the 256 MiB takes the reference
		// engine some 10 s of CPU, too close to a busy machine's limit): the
		// old peak of 8.5 times the input does not fit either.
		halfHead := npyHeader("<f4", []int64{1, 1, side / 2, side})
		half, err := w.sparse("128MiB.npy", halfHead, int64(len(halfHead))+2*side*side)
		w.fail(err)
		softmax := w.model("softmax-128MiB.onnx", newModel(13, []*pb.NodeProto{node("Softmax", []string{"x"}, []string{"y"})}, nil,
			[]*pb.ValueInfoProto{info("x", tensor.Float, 1, 1, side/2, side)}, "y"))
		w.add(Case{Name: "reference-softmax-128MiB-under-150MB", Class: class,
			Args:  []string{"run", softmax, "--input", "x=" + half, "--engine", "reference", "--max-run-bytes", "150000000"},
			Exits: []int{0}, MaxStdout: 16 << 10, LimitKiB: 2 << 20})
		reduce := w.model("reducesum-256MiB.onnx", newModel(13, []*pb.NodeProto{node("ReduceSum", []string{"x"}, []string{"y"})}, nil, x, "y"))
		w.add(Case{Name: "reference-reducesum-256MiB-under-20MB", Class: class,
			Args:  []string{"run", reduce, "--input", "x=" + quarter, "--engine", "reference", "--max-run-bytes", "20000000"},
			Exits: []int{0}, MaxStdout: 16 << 10, LimitKiB: 2 << 20})
		// ArgMax along the rows of 256 MiB: the reference kernel copied the
		// input and listed every element's index (some 1 GB) for an output
		// of 64 KiB; it now reads the elements where it compares them.
		argmax := w.model("argmax-256MiB.onnx", newModel(13, []*pb.NodeProto{node("ArgMax", []string{"x"}, []string{"y"}, i64("axis", 3))}, nil, x, "y"))
		w.add(Case{Name: "reference-argmax-256MiB-under-20MB", Class: class,
			Args:  []string{"run", argmax, "--input", "x=" + quarter, "--engine", "reference", "--max-run-bytes", "20000000"},
			Exits: []int{0}, MaxStdout: 16 << 10, LimitKiB: 2 << 20})
		pool := sonnxMaxPool(x, nil, side+1, 2, 1)
		w.add(Case{Name: "reference-sonnx-maxpool-256MiB-under-200MB", Class: class,
			Args:     []string{"run", w.model("maxpool-256MiB.onnx", pool), "--input", "x=" + quarter, "--profile", "sonnx", "--max-run-bytes", "200000000"},
			LimitKiB: 1800 << 10})
	}
	const k, p = 1<<31 - 1, 1<<31 - 2
	huge := sonnxMaxPool(nil, []*pb.TensorProto{{Name: proto.String("x"), DataType: proto.Int32(int32(tensor.Float)), Dims: []int64{1, 1, 1, 1}, FloatData: []float32{1}}},
		k, k, p)
	w.add(Case{Name: "reference-sonnx-maxpool-kernel-2^31", Class: class,
		Args: []string{"run", w.model("maxpool-kernel-2^31.onnx", huge), "--profile", "sonnx"}})
}

// sonnxMaxPool is a model inside the SONNX profile but for its sizes: a
// MaxPool-22 of X (a graph input or an initializer) with a square kernel
// and pads, every attribute written out, Y of out x out declared.
func sonnxMaxPool(inputs []*pb.ValueInfoProto, inits []*pb.TensorProto, out, kernel, pad int64) *pb.ModelProto {
	m := newModel(22, []*pb.NodeProto{node("MaxPool", []string{"x"}, []string{"y"},
		str("auto_pad", "NOTSET"), i64("ceil_mode", 0), ints("dilations", 1, 1), ints("kernel_shape", kernel, kernel),
		ints("pads", pad, pad, pad, pad), i64("storage_order", 0), ints("strides", 1, 1))}, inits, inputs, "y")
	m.IrVersion = proto.Int64(10)
	m.Graph.Output = []*pb.ValueInfoProto{info("y", tensor.Float, 1, 1, out, out)}
	return m
}
