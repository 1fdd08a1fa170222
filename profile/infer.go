package profile

import (
	"context"
	"fmt"
	"github.com/onnxshape/onnxshape/graph"
	"strings"

	"github.com/onnxshape/onnxshape/infer"
	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/tensor"
)

// The check's own propagation knows a value's shape only as far as a
// kernel computes it on known inputs. Package infer, the propagation of
// `onnxshape infer`, knows more: symbolic dimensions carried through every
// operator's shape rule. Check runs it once and takes what it knows where
// its own knowledge stops, so that a declaration (GR3) is compared with the
// inferred shape, symbols included, instead of being left to run time.

// inferFoldBytes caps any one value whose contents inference computes. The
// check needs shapes from inference, not contents (it folds its own
// constants within foldBudget), so the cap is infer's default, never more
// than foldBudget.
func inferFoldBytes() int64 { return min(int64(infer.DefaultMaxFoldBytes), foldBudget) }

// inference is what package infer knows of the main graph's values.
type inference struct {
	result *infer.Result
	// inputSymbols are the dim_params the graph inputs declare: the only
	// symbols that name a size the caller fixes. Any other symbol in an
	// inferred dimension is inference's own name for a size it does not
	// know (data-dependent), which says nothing.
	inputSymbols map[string]bool
}

// runInference infers the model with its declarations left out (value_info
// and the outputs' types): inference fills what it does not know from a
// declaration, and a declaration compared with itself would always agree.
// It returns nil when inference cannot run; the check then knows what its
// own propagation does.
func runInference(m *pb.ModelProto, baseDir string) (inf *inference) {
	defer func() {
		if recover() != nil {
			inf = nil // inference is an aid: without it, the check defers more
		}
	}()
	g := m.GetGraph()
	bare := &pb.GraphProto{Name: g.Name, Node: g.GetNode(), Initializer: g.GetInitializer(),
		SparseInitializer: g.GetSparseInitializer(), Input: g.GetInput()}
	for _, o := range g.GetOutput() {
		bare.Output = append(bare.Output, &pb.ValueInfoProto{Name: o.Name})
	}
	// Check takes no context: its inference, like the rest of it, is bounded
	// by the model's size and the fold cap.
	res, err := infer.Proto(context.Background(), &pb.ModelProto{IrVersion: m.IrVersion, OpsetImport: m.GetOpsetImport(), Graph: bare},
		baseDir, &infer.Options{MaxFoldBytes: inferFoldBytes()})
	if err != nil {
		return nil
	}
	inf = &inference{result: res, inputSymbols: map[string]bool{}}
	for _, in := range g.GetInput() {
		for _, d := range in.GetType().GetTensorType().GetShape().GetDim() {
			if p := d.GetDimParam(); p != "" {
				inf.inputSymbols[p] = true
			}
		}
	}
	return inf
}

// tensorValue returns what inference knows of the tensor value name, nil
// when it knows nothing of it or it is no tensor.
func (inf *inference) tensorValue(name string) *infer.Value {
	if inf == nil {
		return nil
	}
	v, err := inf.result.Value(name)
	if err != nil || v.Kind != graph.KindTensor {
		return nil
	}
	return v
}

// meaningful reports whether d names a size: a number, or an expression
// over the symbols of the graph inputs only. inf is not nil.
func (inf *inference) meaningful(d graph.Dim) bool {
	for _, s := range d.Symbols() {
		if !inf.inputSymbols[s] {
			return false
		}
	}
	return true
}

// learn fills what k does not know of value name (its element type, its
// rank, a dimension) from inference. A rank that disagrees with k's is left
// alone: k, from a kernel or the operator's signature, stands.
func (inf *inference) learn(name string, k *known) {
	v := inf.tensorValue(name)
	if v == nil || k.kind == otherKind || (!v.Ranked && v.Type == tensor.Undefined) {
		return
	}
	k.kind = tensorKind
	if k.dtype == tensor.Undefined && v.Type.Valid() {
		k.dtype = v.Type
	}
	if !v.Ranked {
		return
	}
	if !k.hasRank {
		k.hasRank, k.dims = true, make([]int, len(v.Shape))
		for i := range k.dims {
			k.dims[i] = -1
		}
	}
	if len(k.dims) != len(v.Shape) {
		return
	}
	for i, d := range v.Shape {
		if n, ok := d.Value(); ok && k.dims[i] < 0 && n >= 0 && n <= 1<<40 {
			k.dims[i] = int(n)
		}
	}
}

