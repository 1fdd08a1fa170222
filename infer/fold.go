package infer

import (
	"context"
	"fmt"
	"github.com/onnxshape/onnxshape/graph"

	"github.com/onnxshape/onnxshape/tensor"

	"github.com/onnxshape/onnxshape/onnx"
	"github.com/onnxshape/onnxshape/onnx/pb"
	"google.golang.org/protobuf/proto"
)

// FoldStats tells what Fold changed.
type FoldStats struct {
	NodesBefore, NodesAfter int
	BytesBefore, BytesAfter int // the encoded model's size
	Folded                  int // nodes replaced by constants
	Removed                 int // dead nodes, needless Identity and Reshape
	// Kept counts the nodes whose outputs are known but stay nodes under
	// Options.MaxFoldGrowth: generators whose outputs dwarf their inputs.
	Kept int
	// Limited is set when Options.MaxFoldTotalBytes left some node
	// computed that could have been folded.
	Limited bool
}

// String reads "nodes 16 -> 9 (0 folded into constants, 7 removed),
// bytes 17771 -> 17289".
func (s FoldStats) String() string {
	kept := ""
	if s.Kept > 0 {
		kept = fmt.Sprintf(", %d generators kept", s.Kept)
	}
	return fmt.Sprintf("nodes %d -> %d (%d folded into constants, %d removed%s), bytes %d -> %d",
		s.NodesBefore, s.NodesAfter, s.Folded, s.Removed, kept, s.BytesBefore, s.BytesAfter)
}

// Fold folds the encoded model b and returns the folded model, encoded:
// every node of the main graph whose outputs inference knows (under
// opt.MaxFoldBytes) is replaced by initializers, an If whose condition is
// known by the branch it takes, a Reshape or Expand to a computed shape
// gets a constant target, nodes no output depends on are removed, and so
// are Identity nodes and a Reshape of a Reshape. opt.InputShapes, when
// given, also become the declared shapes of the inputs. External tensor
// data is read relative to baseDir, and the folded model refers to it
// the same way. The Result is the inference of the folded model.
func Fold(ctx context.Context, b []byte, baseDir string, opt *Options) ([]byte, *Result, FoldStats, error) {
	mp, err := onnx.DecodeModel(b)
	if err != nil {
		return nil, nil, FoldStats{}, err
	}
	folded, r, st, err := FoldProto(ctx, mp, baseDir, opt)
	if err != nil {
		return nil, nil, st, err
	}
	out, err := onnx.EncodeModel(folded)
	if err != nil {
		return nil, nil, st, err
	}
	return out, r, st, nil
}

