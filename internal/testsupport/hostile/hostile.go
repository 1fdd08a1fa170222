// Package hostile writes a corpus of hostile files for the onnxshape
// command: one or more cases for each class of attack of the hostile-file audit (files
// that exhausted memory, hung, or crashed the process), each with the
// command line to run and what the command must do (refuse with one line
// and exit status 1, or succeed with bounded output) within 20 s under
// `ulimit -v 4194304`.
//
// The large inputs are sparse files (a header, then a hole up to the
// size), so the corpus takes a few tens of megabytes on disk whatever the
// sizes it announces; nothing of it is committed. `go run
// ./internal/testsupport/hostile/gen DIR` writes it, and cmd/onnxshape's
// TestHostileCorpus runs it.
package hostile

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"google.golang.org/protobuf/proto"

	"github.com/onnxshape/onnxshape/onnx"
	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/tensor"
)

// Case is one hostile command line.
type Case struct {
	Name  string // a short name, unique in the corpus
	Class string // the class of the hostile-file audit it belongs to, in the audit's words
	// Args are the arguments of onnxshape (the files inside the corpus
	// folder, by absolute path).
	Args []string
	// Exits are the exit statuses allowed; nil means {1}: refused. A
	// nonzero status must come with exactly one line on stderr, 0 with
	// none and at most MaxStdout bytes on stdout.
	Exits     []int
	MaxStdout int
	// LimitKiB is the address space the case runs in, when not Limit.
	LimitKiB int
	// Report marks a command that reports on stdout whatever its status
	// (check): its stderr holds at most one line, and stdout at most
	// MaxStdout bytes.
	Report bool
	// Skipped says why Write could not build the case on this machine (no
	// named pipes, sparse files or /dev/zero); "" when it did.
	Skipped string
}

// Limit is the address-space cap, in KiB, under which every case runs
// (`ulimit -v`), and Seconds the time each may take (of CPU: the test
// allows a busy machine's clock three times as much before it calls a
// case hung).
const (
	Limit   = 4194304
	Seconds = 20
)

// Write writes the corpus into dir (which must exist) and returns its
// cases in a fixed order.
func Write(dir string) ([]Case, error) {
	w := &writer{dir: dir}
	w.oomClasses()
	w.hangClasses()
	w.edgeClasses()
	w.probeClasses()
	if w.err != nil {
		return nil, w.err
	}
	return w.cases, nil
}

// writer accumulates the cases and the first error.
type writer struct {
	dir   string
	cases []Case
	err   error
}

func (w *writer) path(name string) string { return filepath.Join(w.dir, name) }

func (w *writer) add(c Case) { w.cases = append(w.cases, c) }

// skip records a case the machine cannot build.
func (w *writer) skip(name, class, why string) {
	w.add(Case{Name: name, Class: class, Skipped: why})
}

func (w *writer) fail(err error) {
	if w.err == nil && err != nil {
		w.err = err
	}
}

// model writes a model file and returns its path.
func (w *writer) model(name string, m *pb.ModelProto) string {
	b, err := onnx.EncodeModel(m)
	w.fail(err)
	path := w.path(name)
	w.fail(os.WriteFile(path, b, 0o644))
	return path
}

// sparse writes head and extends the file with a hole to size bytes.
func (w *writer) sparse(name string, head []byte, size int64) (string, error) {
	path := w.path(name)
	if err := os.WriteFile(path, head, 0o644); err != nil {
		return "", err
	}
	if err := os.Truncate(path, size); err != nil {
		return "", err
	}
	return path, nil
}

