package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/onnxshape/onnxshape/infer"
	"github.com/onnxshape/onnxshape/onnx"
	"github.com/onnxshape/onnxshape/onnx/pb"
)

const foldUsage = `usage: onnxshape fold MODEL -o OUT [--input-shape NAME=1,3,H,W]... [--max-fold-bytes N] [--annotate]

Writes to OUT a copy of MODEL in which every node whose outputs are known
before the model runs (initializers, Constant, Shape of known dimensions,
and everything computed from those: the Shape -> Gather -> Concat ->
Reshape chains exporters write) is replaced by initializers, an If whose
condition is known by the branch it takes, nodes no output depends on are
removed, and so are Identity nodes and a Reshape of a Reshape. --input-shape fixes an input's shape (and declares it in OUT),
so that more folds; a computed tensor larger than --max-fold-bytes stays
computed. --annotate also writes the inferred type and shape of every
value into OUT's value_info. Prints the nodes and bytes before and after.`

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
	maxBytes := fs.Int64("max-fold-bytes", infer.DefaultMaxFoldBytes, "keep computed any tensor larger than this many bytes")
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
	if *maxBytes == 0 {
		*maxBytes = -1 // fold nothing
	}
	// The protobuf forms: the model was read to look for external data.
	opt := &infer.Options{InputShapes: shapes, MaxFoldBytes: *maxBytes}
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
		err = os.WriteFile(*out, b, 0o644)
	}
	if err != nil {
		fmt.Fprintln(stderr, "onnxshape fold:", oneLine(err.Error()))
		return 1
	}
	fmt.Fprintf(stdout, "%s: %d nodes, %d bytes\n", path, st.NodesBefore, st.BytesBefore)
	fmt.Fprintf(stdout, "%s: %d nodes, %d bytes (%d nodes folded into constants, %d removed)\n", *out, st.NodesAfter, len(b), st.Folded, st.Removed)
	for _, p := range r.Problems {
		if p.Kind != infer.NoRule {
			fmt.Fprintf(stdout, "%s: %s\n", problemKind(p.Kind), p)
		}
	}
	return 0
}

// hasExternalData reports whether an initializer of m keeps its data in a
// file of its own.
func hasExternalData(m *pb.ModelProto) bool {
	for _, tp := range m.GetGraph().GetInitializer() {
		if tp.GetDataLocation() == pb.TensorProto_EXTERNAL {
			return true
		}
	}
	return false
}

func sameDir(a, b string) bool {
	da, err1 := filepath.Abs(filepath.Dir(a))
	db, err2 := filepath.Abs(filepath.Dir(b))
	return err1 == nil && err2 == nil && da == db
}