// FoldProto is Fold for a caller who holds the protobuf form of a model:
// it returns a folded copy of mp, which is not modified.
func FoldProto(ctx context.Context, mp *pb.ModelProto, baseDir string, opt *Options) (*pb.ModelProto, *Result, FoldStats, error) {
	if opt == nil {
		opt = &Options{}
	}
	var st FoldStats
	st.BytesBefore = proto.Size(mp)
	st.NodesBefore = len(mp.GetGraph().GetNode())
	m := proto.Clone(mp).(*pb.ModelProto)
	g := m.GetGraph()
	if g == nil {
		return nil, nil, st, fmt.Errorf("model has no graph")
	}
	for _, in := range g.GetInput() {
		if dims, ok := opt.InputShapes[in.GetName()]; ok {
			setShape(in, dims)
		}
	}
	r, err := Proto(ctx, m, baseDir, opt)
	if err != nil {
		return nil, nil, st, err
	}
	st.Limited = r.FoldLimited
	if inlineIfs(g, r) > 0 {
		// The branches' nodes are the graph's now: infer them there.
		if r, err = Proto(ctx, m, baseDir, opt); err != nil {
			return nil, nil, st, err
		}
		st.Limited = r.FoldLimited
	}

	// Nodes whose every output is known become initializers.
	legacy := m.GetIrVersion() < 4 // initializers were also listed as inputs
	growth := opt.foldGrowth()
	budget := int64(growth * float64(st.BytesBefore)) // bytes folding may add
	kept := g.Node[:0]
	for _, n := range g.GetNode() {
		var consts []*pb.TensorProto
		// An Identity is removed below rather than copied into a second
		// initializer.
		foldable := len(n.GetOutput()) > 0 && n.GetOpType() != "Identity"
		for _, o := range n.GetOutput() {
			if o == "" {
				continue
			}
			v, ok := r.lookup(o)
			if !ok || v.Const == nil || v.Kind != graph.KindTensor {
				foldable = false
				break
			}
			tp, err := onnx.TensorToProto(v.Const, o)
			if err != nil {
				foldable = false
				break
			}
			consts = append(consts, tp)
		}
		if foldable && growth > 0 {
			if out := constBytes(consts); out > foldFloor && (out > int64(growth*float64(inputBytes(n, r))) || out > budget) {
				foldable = false // a generator: its output dwarfs its inputs
				st.Kept++
			} else {
				budget -= out
			}
		}
		if !foldable {
			kept = append(kept, n)
			continue
		}
		st.Folded++
		g.Initializer = append(g.Initializer, consts...)
		if legacy {
			for _, tp := range consts {
				g.Input = append(g.Input, valueInfoOf(tp.GetName(), constValue(r.byName[tp.GetName()].Const)))
			}
		}
	}
	g.Node = kept

	before := len(g.Node)
	shapeTargets(g, r)
	removeIdentities(g)
	mergeReshapes(g, r)
	removeDead(g)
	st.Removed = before - len(g.Node)
	st.NodesAfter = len(g.Node)

	// The folded model is inferred again: its values are what the caller
	// annotates and prints.
	r2, err := Proto(ctx, m, baseDir, opt)
	if err != nil {
		return nil, nil, st, err
	}
	st.BytesAfter = proto.Size(m)
	return m, r2, st, nil
}

// foldFloor is the size under which a folded node's outputs always become
// initializers, however small its inputs: shapes, axes, small tables.
const foldFloor = 4 << 10

// constBytes is the data size of the folded outputs.
func constBytes(tps []*pb.TensorProto) int64 {
	var n int64
	for _, tp := range tps {
		n += int64(proto.Size(tp))
	}
	return n
}

// inputBytes is the size of the node's inputs whose contents are known.
func inputBytes(n *pb.NodeProto, r *Result) int64 {
	var b int64
	for _, in := range n.GetInput() {
		if v, ok := r.lookup(in); ok && v.Const != nil {
			b += int64(v.Const.ByteLen())
		}
	}
	return b
}

