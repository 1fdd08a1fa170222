package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/onnxshape/onnxshape/infer"
	"github.com/onnxshape/onnxshape/internal/safefile"
	"github.com/onnxshape/onnxshape/onnx"
	"github.com/onnxshape/onnxshape/onnx/pb"
)

const foldUsage = `usage: onnxshape fold MODEL -o OUT [--input-shape NAME=1,3,H,W]... [--max-fold-bytes N] [--max-fold-total-bytes N] [--annotate]

Writes to OUT a copy of MODEL in which every node whose outputs are known
before the model runs (initializers, Constant, Shape of known dimensions,
and everything computed from those: the Shape -> Gather -> Concat ->
Reshape chains exporters write) is replaced by initializers, an If whose
condition is known by the branch it takes, nodes no output depends on are
removed, and so are Identity nodes and a Reshape of a Reshape. --input-shape fixes an input's shape (and declares it in OUT),
so that more folds; a computed tensor larger than --max-fold-bytes (at most
2 GiB, the cap on any one tensor, however large the flag) stays computed,
and once the folded tensors take --max-fold-total-bytes together, the rest
stays computed too (a note says so). --annotate also writes the inferred
type and shape of every value into OUT's value_info. Prints the nodes and
bytes before and after, and the problems found.

OUT must be a regular file or not exist yet. A model whose tensors, in its
graph or in any subgraph, keep their data in external files must be
folded beside itself (OUT in MODEL's folder), where OUT finds them.

Problems are those of infer: a declared type contradicted inside an If
branch that may not run (its condition not known before the run) is a
"note"; the branch an If with a known condition does not take is dropped
unread.

Exit status (the same as infer's): 0, or 1 when a node refuses its inputs
or a declaration is contradicted outside any branch that may not run (an
operator without a rule or a note is no failure; OUT is written all the
same); 2 when MODEL cannot be read or OUT cannot be written where asked.`

func init() {
	register("fold", "fold a model's shape computations into constants (-o OUT; --annotate)", func(args []string) int {
		return foldMain(args, os.Stdout, os.Stderr)
	})
}