func (w *writer) oomClasses() {
	const pads = 1<<31 - 1
	maxPool := newModel(12, []*pb.NodeProto{node("MaxPool", []string{"x"}, []string{"y"},
		ints("kernel_shape", 1, 1), ints("pads", pads, pads, pads, pads))},
		nil, []*pb.ValueInfoProto{info("x", tensor.Float, 0, 1, 1, 1)}, "y")
	mp := w.model("maxpool.onnx", maxPool)
	emptyBatch := w.npy("empty-batch.npy", "<f4", []int64{0, 1, 1, 1}, nil)
	// Refused, or computed without the tables: the output is empty.
	w.add(Case{Name: "maxpool-empty-batch-huge-pads", Class: "MaxPool window tables with an empty batch and pads 2^31-1",
		Args:  []string{"run", mp, "--input", "x=" + emptyBatch},
		Exits: []int{0, 1}, MaxStdout: 1 << 10})
	w.add(Case{Name: "maxpool-huge-pads-check", Class: "MaxPool window tables with an empty batch and pads 2^31-1 (check --profile sonnx)",
		Args: []string{"check", "--profile", "sonnx", mp}, Exits: []int{0, 1, 2, 3}, MaxStdout: 1 << 16, Report: true})

	// Resize of 400 MiB of uint8, which linear and cubic modes converted to
	// float64 whole before any cap (3.4 GB).
	const side = 20480
	big, err := w.sparse("400MiB.npy", npyHeader("|u1", []int64{1, 1, side, side}), int64(len(npyHeader("|u1", []int64{1, 1, side, side})))+side*side)
	if err != nil {
		w.skip("resize-400MiB", "Resize linear/cubic on 400 MiB uint8", "no sparse files: "+err.Error())
	} else {
		for _, mode := range []string{"linear", "cubic"} {
			// Scales of 1 copy the input; 1.01 on the last axis computes.
			m := newModel(13, []*pb.NodeProto{node("Resize", []string{"x", "", "scales"}, []string{"y"}, str("mode", mode))},
				[]*pb.TensorProto{floatsTensor("scales", 1, 1, 1, 1.01)}, []*pb.ValueInfoProto{info("x", tensor.Uint8, 1, 1, side, side)}, "y")
			// Refused for its scratch, or computed within the caps.
			w.add(Case{Name: "resize-" + mode + "-400MiB", Class: "Resize linear/cubic on 400 MiB uint8",
				Args:  []string{"run", w.model("resize-"+mode+".onnx", m), "--input", "x=" + big},
				Exits: []int{0, 1}, MaxStdout: 16 << 10})
		}
	}

	// A 3 GiB sparse external data file.
	ext := external("w", "weights.bin", 3<<28)
	extModel := newModel(13, []*pb.NodeProto{node("Identity", []string{"w"}, []string{"y"})}, []*pb.TensorProto{ext}, nil, "y")
	if _, err := w.sparse("weights.bin", nil, 3<<30); err != nil {
		w.skip("external-3GiB", "a 3 GiB sparse external file", "no sparse files: "+err.Error())
	} else {
		path := w.model("external.onnx", extModel)
		w.add(Case{Name: "external-3GiB-max-bytes-1000", Class: "a 3 GiB sparse external file with --max-bytes 1000",
			Args: []string{"run", path, "--max-bytes", "1000"}})
		w.add(Case{Name: "external-3GiB-default-caps", Class: "a 3 GiB sparse external file",
			Args: []string{"run", path}})
	}

	// Three external initializers of 1 GiB each: each within the cap on
	// one tensor, together above the cap on the model's tensors.
	var thirds []*pb.TensorProto
	var sumErr error
	for i := range 3 {
		name := fmt.Sprintf("third%d.bin", i)
		thirds = append(thirds, external(fmt.Sprintf("w%d", i), name, 1<<28))
		if _, err := w.sparse(name, nil, 1<<30); err != nil {
			sumErr = err
		}
	}
	if sumErr != nil {
		w.skip("external-3x1GiB", "initializers and external data load without a cap (their sum)", "no sparse files: "+sumErr.Error())
	} else {
		m := newModel(13, []*pb.NodeProto{node("Identity", []string{"w0"}, []string{"y"})}, thirds, nil, "y")
		w.add(Case{Name: "external-3x1GiB-sum", Class: "initializers and external data load without a cap (their sum)",
			Args: []string{"run", w.model("thirds.onnx", m)}})
	}

	// A model file of 3 GiB (sparse), which was read whole.
	if path, err := w.sparse("3GiB.onnx", nil, 3<<30); err != nil {
		w.skip("model-3GiB", "the CLI reads model files whole and unbounded", "no sparse files: "+err.Error())
	} else {
		w.add(Case{Name: "model-file-3GiB", Class: "the CLI reads model files whole and unbounded", Args: []string{"run", path}})
		w.add(Case{Name: "model-file-3GiB-check", Class: "the CLI reads model files whole and unbounded (check: unreadable)",
			Args: []string{"check", path}, Exits: []int{2}})
	}

	// A 1 GiB .npy: refused from its header under a cap; read once, then
	// refused for its type, under the default caps; lying headers.
	const floats = 1 << 28
	gib, err := w.sparse("1GiB.npy", npyHeader("<f4", []int64{floats}), int64(len(npyHeader("<f4", []int64{floats})))+4*floats)
	if err != nil {
		w.skip("npy-1GiB", "big .npy", "no sparse files: "+err.Error())
	} else {
		identity := func(name string, dt tensor.DataType) string {
			return w.model(name, newModel(13, []*pb.NodeProto{node("Identity", []string{"x"}, []string{"y"})}, nil,
				[]*pb.ValueInfoProto{info("x", dt, floats)}, "y"))
		}
		w.add(Case{Name: "npy-1GiB-max-bytes", Class: "big .npy", Args: []string{"run", identity("identity-float.onnx", tensor.Float), "--input", "x=" + gib, "--max-bytes", "1000000"}})
		// Read whole, under an address space that holds it once but not
		// three times, and passed through to a bounded preview.
		w.add(Case{Name: "npy-1GiB-read-once", Class: "big .npy (a 1 GiB .npy held three times)",
			Args:  []string{"run", identity("identity-float.onnx", tensor.Float), "--input", "x=" + gib},
			Exits: []int{0}, MaxStdout: 1 << 10, LimitKiB: 2621440})
	}
	anyInput := w.model("identity-any.onnx", newModel(13, []*pb.NodeProto{node("Identity", []string{"x"}, []string{"y"})}, nil,
		[]*pb.ValueInfoProto{{Name: proto.String("x")}}, "y"))
	lying := w.npy("lying.npy", "<f4", []int64{1 << 40}, make([]byte, 16))
	w.add(Case{Name: "npy-header-announces-4TiB", Class: "big .npy", Args: []string{"run", anyInput, "--input", "x=" + lying}})
	strs := w.npy("strings.npy", "<U1048576", []int64{20000}, make([]byte, 64))
	w.add(Case{Name: "npy-strings-80GB", Class: "big .npy (string array width x count)", Args: []string{"run", anyInput, "--input", "x=" + strs}})

	// /dev/zero as model, as input and as external data.
	if _, err := os.Stat("/dev/zero"); err != nil {
		w.skip("dev-zero", "/dev/zero", "no /dev/zero")
	} else {
		w.add(Case{Name: "dev-zero-model", Class: "/dev/zero", Args: []string{"run", "/dev/zero"}})
		w.add(Case{Name: "dev-zero-check", Class: "/dev/zero (check: unreadable)", Args: []string{"check", "/dev/zero"}, Exits: []int{2}})
		zeroNPY := w.path("zero.npy")
		if err := os.Symlink("/dev/zero", zeroNPY); err != nil {
			w.skip("dev-zero-input", "/dev/zero", "no symbolic links: "+err.Error())
		} else {
			w.add(Case{Name: "dev-zero-input", Class: "/dev/zero", Args: []string{"run", anyInput, "--input", "x=" + zeroNPY}})
		}
		zeroDir := w.path("zero-external")
		w.fail(os.MkdirAll(zeroDir, 0o755))
		if err := os.Symlink("/dev/zero", filepath.Join(zeroDir, "weights.bin")); err == nil {
			path := filepath.Join("zero-external", "model.onnx")
			small := newModel(13, []*pb.NodeProto{node("Identity", []string{"w"}, []string{"y"})},
				[]*pb.TensorProto{external("w", "weights.bin", 4)}, nil, "y")
			w.add(Case{Name: "dev-zero-external", Class: "/dev/zero", Args: []string{"run", w.model(path, small)}})
		}
	}

	// A rank-2000 tensor split into 200k parts: a 2 MB model whose output
	// shapes take 200k x 2000 ints.
	const parts, rank = 200000, 2000
	dims := make([]int64, rank)
	for i := range dims {
		dims[i] = 1
	}
	dims[0] = parts
	outs := make([]string, parts)
	for i := range outs {
		outs[i] = "p" + strconv.Itoa(i)
	}
	split := newModel(13, []*pb.NodeProto{node("Split", []string{"x"}, outs, i64("axis", 0))},
		[]*pb.TensorProto{{Name: proto.String("x"), DataType: proto.Int32(int32(tensor.Uint8)), Dims: dims, RawData: make([]byte, parts)}}, nil, "p0")
	w.add(Case{Name: "split-rank2000-200k-parts", Class: "rank-2000 split into 200k parts",
		Args: []string{"run", w.model("split.onnx", split)}})

	// Outputs whose preview was converted or printed whole.
	sixes := make([]int64, 10)
	for i := range sixes {
		sixes[i] = 6
	}
	expand := func(name string, dt tensor.DataType, scalar []byte, shape ...int64) string {
		return w.model(name, newModel(13, []*pb.NodeProto{node("Expand", []string{"v", "shape"}, []string{"y"})},
			[]*pb.TensorProto{{Name: proto.String("v"), DataType: proto.Int32(int32(dt)), RawData: scalar}, int64sTensor("shape", shape...)}, nil, "y"))
	}
	w.add(Case{Name: "preview-6^10", Class: "huge preview ([6]^10 output)",
		Args: []string{"run", expand("preview-sixes.onnx", tensor.Uint8, []byte{7}, sixes...)}, Exits: []int{0}, MaxStdout: 16 << 10})
	w.add(Case{Name: "preview-500MiB-float", Class: "huge preview (500 MiB output)",
		Args: []string{"run", expand("preview-float.onnx", tensor.Float, []byte{0, 0, 0x80, 0x3f}, 125<<20)}, Exits: []int{0}, MaxStdout: 16 << 10})

	// One 4 MiB string among 20k empty ones: --out wrote width x count.
	strings := make([][]byte, 20001)
	strings[0] = make([]byte, 4<<20)
	for i := range strings[0] {
		strings[0][i] = 'x'
	}
	wide := newModel(13, []*pb.NodeProto{node("Identity", []string{"s"}, []string{"y"})},
		[]*pb.TensorProto{{Name: proto.String("s"), DataType: proto.Int32(int32(tensor.String)), Dims: []int64{20001}, StringData: strings}}, nil, "y")
	w.add(Case{Name: "out-wide-strings", Class: "string --out (one 4 MiB string and 20k empty ones)",
		Args: []string{"run", w.model("strings.onnx", wide), "--out", w.path("out")}, Exits: []int{0}, MaxStdout: 16 << 10})

	// check folding 70 constants of 60 MiB each.
	var fold []*pb.NodeProto
	for i := range 70 {
		fold = append(fold, node("Expand", []string{"v", "shape"}, []string{"c" + strconv.Itoa(i)}))
	}
	folded := newModel(13, fold, []*pb.TensorProto{{Name: proto.String("v"), DataType: proto.Int32(int32(tensor.Uint8)), RawData: []byte{1}},
		int64sTensor("shape", 60<<20)}, nil, "c0")
	w.add(Case{Name: "check-70-folded-constants", Class: "check keeps every folded constant (70 x 60 MiB)",
		Args: []string{"check", "--profile", "sonnx", w.model("folded.onnx", folded)}, Exits: []int{0, 1, 2, 3}, MaxStdout: 1 << 16, Report: true})

	// Subgraphs nested 3,000 deep (9,000 messages, inside protobuf's limit
	// of 10,000) and 5,000 deep (past it): no reader may recurse without
	// bound.
	for _, levels := range []int{3000, 5000, 10000} {
		path := w.path(fmt.Sprintf("nested-%d.onnx", levels))
		w.fail(os.WriteFile(path, nestedGraphs(levels), 0o644))
		name := fmt.Sprintf("nested-graphs-%d", levels)
		class := "subgraphs nested deeper than any reader should recurse"
		w.add(Case{Name: name, Class: class, Args: []string{"run", path}})
		w.add(Case{Name: name + "-check", Class: class + " (check)", Args: []string{"check", "--profile", "sonnx", path},
			Exits: []int{0, 1, 2, 3}, MaxStdout: 1 << 16, Report: true})
	}

	// 32 MB of empty initializer entries, which decode to gigabytes.
	var b []byte
	b = protowireTag(b, 1, 0) // ir_version
	b = binary.AppendUvarint(b, 8)
	graph := []byte{0x12, 1, 'g'} // name
	for range 16 << 20 {
		graph = append(graph, 0x2a, 0) // initializer: an empty TensorProto
	}
	b = protowireTag(b, 7, 2) // graph
	b = binary.AppendUvarint(b, uint64(len(graph)))
	b = append(b, graph...)
	empty := w.path("empty-initializers.onnx")
	w.fail(os.WriteFile(empty, b, 0o644))
	w.add(Case{Name: "empty-initializers-32MB", Class: "32 MB of empty initializers", Args: []string{"run", empty}})
}