// inlineIfs replaces each If whose condition is known by the nodes of the
// branch it takes, their values renamed apart ("If_3/x"), and an Identity
// per output that the Identity removal then takes away. It returns how many
// it inlined.
func inlineIfs(g *pb.GraphProto, r *Result) int {
	taken := map[string]bool{}
	for _, n := range g.GetNode() {
		taken[n.GetName()] = true
		for _, o := range n.GetOutput() {
			taken[o] = true
		}
	}
	for _, tp := range g.GetInitializer() {
		taken[tp.GetName()] = true
	}
	for _, in := range g.GetInput() {
		taken[in.GetName()] = true
	}
	fresh := func(base string) string {
		name := base
		for i := 1; taken[name]; i++ {
			name = fmt.Sprintf("%s_%d", base, i)
		}
		taken[name] = true
		return name
	}
	inlined := 0
	var nodes []*pb.NodeProto
	for i, n := range g.GetNode() {
		branch := takenBranch(n, r)
		if branch == nil || len(branch.GetOutput()) != len(n.GetOutput()) || len(branch.GetSparseInitializer()) > 0 {
			nodes = append(nodes, n)
			continue
		}
		inlined++
		prefix := n.GetName()
		if prefix == "" {
			prefix = fmt.Sprintf("If_%d", i)
		}
		rename := map[string]string{}
		for _, tp := range branch.GetInitializer() {
			rename[tp.GetName()] = fresh(prefix + "/" + tp.GetName())
		}
		for _, bn := range branch.GetNode() {
			for _, o := range bn.GetOutput() {
				if o != "" {
					rename[o] = fresh(prefix + "/" + o)
				}
			}
		}
		for _, tp := range branch.GetInitializer() {
			c := proto.Clone(tp).(*pb.TensorProto)
			c.Name = proto.String(rename[tp.GetName()])
			g.Initializer = append(g.Initializer, c)
		}
		for _, bn := range branch.GetNode() {
			c := proto.Clone(bn).(*pb.NodeProto)
			if c.GetName() != "" {
				c.Name = proto.String(fresh(prefix + "/" + c.GetName()))
			}
			for k, in := range c.Input {
				if to, ok := rename[in]; ok {
					c.Input[k] = to
				}
			}
			for k, o := range c.Output {
				if to, ok := rename[o]; ok {
					c.Output[k] = to
				}
			}
			for _, a := range c.GetAttribute() {
				graphs := a.GetGraphs()
				if a.GetG() != nil {
					graphs = append(graphs, a.GetG())
				}
				for _, sg := range graphs {
					for from, to := range rename {
						renameInputs(sg, from, to)
					}
				}
			}
			nodes = append(nodes, c)
		}
		for k, out := range branch.GetOutput() {
			src := out.GetName()
			if to, ok := rename[src]; ok {
				src = to
			}
			nodes = append(nodes, &pb.NodeProto{OpType: proto.String("Identity"), Name: proto.String(fresh(prefix + "/output")),
				Input: []string{src}, Output: []string{n.GetOutput()[k]}})
		}
	}
	g.Node = nodes
	return inlined
}

// takenBranch returns the branch an If node takes when its condition is
// known, nil otherwise.
func takenBranch(n *pb.NodeProto, r *Result) *pb.GraphProto {
	if n.GetOpType() != "If" || !(n.GetDomain() == "" || n.GetDomain() == "ai.onnx") || len(n.GetInput()) != 1 {
		return nil
	}
	cond, ok := r.lookup(n.GetInput()[0])
	if !ok || len(cond.Elems) != 1 {
		return nil
	}
	b, known := cond.Elems[0].Value()
	if !known {
		return nil
	}
	name := "else_branch"
	if b != 0 {
		name = "then_branch"
	}
	for _, a := range n.GetAttribute() {
		if a.GetName() == name {
			return a.GetG()
		}
	}
	return nil
}

// setShape declares the tensor shape dims on vi.
func setShape(vi *pb.ValueInfoProto, dims []graph.Dim) {
	tt := vi.GetType().GetTensorType()
	if tt == nil {
		return
	}
	tt.Shape = shapeProto(dims)
}

func shapeProto(dims []graph.Dim) *pb.TensorShapeProto {
	s := &pb.TensorShapeProto{Dim: []*pb.TensorShapeProto_Dimension{}}
	for _, d := range dims {
		if v, ok := d.Value(); ok {
			s.Dim = append(s.Dim, &pb.TensorShapeProto_Dimension{Value: &pb.TensorShapeProto_Dimension_DimValue{DimValue: v}})
		} else if isFresh(d) {
			s.Dim = append(s.Dim, &pb.TensorShapeProto_Dimension{})
		} else {
			s.Dim = append(s.Dim, &pb.TensorShapeProto_Dimension{Value: &pb.TensorShapeProto_Dimension_DimParam{DimParam: d.String()}})
		}
	}
	return s
}