func foldMain(args []string, stdout, stderr io.Writer) int {
	fs := commandFlags("fold")
	out := fs.String("o", "", "the folded model's path")
	shapes := inputShapeFlags{}
	fs.Var(shapes, "input-shape", "an input's shape, as NAME=D1,D2,... (numbers or symbols); repeat for each input")
	fs.Var(shapes, "shape", "the same as --input-shape")
	maxBytes := fs.Int64("max-fold-bytes", infer.DefaultMaxFoldBytes, "keep computed any tensor larger than this many bytes (at most 2 GiB; 0: fold nothing)")
	maxTotal := fs.Int64("max-fold-total-bytes", infer.DefaultMaxFoldTotalBytes, "keep computed what follows once the folded tensors take this many bytes together (0: fold nothing, -1: no limit)")
	maxGrowth := fs.Float64("max-growth", infer.DefaultMaxFoldGrowth, "keep as nodes the generators whose folded outputs exceed this many times their inputs (over 4 KiB), and stop folding once the constants added reach this many times the model's size (-1: no bound)")
	annotate := fs.Bool("annotate", false, "write the inferred shapes into the model's value_info")
	pos, code, ok := parseCommand(fs, foldUsage, args, stdout, stderr)
	if !ok {
		return code
	}
	if len(pos) != 1 {
		return usageError(stderr, "fold", "give one MODEL, not %d", len(pos))
	}
	if *out == "" {
		return usageError(stderr, "fold", "give the folded model's path with -o OUT")
	}
	if info, err := os.Stat(*out); err == nil {
		// A named pipe would block the write until a reader comes.
		if err := safefile.Regular(*out, info); err != nil {
			return usageError(stderr, "fold", "OUT: %v", err)
		}
	}
	path := modelPath(pos[0])
	m, err := onnx.ReadModel(path)
	if err != nil {
		fmt.Fprintln(stderr, "onnxshape fold:", oneLine(err.Error()))
		return 2
	}
	if hasExternalData(m) && !sameDir(path, *out) {
		fmt.Fprintln(stderr, "onnxshape fold: the model keeps tensors in external files, which OUT reads relative to its folder: write OUT beside MODEL")
		return 2
	}
	if *maxBytes == 0 || *maxTotal == 0 {
		*maxBytes = -1 // fold nothing
	}
	// The protobuf forms: the model was read to look for external data.
	opt := &infer.Options{InputShapes: shapes, MaxFoldBytes: *maxBytes, MaxFoldTotalBytes: *maxTotal, MaxFoldGrowth: *maxGrowth}
	folded, r, st, err := infer.FoldProto(context.Background(), m, filepath.Dir(path), opt)
	if err != nil {
		fmt.Fprintln(stderr, "onnxshape fold:", oneLine(err.Error()))
		return 1
	}
	if *annotate {
		infer.AnnotateProto(folded, r)
	}
	b, err := onnx.EncodeModel(folded)
	if err == nil {
		err = writeRegular(*out, b)
	}
	if err != nil {
		fmt.Fprintln(stderr, "onnxshape fold:", oneLine(err.Error()))
		return 1
	}
	fmt.Fprintf(stdout, "%s: %d nodes, %d bytes\n", path, st.NodesBefore, st.BytesBefore)
	fmt.Fprintf(stdout, "%s: %d nodes, %d bytes (%d nodes folded into constants, %d removed)\n", *out, st.NodesAfter, len(b), st.Folded, st.Removed)
	if st.Limited {
		fmt.Fprintf(stdout, "note: the folded tensors reached --max-fold-total-bytes (%d bytes): later nodes stay computed\n", *maxTotal)
	}
	for _, p := range r.Problems {
		if p.Kind != infer.NoRule {
			fmt.Fprintln(stdout, oneLine(printable(fmt.Sprintf("%s: %s", problemKind(p.Kind), p))))
		}
	}
	return inferExit(r)
}

// hasExternalData reports whether a tensor of m keeps its data in a file
// of its own: an initializer, a sparse initializer or a tensor attribute,
// of the main graph or of any subgraph (an If's branch is folded into the
// main graph, its external data with it).
func hasExternalData(m *pb.ModelProto) bool {
	external := func(tp *pb.TensorProto) bool { return tp.GetDataLocation() == pb.TensorProto_EXTERNAL }
	sparse := func(sp *pb.SparseTensorProto) bool { return external(sp.GetValues()) || external(sp.GetIndices()) }
	// An explicit stack: subgraphs nest as deep as the decoder allows.
	graphs := []*pb.GraphProto{m.GetGraph()}
	for len(graphs) > 0 {
		g := graphs[len(graphs)-1]
		graphs = graphs[:len(graphs)-1]
		if slices.ContainsFunc(g.GetInitializer(), external) || slices.ContainsFunc(g.GetSparseInitializer(), sparse) {
			return true
		}
		for _, n := range g.GetNode() {
			for _, a := range n.GetAttribute() {
				if (a.GetT() != nil && external(a.GetT())) || slices.ContainsFunc(a.GetTensors(), external) ||
					(a.GetSparseTensor() != nil && sparse(a.GetSparseTensor())) || slices.ContainsFunc(a.GetSparseTensors(), sparse) {
					return true
				}
				if a.GetG() != nil {
					graphs = append(graphs, a.GetG())
				}
				graphs = append(graphs, a.GetGraphs()...)
			}
		}
	}
	return false
}

func sameDir(a, b string) bool {
	da, err1 := filepath.Abs(filepath.Dir(a))
	db, err2 := filepath.Abs(filepath.Dir(b))
	return err1 == nil && err2 == nil && da == db
}

// writeRegular writes b to the regular file at path, refusing at once a
// named pipe or a device put there since it was checked.
func writeRegular(path string, b []byte) error {
	f, err := safefile.Create(path)
	if err != nil {
		return err
	}
	_, err = f.Write(b)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