// symbolicMismatch compares the dimensions declaration decl names by a
// graph input's symbol (dim_param "N") with what is known of the value:
// k's numbers, else inference's expressions. An inferred "N" agrees; a
// number or another expression of the inputs' sizes contradicts it. A
// symbol no graph input declares fixes nothing and agrees with any size,
// as does a dimension inference does not know. It returns the two shapes
// as "[N,4]" and "[N*2,4]" when they disagree.
func (inf *inference) symbolicMismatch(name string, decl *pb.TypeProto, k *known) (declared, actual string, bad bool) {
	dims := decl.GetTensorType().GetShape().GetDim()
	if !k.hasRank || len(dims) != len(k.dims) {
		return "", "", false
	}
	v := inf.tensorValue(name)
	if v != nil && (!v.Ranked || len(v.Shape) != len(k.dims)) {
		v = nil
	}
	var symbols map[string]bool
	if inf != nil {
		symbols = inf.inputSymbols
	}
	have := make([]string, len(k.dims))
	for i, n := range k.dims {
		got, ok := inf.dim(v, i, n)
		have[i] = "?"
		if !ok {
			continue
		}
		have[i] = got.String()
		p := dims[i].GetDimParam()
		if symbols[p] && !graph.Sym(p).Equal(got) {
			bad = true
		}
	}
	return declaredShape(dims), "[" + strings.Join(have, ",") + "]", bad
}

// dim returns dimension i of a value: n when it is a number (n >= 0), else
// what inference v says when that names a size.
func (inf *inference) dim(v *infer.Value, i, n int) (graph.Dim, bool) {
	switch {
	case n >= 0:
		return graph.Const(int64(n)), true
	case v != nil && inf.meaningful(v.Shape[i]):
		return v.Shape[i], true
	}
	return graph.Dim{}, false
}

// describe is k.describe() with the dimensions k does not know written as
// inference knows them: tensor(float)[N,3] rather than tensor(float)[?,3].
func (inf *inference) describe(name string, k *known) string {
	s := k.describe()
	if inf == nil || k.kind != tensorKind || !k.hasRank {
		return s
	}
	v := inf.tensorValue(name)
	if v == nil || !v.Ranked || len(v.Shape) != len(k.dims) {
		return s
	}
	parts := make([]string, len(k.dims))
	for i, n := range k.dims {
		parts[i] = "?"
		if d, ok := inf.dim(v, i, n); ok {
			parts[i] = d.String()
		}
	}
	return strings.TrimSuffix(s, shapeString(k.dims)) + "[" + strings.Join(parts, ",") + "]"
}

// describeDeclared is d.describe() with the declaration's symbols: a
// dim_param "N" reads N, not "?".
func describeDeclared(d *known, decl *pb.TypeProto) string {
	s := d.describe()
	dims := decl.GetTensorType().GetShape().GetDim()
	if d.kind != tensorKind || !d.hasRank || len(dims) != len(d.dims) {
		return s
	}
	return strings.TrimSuffix(s, shapeString(d.dims)) + declaredShape(dims)
}

// declaredShape renders declared dimensions: numbers, symbols, "?".
func declaredShape(dims []*pb.TensorShapeProto_Dimension) string {
	parts := make([]string, len(dims))
	for i, d := range dims {
		switch x := d.GetValue().(type) {
		case *pb.TensorShapeProto_Dimension_DimValue:
			parts[i] = fmt.Sprint(x.DimValue)
		case *pb.TensorShapeProto_Dimension_DimParam:
			parts[i] = x.DimParam
		default:
			parts[i] = "?"
		}
	}
	return "[" + strings.Join(parts, ",") + "]"
}