// valueInfoOf declares a value's type as inference knows it.
func valueInfoOf(name string, v *Value) *pb.ValueInfoProto {
	tt := &pb.TypeProto_Tensor{ElemType: proto.Int32(int32(v.Type))}
	if v.Ranked {
		tt.Shape = shapeProto(v.Shape)
	}
	var t *pb.TypeProto
	elem := &pb.TypeProto{Value: &pb.TypeProto_TensorType{TensorType: tt}}
	if v.Key != tensor.Undefined { // a map, or a sequence of maps
		elem = &pb.TypeProto{Value: &pb.TypeProto_MapType{MapType: &pb.TypeProto_Map{KeyType: proto.Int32(int32(v.Key)),
			ValueType: &pb.TypeProto{Value: &pb.TypeProto_TensorType{TensorType: &pb.TypeProto_Tensor{ElemType: proto.Int32(int32(v.Type))}}}}}}
	}
	switch v.Kind {
	case graph.KindMap:
		t = elem
	case graph.KindSequence:
		t = &pb.TypeProto{Value: &pb.TypeProto_SequenceType{SequenceType: &pb.TypeProto_Sequence{ElemType: elem}}}
	case graph.KindOptional:
		t = &pb.TypeProto{Value: &pb.TypeProto_OptionalType{OptionalType: &pb.TypeProto_Optional{
			ElemType: &pb.TypeProto{Value: &pb.TypeProto_TensorType{TensorType: tt}}}}}
	default:
		t = &pb.TypeProto{Value: &pb.TypeProto_TensorType{TensorType: tt}}
	}
	return &pb.ValueInfoProto{Name: proto.String(name), Type: t}
}

// graphOutputs returns the names of g's outputs.
func graphOutputs(g *pb.GraphProto) map[string]bool {
	out := map[string]bool{}
	for _, o := range g.GetOutput() {
		out[o.GetName()] = true
	}
	return out
}

// renameInputs replaces every use of from by to, in the nodes of g and of
// their subgraphs.
func renameInputs(g *pb.GraphProto, from, to string) {
	for _, n := range g.GetNode() {
		for i, in := range n.Input {
			if in == from {
				n.Input[i] = to
			}
		}
		for _, a := range n.GetAttribute() {
			if a.GetG() != nil {
				renameInputs(a.GetG(), from, to)
			}
			for _, sg := range a.GetGraphs() {
				renameInputs(sg, from, to)
			}
		}
	}
}

// removeIdentities drops each Identity whose output is no graph output,
// its readers reading its input instead.
func removeIdentities(g *pb.GraphProto) {
	outs := graphOutputs(g)
	kept := g.Node[:0]
	for _, n := range g.GetNode() {
		if n.GetOpType() == "Identity" && (n.GetDomain() == "" || n.GetDomain() == "ai.onnx") &&
			len(n.GetInput()) == 1 && len(n.GetOutput()) == 1 && !outs[n.GetOutput()[0]] && n.GetInput()[0] != "" {
			renameInputs(g, n.GetOutput()[0], n.GetInput()[0])
			continue
		}
		kept = append(kept, n)
	}
	g.Node = kept
}

// mergeReshapes makes a Reshape of a Reshape's output read the first
// Reshape's input, when its target shape is known numbers without 0 (a 0
// would copy a dimension of the intermediate); the first Reshape, unread,
// then goes with the dead nodes. A Reshape whose output has its input's
// shape is dropped like an Identity.
func mergeReshapes(g *pb.GraphProto, r *Result) {
	producer := map[string]*pb.NodeProto{}
	for _, n := range g.GetNode() {
		for _, o := range n.GetOutput() {
			producer[o] = n
		}
	}
	isReshape := func(n *pb.NodeProto) bool {
		return n != nil && n.GetOpType() == "Reshape" && (n.GetDomain() == "" || n.GetDomain() == "ai.onnx") && len(n.GetInput()) == 2
	}
	outs := graphOutputs(g)
	kept := g.Node[:0]
	for _, n := range g.GetNode() {
		if !isReshape(n) {
			kept = append(kept, n)
			continue
		}
		x, _ := r.lookup(n.GetInput()[0])
		y, _ := r.lookup(n.GetOutput()[0])
		if x != nil && y != nil && x.Rank() >= 0 && y.Rank() >= 0 && sameShape(x.Shape, y.Shape) && !outs[n.GetOutput()[0]] && !hasFresh(x.Shape) {
			renameInputs(g, n.GetOutput()[0], n.GetInput()[0])
			continue
		}
		if inner := producer[n.GetInput()[0]]; isReshape(inner) {
			if target, ok := r.lookup(n.GetInput()[1]); ok {
				if xs, ok := knownInts(target); ok && !contains(xs, 0) {
					n.Input[0] = inner.GetInput()[0]
				}
			}
		}
		kept = append(kept, n)
	}
	g.Node = kept
}