func (w *writer) hangClasses() {
	identity := newModel(13, []*pb.NodeProto{node("Identity", []string{"x"}, []string{"y"})}, nil,
		[]*pb.ValueInfoProto{info("x", tensor.Float, 1)}, "y")
	model := w.model("identity.onnx", identity)
	pipes := map[string]string{"pipe.onnx": "", "pipe.npy": "", filepath.Join("pipe-external", "weights.bin"): ""}
	w.fail(os.MkdirAll(w.path("pipe-external"), 0o755))
	for name := range pipes {
		if err := mkfifo(w.path(name)); err != nil {
			w.skip("named-pipes", "named pipes", "no named pipes: "+err.Error())
			pipes = nil
			break
		}
	}
	if pipes != nil {
		w.add(Case{Name: "pipe-model", Class: "named pipe as model", Args: []string{"run", w.path("pipe.onnx")}})
		w.add(Case{Name: "pipe-input", Class: "named pipe as input", Args: []string{"run", model, "--input", "x=" + w.path("pipe.npy")}})
		ext := newModel(13, []*pb.NodeProto{node("Identity", []string{"w"}, []string{"y"})},
			[]*pb.TensorProto{external("w", "weights.bin", 1)}, nil, "y")
		w.add(Case{Name: "pipe-external", Class: "named pipe as external data",
			Args: []string{"run", w.model(filepath.Join("pipe-external", "model.onnx"), ext)}})
		outDir := w.path("pipe-out")
		w.fail(os.MkdirAll(outDir, 0o755))
		if err := mkfifo(filepath.Join(outDir, "y.npy")); err == nil {
			w.add(Case{Name: "pipe-out", Class: "named pipe as an output file of --out",
				Args: []string{"run", model, "--input", "x=" + w.npy("one.npy", "<f4", []int64{1}, make([]byte, 4)), "--out", outDir}})
		}
		// A node-test folder whose input file is a pipe, for the test
		// command.
		suite := filepath.Join("pipe-suite", "test_pipe")
		w.fail(os.MkdirAll(w.path(filepath.Join(suite, "test_data_set_0")), 0o755))
		w.model(filepath.Join(suite, "model.onnx"), identity)
		if err := mkfifo(w.path(filepath.Join(suite, "test_data_set_0", "input_0.pb"))); err == nil {
			w.add(Case{Name: "pipe-node-test", Class: "named pipe as input (a node test for the test command)",
				Args: []string{"test", w.path("pipe-suite")}, Exits: []int{1}, MaxStdout: 1 << 10, Report: true})
		}
		w.add(Case{Name: "pipe-check", Class: "named pipe as model (check: unreadable)", Args: []string{"check", w.path("pipe.onnx")}, Exits: []int{2}})
	}

	// Independent nodes, which loading sorted in quadratic time.
	for _, n := range []int{200000, 400000} {
		nodes := make([]*pb.NodeProto, n)
		for i := range nodes {
			nodes[i] = node("Identity", []string{"x"}, []string{"y" + strconv.Itoa(i)})
		}
		m := newModel(13, nodes, nil, []*pb.ValueInfoProto{info("x", tensor.Float, 1)}, "y0")
		w.add(Case{Name: fmt.Sprintf("independent-nodes-%dk", n/1000), Class: "200k/400k independent nodes",
			Args:  []string{"run", w.model(fmt.Sprintf("nodes-%dk.onnx", n/1000), m), "--input", "x=" + w.npy("one.npy", "<f4", []int64{1}, make([]byte, 4))},
			Exits: []int{0}, MaxStdout: 1 << 10})
	}

	// A sequence of 1M items through Identity, quadratic in its length.
	const items = 1 << 20
	seq := &tensor.Sequence{ElemType: tensor.Float, Items: make([]*tensor.Tensor, items)}
	scalar := tensor.Scalar(float32(1))
	for i := range seq.Items {
		seq.Items[i] = scalar
	}
	sb, err := onnx.EncodeValue(seq, "x")
	w.fail(err)
	seqPath := w.path("sequence.pb")
	w.fail(os.WriteFile(seqPath, sb, 0o644))
	seqType := &pb.TypeProto{Value: &pb.TypeProto_SequenceType{SequenceType: &pb.TypeProto_Sequence{ElemType: info("", tensor.Float).Type}}}
	seqModel := newModel(16, []*pb.NodeProto{node("Identity", []string{"x"}, []string{"y"})}, nil,
		[]*pb.ValueInfoProto{{Name: proto.String("x"), Type: seqType}}, "y")
	w.add(Case{Name: "sequence-1M-items", Class: "long sequences (1M items)",
		Args:  []string{"run", w.model("sequence.onnx", seqModel), "--input", "x=" + seqPath},
		Exits: []int{0}, MaxStdout: 16 << 10})

	// Control flow whose iterations are bounded only by the caps: a Scan
	// over 10^9 steps of an empty tensor, and a Loop with neither a trip
	// count nor a condition, each scanning a value out at every step.
	scanIn := newModel(16, []*pb.NodeProto{
		node("ConstantOfShape", []string{"shape"}, []string{"xs"}),
		node("Scan", []string{"xs"}, []string{"y"}, i64("num_scan_inputs", 1), graphAttr("body", &pb.GraphProto{Name: proto.String("body"),
			Node:   []*pb.NodeProto{node("Identity", []string{"s"}, []string{"o"})},
			Input:  []*pb.ValueInfoProto{info("s", tensor.Float, 0)},
			Output: []*pb.ValueInfoProto{info("o", tensor.Float, 0)}})),
	}, []*pb.TensorProto{int64sTensor("shape", 1000000000, 0)}, nil, "y")
	w.add(Case{Name: "scan-1e9-steps", Class: "a Scan over 10^9 steps (refused by the run's cap)",
		Args: []string{"run", w.model("scan-1e9.onnx", scanIn), "--max-run-bytes", "1000000"}})
	forever := newModel(16, []*pb.NodeProto{
		node("Loop", []string{"", ""}, []string{"y"}, graphAttr("body", &pb.GraphProto{Name: proto.String("body"),
			Node:   []*pb.NodeProto{node("Identity", []string{"c"}, []string{"c_out"}), node("Identity", []string{"i"}, []string{"i_out"})},
			Input:  []*pb.ValueInfoProto{info("i", tensor.Int64), info("c", tensor.Bool)},
			Output: []*pb.ValueInfoProto{info("c_out", tensor.Bool), info("i_out", tensor.Int64)}})),
	}, nil, nil, "y")
	w.add(Case{Name: "loop-never-ends", Class: "a Loop that never ends (its scan output refused by the run's cap)",
		Args: []string{"run", w.model("loop-forever.onnx", forever), "--max-run-bytes", "1000000"}})

	// An If whose branches return different ranks ([2] or [2, 2]), chosen
	// by an input: allowed from If-11, so run gives the branch's value and
	// infer an output of unknown rank; neither may fail or guess a rank.
	ranks := newModel(16, []*pb.NodeProto{
		node("If", []string{"c"}, []string{"y"},
			graphAttr("then_branch", &pb.GraphProto{Name: proto.String("then"),
				Node:   []*pb.NodeProto{node("Identity", []string{"a"}, []string{"t"})},
				Output: []*pb.ValueInfoProto{{Name: proto.String("t")}}}),
			graphAttr("else_branch", &pb.GraphProto{Name: proto.String("else"),
				Node:   []*pb.NodeProto{node("Identity", []string{"b"}, []string{"e"})},
				Output: []*pb.ValueInfoProto{{Name: proto.String("e")}}})),
	}, []*pb.TensorProto{floatsTensor("a", 1, 2), {Name: proto.String("b"), DataType: proto.Int32(int32(tensor.Float)), Dims: []int64{2, 2}, FloatData: []float32{1, 2, 3, 4}}},
		[]*pb.ValueInfoProto{info("c", tensor.Bool)}, "y")
	ranksPath := w.model("if-branch-ranks.onnx", ranks)
	for _, cond := range []byte{0, 1} {
		w.add(Case{Name: fmt.Sprintf("if-branch-ranks-differ-%d", cond), Class: "an If whose branches return different ranks",
			Args:  []string{"run", ranksPath, "--input", "c=" + w.npy(fmt.Sprintf("cond%d.npy", cond), "|b1", nil, []byte{cond})},
			Exits: []int{0}, MaxStdout: 4096})
	}
	w.add(Case{Name: "if-branch-ranks-differ-infer", Class: "an If whose branches return different ranks (infer)",
		Args: []string{"infer", ranksPath}, Exits: []int{0}, MaxStdout: 4096})
	// The ai.onnx.ml and text operators: an n-gram index of 2^40 (an
	// output row of 4 TiB), a generator of 2^40 elements, a tree whose
	// branch leads back to its own node, and 2^31-1 targets.
	tfidf := newModel(9, []*pb.NodeProto{node("TfIdfVectorizer", []string{"x"}, []string{"y"},
		str("mode", "TF"), i64("min_gram_length", 1), i64("max_gram_length", 1), i64("max_skip_count", 0),
		ints("ngram_counts", 0), ints("ngram_indexes", 1<<40), ints("pool_int64s", 7))},
		[]*pb.TensorProto{int64sTensor("x", 7, 7)}, nil, "y")
	w.add(Case{Name: "tfidf-ngram-index-2^40", Class: "TfIdfVectorizer with an n-gram index of 2^40",
		Args: []string{"run", w.model("tfidf-huge-index.onnx", tfidf)}})
	random := newModel(22, []*pb.NodeProto{node("RandomUniform", nil, []string{"y"}, ints("shape", 1<<20, 1<<20))}, nil, nil, "y")
	w.add(Case{Name: "random-uniform-2^40", Class: "RandomUniform of 2^40 elements",
		Args: []string{"run", w.model("random-huge.onnx", random)}})
	tree := func(name string, targets int64, trueNode int64) string {
		n := node("TreeEnsemble", []string{"x"}, []string{"y"}, i64("n_targets", targets),
			ints("nodes_featureids", 0), ints("nodes_truenodeids", trueNode), ints("nodes_trueleafs", 0),
			ints("nodes_falsenodeids", 0), ints("nodes_falseleafs", 1), ints("tree_roots", 0),
			ints("leaf_targetids", 0),
			&pb.AttributeProto{Name: proto.String("leaf_weights"), Type: pb.AttributeProto_TENSOR.Enum(), T: floatsTensor("w", 1)},
			&pb.AttributeProto{Name: proto.String("nodes_splits"), Type: pb.AttributeProto_TENSOR.Enum(), T: floatsTensor("s", 0)},
			&pb.AttributeProto{Name: proto.String("nodes_modes"), Type: pb.AttributeProto_TENSOR.Enum(),
				T: &pb.TensorProto{Name: proto.String("m"), DataType: proto.Int32(int32(tensor.Uint8)), Dims: []int64{1}, Int32Data: []int32{0}}})
		n.Domain = proto.String("ai.onnx.ml")
		m := newModel(21, []*pb.NodeProto{n}, []*pb.TensorProto{{Name: proto.String("x"), DataType: proto.Int32(int32(tensor.Float)),
			Dims: []int64{1, 1}, FloatData: []float32{-1}}}, nil, "y")
		m.OpsetImport = append(m.OpsetImport, &pb.OperatorSetIdProto{Domain: proto.String("ai.onnx.ml"), Version: proto.Int64(5)})
		return w.model(name, m)
	}
	w.add(Case{Name: "tree-ensemble-circle", Class: "TreeEnsemble whose branch leads back to its node",
		Args: []string{"run", tree("tree-circle.onnx", 1, 0)}})
	w.add(Case{Name: "tree-ensemble-2^31-targets", Class: "TreeEnsemble with 2^31-1 targets",
		Args: []string{"run", tree("tree-targets.onnx", 1<<31-1, 0)}})
	// The geometry and signal operators: sizes an attacker controls
	// through small inputs, each refused before the work or the memory.
	scalar64 := func(name string, v int64) *pb.TensorProto {
		return &pb.TensorProto{Name: proto.String(name), DataType: proto.Int32(int32(tensor.Int64)), Int64Data: []int64{v}}
	}
	stft := newModel(17, []*pb.NodeProto{
		node("ConstantOfShape", []string{"shape"}, []string{"signal"}),
		node("STFT", []string{"signal", "step", "", "length"}, []string{"y"}),
	}, []*pb.TensorProto{int64sTensor("shape", 1, 1<<20, 1), scalar64("step", 1), scalar64("length", 1<<19)}, nil, "y")
	w.add(Case{Name: "stft-huge-frame", Class: "STFT with a huge frame (2^19 samples every sample: a 2 TiB output, refused by the size cap)",
		Args: []string{"run", w.model("stft-huge-frame.onnx", stft)}})
	dft := newModel(20, []*pb.NodeProto{node("DFT", []string{"x", "n"}, []string{"y"})},
		[]*pb.TensorProto{{Name: proto.String("x"), DataType: proto.Int32(int32(tensor.Float)), Dims: []int64{1, 4, 1}, FloatData: []float32{1, 2, 3, 4}},
			scalar64("n", 1<<40)}, nil, "y")
	w.add(Case{Name: "dft-length-2^40", Class: "DFT with dft_length 2^40 (refused by the size cap)",
		Args: []string{"run", w.model("dft-length.onnx", dft)}})
	roi := newModel(16, []*pb.NodeProto{node("RoiAlign", []string{"x", "rois", "b"}, []string{"y"})},
		[]*pb.TensorProto{{Name: proto.String("x"), DataType: proto.Int32(int32(tensor.Float)), Dims: []int64{1, 1, 2, 2}, FloatData: []float32{1, 2, 3, 4}},
			{Name: proto.String("rois"), DataType: proto.Int32(int32(tensor.Float)), Dims: []int64{1, 4}, FloatData: []float32{0, 0, 1e6, 1e6}},
			int64sTensor("b", 0)}, nil, "y")
	w.add(Case{Name: "roialign-1e12-samples", Class: "RoiAlign of a 10^6 x 10^6 roi with adaptive sampling (10^12 points, refused by the size cap)",
		Args: []string{"run", w.model("roialign-huge.onnx", roi)}})
	// A PNG whose header announces 100000 x 100000 pixels and holds none.
	ihdr := []byte("IHDR\x00\x01\x86\xa0\x00\x01\x86\xa0\x08\x02\x00\x00\x00")
	png := append([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\x0d"), ihdr...)
	png = binary.BigEndian.AppendUint32(png, crc32.ChecksumIEEE(ihdr))
	image := newModel(20, []*pb.NodeProto{node("ImageDecoder", []string{"png"}, []string{"y"})},
		[]*pb.TensorProto{{Name: proto.String("png"), DataType: proto.Int32(int32(tensor.Uint8)), Dims: []int64{int64(len(png))}, RawData: png}}, nil, "y")
	w.add(Case{Name: "imagedecoder-png-10^10-pixels", Class: "ImageDecoder of a PNG header announcing 10^10 pixels (refused before decoding)",
		Args: []string{"run", w.model("image-huge.onnx", image)}})

	opset := newModel(999, []*pb.NodeProto{node("Identity", []string{"x"}, []string{"y"})}, nil,
		[]*pb.ValueInfoProto{info("x", tensor.Float, 1)}, "y")
	w.add(Case{Name: "opset-999", Class: "opset 999",
		Args: []string{"run", w.model("opset999.onnx", opset), "--input", "x=" + w.npy("one.npy", "<f4", []int64{1}, make([]byte, 4))}})
}

// npy writes a small .npy file and returns its path.
func (w *writer) npy(name, descr string, shape []int64, data []byte) string {
	path := w.path(name)
	w.fail(os.WriteFile(path, append(npyHeader(descr, shape), data...), 0o644))
	return path
}

// npyHeader is the magic string, version 1.0 and header of a .npy file,
// padded to 64 bytes as numpy pads it.
func npyHeader(descr string, shape []int64) []byte {
	dims := make([]string, len(shape))
	for i, d := range shape {
		dims[i] = strconv.FormatInt(d, 10)
	}
	tuple := "(" + strings.Join(dims, ", ") + ")"
	if len(shape) == 1 {
		tuple = "(" + dims[0] + ",)"
	}
	dict := fmt.Sprintf("{'descr': '%s', 'fortran_order': False, 'shape': %s, }", descr, tuple)
	total := (10 + len(dict) + 1 + 63) / 64 * 64
	header := dict + strings.Repeat(" ", total-10-len(dict)-1) + "\n"
	b := append([]byte("\x93NUMPY\x01\x00"), byte(len(header)), byte(len(header)>>8))
	return append(b, header...)
}

func newModel(opset int64, nodes []*pb.NodeProto, inits []*pb.TensorProto, inputs []*pb.ValueInfoProto, output string) *pb.ModelProto {
	return &pb.ModelProto{
		IrVersion:   proto.Int64(8),
		OpsetImport: []*pb.OperatorSetIdProto{{Domain: proto.String(""), Version: proto.Int64(opset)}},
		Graph: &pb.GraphProto{Name: proto.String("hostile"), Node: nodes, Initializer: inits, Input: inputs,
			Output: []*pb.ValueInfoProto{{Name: proto.String(output)}}},
	}
}

func node(op string, in, out []string, attrs ...*pb.AttributeProto) *pb.NodeProto {
	return &pb.NodeProto{OpType: proto.String(op), Input: in, Output: out, Attribute: attrs}
}

func graphAttr(name string, g *pb.GraphProto) *pb.AttributeProto {
	return &pb.AttributeProto{Name: proto.String(name), Type: pb.AttributeProto_GRAPH.Enum(), G: g}
}

func ints(name string, v ...int64) *pb.AttributeProto {
	return &pb.AttributeProto{Name: proto.String(name), Type: pb.AttributeProto_INTS.Enum(), Ints: v}
}

func i64(name string, v int64) *pb.AttributeProto {
	return &pb.AttributeProto{Name: proto.String(name), Type: pb.AttributeProto_INT.Enum(), I: proto.Int64(v)}
}

func str(name, v string) *pb.AttributeProto {
	return &pb.AttributeProto{Name: proto.String(name), Type: pb.AttributeProto_STRING.Enum(), S: []byte(v)}
}

func info(name string, dt tensor.DataType, dims ...int64) *pb.ValueInfoProto {
	shape := &pb.TensorShapeProto{}
	for _, d := range dims {
		shape.Dim = append(shape.Dim, &pb.TensorShapeProto_Dimension{Value: &pb.TensorShapeProto_Dimension_DimValue{DimValue: d}})
	}
	return &pb.ValueInfoProto{Name: proto.String(name), Type: &pb.TypeProto{Value: &pb.TypeProto_TensorType{
		TensorType: &pb.TypeProto_Tensor{ElemType: proto.Int32(int32(dt)), Shape: shape}}}}
}

func floatsTensor(name string, v ...float32) *pb.TensorProto {
	return &pb.TensorProto{Name: proto.String(name), DataType: proto.Int32(int32(tensor.Float)), Dims: []int64{int64(len(v))}, FloatData: v}
}

func int64sTensor(name string, v ...int64) *pb.TensorProto {
	return &pb.TensorProto{Name: proto.String(name), DataType: proto.Int32(int32(tensor.Int64)), Dims: []int64{int64(len(v))}, Int64Data: v}
}

// external is a float tensor of n elements stored in the file location.
func external(name, location string, n int64) *pb.TensorProto {
	return &pb.TensorProto{Name: proto.String(name), DataType: proto.Int32(int32(tensor.Float)), Dims: []int64{n},
		DataLocation: pb.TensorProto_EXTERNAL.Enum(),
		ExternalData: []*pb.StringStringEntryProto{{Key: proto.String("location"), Value: proto.String(location)}}}
}

// nestedGraphs encodes a model whose graph holds an If node whose
// then_branch holds an If node, levels deep.
func nestedGraphs(levels int) []byte {
	field := func(b []byte, num uint64, v []byte) []byte {
		b = protowireTag(b, num, 2)
		b = binary.AppendUvarint(b, uint64(len(v)))
		return append(b, v...)
	}
	var graph []byte
	for range levels {
		var attr []byte
		attr = field(attr, 1, []byte("then_branch")) // AttributeProto.name
		attr = field(attr, 6, graph)                 // AttributeProto.g
		attr = protowireTag(attr, 20, 0)             // AttributeProto.type
		attr = binary.AppendUvarint(attr, uint64(pb.AttributeProto_GRAPH))
		var node []byte
		node = field(node, 4, []byte("If")) // NodeProto.op_type
		node = field(node, 5, attr)         // NodeProto.attribute
		graph = field(nil, 1, node)         // GraphProto.node
	}
	var model []byte
	model = protowireTag(model, 1, 0) // ir_version 8
	model = binary.AppendUvarint(model, 8)
	var opset []byte
	opset = protowireTag(opset, 2, 0) // OperatorSetIdProto.version 13
	opset = binary.AppendUvarint(opset, 13)
	model = field(model, 8, opset) // ModelProto.opset_import
	return field(model, 7, graph)  // ModelProto.graph
}

// protowireTag appends the key of field num with wire type typ.
func protowireTag(b []byte, num, typ uint64) []byte {
	return binary.AppendUvarint(b, num<<3|typ)
}