// shapeTargets gives a Reshape or an Expand whose target shape is computed
// but known as dimensions a constant target instead: for a Reshape, a
// dimension equal to the input's at the same place becomes 0 (copy it) and
// one other symbolic dimension -1; for an Expand, a dimension equal to the
// input's aligned one becomes 1 (keep it). Reshape(x, Concat(Shape(x)[0],
// -1)) becomes Reshape(x, [0, -1]) even when N stays symbolic.
func shapeTargets(g *pb.GraphProto, r *Result) {
	taken := map[string]bool{}
	for _, tp := range g.GetInitializer() {
		taken[tp.GetName()] = true
	}
	for _, n := range g.GetNode() {
		if !(n.GetDomain() == "" || n.GetDomain() == "ai.onnx") || len(n.GetInput()) != 2 {
			continue
		}
		x, ok1 := r.lookup(n.GetInput()[0])
		t, ok2 := r.lookup(n.GetInput()[1])
		if !ok1 || !ok2 || t.Const != nil || t.Elems == nil || x.Rank() < 0 {
			continue
		}
		var target []int64
		var ok bool
		switch n.GetOpType() {
		case "Reshape":
			target, ok = reshapeTarget(n, x, t.Elems)
		case "Expand":
			target, ok = expandTarget(x, t.Elems)
		}
		if !ok {
			continue
		}
		name := n.GetInput()[1] + "_const"
		for taken[name] {
			name += "_"
		}
		taken[name] = true
		tp, err := onnx.TensorToProto(tensor.MustFromSlice(target), name)
		if err != nil {
			continue
		}
		g.Initializer = append(g.Initializer, tp)
		n.Input[1] = name
	}
}

func reshapeTarget(n *pb.NodeProto, x *Value, elems []graph.Dim) ([]int64, bool) {
	for _, a := range n.GetAttribute() {
		if a.GetName() == "allowzero" && a.GetI() != 0 {
			return nil, false
		}
	}
	target := make([]int64, len(elems))
	inferred := false
	for i, d := range elems {
		v, known := d.Value()
		switch {
		case known && (v > 0 || v == -1):
			target[i] = v
			inferred = inferred || v == -1
		case known:
			return nil, false // a literal 0 would copy a dimension
		case i < x.Rank() && d.Equal(x.Shape[i]):
			target[i] = 0
		case !inferred:
			target[i], inferred = -1, true
		default:
			return nil, false
		}
	}
	return target, true
}

func expandTarget(x *Value, elems []graph.Dim) ([]int64, bool) {
	target := make([]int64, len(elems))
	off := len(elems) - x.Rank()
	for i, d := range elems {
		if v, known := d.Value(); known {
			target[i] = v
			continue
		}
		if k := i - off; k >= 0 && d.Equal(x.Shape[k]) {
			target[i] = 1
			continue
		}
		return nil, false
	}
	return target, true
}

func hasFresh(dims []graph.Dim) bool {
	for _, d := range dims {
		if isFresh(d) {
			return true
		}
	}
	return false
}

func contains(xs []int64, v int64) bool {
	for _, x := range xs {
		if x == v {
			return true
		}
	}
	return false
}

// removeDead drops the nodes no graph output depends on, then the
// initializers and value_info no node reads.
func removeDead(g *pb.GraphProto) {
	producer := map[string]int{}
	for i, n := range g.GetNode() {
		for _, o := range n.GetOutput() {
			if o != "" {
				producer[o] = i
			}
		}
	}
	live := make([]bool, len(g.GetNode()))
	needed := map[string]bool{}
	var queue []string
	for _, o := range g.GetOutput() {
		queue = append(queue, o.GetName())
	}
	for len(queue) > 0 {
		name := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		if needed[name] {
			continue
		}
		needed[name] = true
		i, ok := producer[name]
		if !ok || live[i] {
			continue
		}
		live[i] = true
		queue = append(queue, readsOf(g.GetNode()[i])...)
	}
	kept := g.Node[:0]
	for i, n := range g.GetNode() {
		if live[i] {
			kept = append(kept, n)
		}
	}
	g.Node = kept
	inputs := map[string]bool{}
	for _, in := range g.GetInput() {
		inputs[in.GetName()] = true
	}
	var inits []*pb.TensorProto
	for _, tp := range g.GetInitializer() {
		if needed[tp.GetName()] || inputs[tp.GetName()] {
			inits = append(inits, tp)
		}
	}
	g.Initializer = inits
	var infos []*pb.ValueInfoProto
	for _, vi := range g.GetValueInfo() {
		if needed[vi.GetName()] {
			infos = append(infos, vi)
		}
	}
	g.ValueInfo = infos
}

// readsOf returns the values a node reads: its inputs and the outer values
// its subgraphs read.
func readsOf(n *pb.NodeProto) []string {
	var out []string
	for _, in := range n.GetInput() {
		if in != "" {
			out = append(out, in)
		}
	}
	for _, a := range n.GetAttribute() {
		graphs := a.GetGraphs()
		if a.GetG() != nil {
			graphs = append(graphs, a.GetG())
		}
		for _, sg := range graphs {
			for _, sn := range sg.GetNode() {
				out = append(out, readsOf(sn)...)
			}
		}
	}
	return out
}

// Annotate returns the encoded model b with the inferred type of every
// tensor node output of its main graph written into its value_info
// (replacing what it declared), and graph outputs without a type given
// theirs. r is the inference of that model (from Bytes or Fold). Values
// whose type is unknown keep what the model declared.
func Annotate(b []byte, r *Result) ([]byte, error) {
	mp, err := onnx.DecodeModel(b)
	if err != nil {
		return nil, err
	}
	AnnotateProto(mp, r)
	return onnx.EncodeModel(mp)
}

// AnnotateProto is Annotate for a caller who holds the protobuf form of a
// model: it writes the inferred types into mp itself.
func AnnotateProto(mp *pb.ModelProto, r *Result) {
	g := mp.GetGraph()
	outs := map[string]*pb.ValueInfoProto{}
	for _, o := range g.GetOutput() {
		outs[o.GetName()] = o
	}
	old := map[string]*pb.ValueInfoProto{}
	for _, vi := range g.GetValueInfo() {
		old[vi.GetName()] = vi
	}
	var infos []*pb.ValueInfoProto
	for _, n := range g.GetNode() {
		for _, name := range n.GetOutput() {
			v, ok := r.lookup(name)
			if name == "" {
				continue
			}
			// Sequences and optionals keep their declarations: a Value does
			// not say what an optional of a sequence holds.
			if !ok || v.Type == 0 || v.Kind != graph.KindTensor {
				if vi, ok := old[name]; ok {
					infos = append(infos, vi)
				}
				continue
			}
			vi := valueInfoOf(name, v)
			if o, isOut := outs[name]; isOut {
				// A graph output's type must have a shape (onnx.checker).
				if o.Type == nil && v.Ranked {
					o.Type = vi.Type
				}
				continue
			}
			infos = append(infos, vi)
		}
	}
	g.ValueInfo = infos
}
