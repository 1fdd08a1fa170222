package infer

import (
	"context"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/internal/nodeproto"
	"github.com/onnxshape/onnxshape/onnx"
	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
	"google.golang.org/protobuf/proto"
)

// DefaultMaxFoldBytes is the default cap on a value whose contents
// inference computes: 16 MiB.
const DefaultMaxFoldBytes = 16 << 20

// DefaultMaxFoldTotalBytes is the default cap on the storage of all the
// values whose contents one inference computes together: 256 MiB. A model
// can ask for many values each under MaxFoldBytes (300 constants of
// 15 MiB, 4.5 GB); once the total is used up, the later values keep their
// type and shape only.
const DefaultMaxFoldTotalBytes = 256 << 20

// Options are the settings of one inference. The zero value, like a nil
// *Options, is usable.
type Options struct {
	// InputShapes replaces the declared shape of graph inputs, by name:
	// {"x": {graph.Const(1), graph.Const(3), graph.Sym("H"), graph.Sym("W")}}.
	InputShapes map[string][]graph.Dim
	// MaxFoldBytes caps the storage of any one value whose contents are
	// computed (0 means DefaultMaxFoldBytes; negative means none is). It
	// never passes the operators' own cap on one tensor,
	// ops.DefaultMaxTensorBytes (2 GiB).
	MaxFoldBytes int64
	// MaxFoldTotalBytes caps the storage of all the values whose contents
	// are computed, together with the scratch of the kernel computing the
	// next one (0 means DefaultMaxFoldTotalBytes; negative means no cap).
	// Past it, values keep their type and shape only, and
	// Result.FoldLimited is set.
	MaxFoldTotalBytes int64
	// MaxFoldGrowth bounds how much Fold may grow a model (0 means
	// DefaultMaxFoldGrowth; negative means no bound): a node whose folded
	// outputs take more than MaxFoldGrowth times its inputs' bytes (and
	// more than 4 KiB), a generator such as ConstantOfShape or Range,
	// stays a node, and once the folded initializers take MaxFoldGrowth
	// times the model's size together, what follows stays as it is.
	MaxFoldGrowth float64
}

// DefaultMaxFoldGrowth is the default of Options.MaxFoldGrowth: a folded
// model is at most about 4 times the size of the model it folds.
const DefaultMaxFoldGrowth = 4

// foldGrowth is the bound on a fold's growth; 0 for none.
func (o *Options) foldGrowth() float64 {
	switch {
	case o == nil || o.MaxFoldGrowth == 0:
		return DefaultMaxFoldGrowth
	case o.MaxFoldGrowth < 0:
		return 0
	}
	return o.MaxFoldGrowth
}

func (o *Options) foldCap() int64 {
	switch {
	case o == nil || o.MaxFoldBytes == 0:
		return DefaultMaxFoldBytes
	case o.MaxFoldBytes < 0:
		return 0
	}
	return min(o.MaxFoldBytes, ops.DefaultMaxTensorBytes)
}

func (o *Options) foldTotal() int64 {
	switch {
	case o == nil || o.MaxFoldTotalBytes == 0:
		return DefaultMaxFoldTotalBytes
	case o.MaxFoldTotalBytes < 0:
		return math.MaxInt64
	}
	return o.MaxFoldTotalBytes
}

// Problem is one thing inference found wrong or could not follow: a node
// whose rule refuses its inputs, an operator it has no rule for, or a
// declared type that contradicts the inferred one.
type Problem struct {
	Kind  ProblemKind
	Node  string // the node's name, or "#index"; "" for a graph-level problem
	Op    string // the node's operator
	Value string // the value concerned, when there is one
	Msg   string
	// Branch names, for a Note, the If branch holding the problem, which
	// may not run: `If_0's else_branch` (nested ones joined by " > ").
	Branch string
}

// String reads `node "Reshape_3" (Reshape): value "y": declared
// float[2,5], inferred float[2,6]`.
func (p Problem) String() string {
	var parts []string
	if p.Node != "" {
		parts = append(parts, fmt.Sprintf("node %s (%s)", p.Node, p.Op))
	}
	if p.Value != "" {
		parts = append(parts, fmt.Sprintf("value %q", p.Value))
	}
	parts = append(parts, p.Msg)
	s := strings.Join(parts, ": ")
	if p.Branch != "" {
		s += fmt.Sprintf(" (only if %s runs: its condition is not known before the run)", p.Branch)
	}
	return s
}

// ProblemKind sorts problems by what they mean for the model.
type ProblemKind int

// The kinds of problems.
const (
	// Refused: a node's rule refuses its inputs or attributes, or the model
	// is malformed there; the model would fail to run.
	Refused ProblemKind = iota
	// Conflict: a declared type contradicts the inferred one.
	Conflict
	// NoRule: inference has no rule for an operator (or domain) and leaves
	// its outputs unknown; the model may well be right.
	NoRule
	// Note: a declared type contradicts the inferred one inside an If
	// branch that may not run (its condition is not known before the
	// run; Problem.Branch names it): a contradiction only if it runs,
	// such as the 8 kHz branch of a voice detector given a 16 kHz chunk.
	// A branch whose condition is known not to hold (a constant, or a
	// rank or shape test inference computes) is not inferred at all.
	Note
)

// NamedValue is one value of the main graph and what inference knows of it.
type NamedValue struct {
	Name string
	*Value
}

// Result is the outcome of inferring a model.
type Result struct {
	// Values lists every value of the main graph: inputs, initializers,
	// then node outputs in the order the nodes run.
	Values   []NamedValue
	Problems []Problem
	// FoldLimited is set when some value whose contents could have been
	// computed was left with its type and shape only, the total of
	// computed values having reached Options.MaxFoldTotalBytes.
	FoldLimited bool

	byName map[string]*Value
}

// Value returns what is known of the value name of the main graph; the
// error, as graph.Result's, says when the graph has no such value.
func (r *Result) Value(name string) (*Value, error) {
	if v, ok := r.lookup(name); ok {
		return v, nil
	}
	return nil, fmt.Errorf("infer: the model's main graph has no value %q", name)
}

// Failed reports whether the problems say the model would fail or
// contradicts itself at the shapes inferred: a node refuses its inputs
// (Refused) or a declaration is contradicted where the graph surely runs
// (Conflict). An operator without a rule (NoRule) and a contradiction in an
// If branch that may not run (Note) are not failures. The infer and fold
// commands exit 1 exactly when Failed is true.
func (r *Result) Failed() bool {
	if r == nil {
		return false
	}
	for _, p := range r.Problems {
		if p.Kind == Refused || p.Kind == Conflict {
			return true
		}
	}
	return false
}

// lookup is Value for a caller that only needs to know whether the value
// is there.
func (r *Result) lookup(name string) (*Value, bool) {
	if r == nil {
		return nil, false
	}
	v, ok := r.byName[name]
	return v, ok && v != nil
}

// Model infers the type and shape of every value of m, a model package
// graph has loaded, as File does. A model that graph refuses to load (one
// with an operator it cannot run, say) can still be inferred with File or
// Bytes.
func Model(ctx context.Context, m *graph.Model, opt *Options) (*Result, error) {
	if m == nil {
		return nil, errors.New("no model to infer")
	}
	return Proto(ctx, m.Proto(), m.BaseDir(), opt)
}

// File infers the type and shape of every value of the model file at
// path (a .onnx file; external tensor data is read beside it). It fails
// when the file is no model, the model has no graph or opset imports, or
// ctx is done; what it cannot follow is listed in Result.Problems and
// leaves the values concerned unknown.
func File(ctx context.Context, path string, opt *Options) (*Result, error) {
	if ctx != nil && ctx.Err() != nil {
		return nil, stopped(ctx.Err(), "")
	}
	mp, err := onnx.ReadModel(path)
	if err != nil {
		return nil, err
	}
	return Proto(ctx, mp, filepath.Dir(path), opt)
}

// Bytes infers the type and shape of every value of the encoded model b,
// as File does; external tensor data is read relative to baseDir.
func Bytes(ctx context.Context, b []byte, baseDir string, opt *Options) (*Result, error) {
	if ctx != nil && ctx.Err() != nil {
		return nil, stopped(ctx.Err(), "")
	}
	mp, err := onnx.DecodeModel(b)
	if err != nil {
		return nil, err
	}
	return Proto(ctx, mp, baseDir, opt)
}

// stopped is the error of an inference whose context ended, naming where
// it stopped when it had begun: errors.Is matches the context's own error
// (context.Canceled or context.DeadlineExceeded).
func stopped(err error, where string) error {
	if where == "" {
		return fmt.Errorf("inference stopped: %w", err)
	}
	return fmt.Errorf("inference stopped before %s: %w", where, err)
}

// Proto is Model for a caller who holds the protobuf form of a model, mp,
// whose external tensor data is read relative to baseDir. mp is not
// modified.
func Proto(ctx context.Context, mp *pb.ModelProto, baseDir string, opt *Options) (*Result, error) {
	if opt == nil {
		opt = &Options{}
	}
	if ctx == nil {
		ctx = context.Background()
	}
	if err := ctx.Err(); err != nil {
		return nil, stopped(err, "")
	}
	g := mp.GetGraph()
	if g == nil {
		return nil, errors.New("model has no graph")
	}
	opsets := map[string]int{}
	for _, imp := range mp.GetOpsetImport() {
		d := imp.GetDomain()
		if d == "ai.onnx" {
			d = ""
		}
		opsets[d] = int(imp.GetVersion())
	}
	if len(opsets) == 0 {
		return nil, errors.New("model imports no opset")
	}
	e := &engine{ctx: ctx, baseDir: baseDir, opsets: opsets, foldCap: opt.foldCap(), foldTotal: opt.foldTotal(), used: usedSymbols(g)}
	for _, dims := range opt.InputShapes {
		for _, d := range dims {
			for _, s := range d.Symbols() {
				e.used[s] = true
			}
		}
	}
	size := len(g.GetInput()) + len(g.GetInitializer())
	for _, n := range g.GetNode() {
		size += len(n.GetOutput())
	}
	r := &Result{byName: make(map[string]*Value, size), Values: make([]NamedValue, 0, size)}
	sc := &scope{vals: make(map[string]*Value, size)}
	for name := range opt.InputShapes {
		found := false
		for _, in := range g.GetInput() {
			found = found || in.GetName() == name
		}
		if !found {
			return nil, fmt.Errorf("an input shape is given for %q, which is no graph input", name)
		}
	}
	add := func(name string, v *Value) {
		if _, seen := r.byName[name]; !seen {
			r.Values = append(r.Values, NamedValue{name, v})
		}
		r.byName[name] = v
	}
	e.graphInputs(g, mp.GetIrVersion(), sc, opt.InputShapes, add)
	e.runGraph(g, sc, "", add)
	if err := ctx.Err(); err != nil {
		return nil, stopped(err, e.stoppedAt)
	}
	r.Problems = e.problems
	r.FoldLimited = e.foldLimited
	for i := range r.Values {
		r.Values[i].Value = r.byName[r.Values[i].Name]
	}
	return r, nil
}

// engine holds the state of one inference.
type engine struct {
	ctx     context.Context
	baseDir string // the folder of external tensor data
	opsets  map[string]int
	foldCap int64
	// foldTotal caps foldUsed, the bytes of the values computed so far
	// (see Options.MaxFoldTotalBytes); foldLimited records that it
	// stopped one.
	foldTotal, foldUsed int64
	foldLimited         bool
	used                map[string]bool // every dim_param of the model, so fresh symbols differ
	fresh               int
	problems            []Problem
	// stoppedAt names the node before which a done context stopped
	// inference ("" while it runs).
	stoppedAt string
	schemas   map[schemaKey]*ops.Schema
	// undecided names the If branches being inferred whose conditions are
	// not known, outermost first: a conflict inside one is a Note.
	undecided []string
}

// scope maps value names to values; a subgraph's scope sees its parents'.
type scope struct {
	parent *scope
	vals   map[string]*Value
}

func (s *scope) lookup(name string) (*Value, bool) {
	for ; s != nil; s = s.parent {
		if v, ok := s.vals[name]; ok {
			return v, true
		}
	}
	return nil, false
}

// newSymbol returns a symbol no dimension of the model uses: the size of a
// data-dependent or undeclared dimension.
func (e *engine) newSymbol() graph.Dim {
	for {
		e.fresh++
		name := "unk__" + strconv.Itoa(e.fresh)
		if !e.used[name] {
			return graph.Sym(name)
		}
	}
}

// isFresh reports whether d is a symbol made by newSymbol, which a
// declaration may replace.
func isFresh(d graph.Dim) bool {
	s := d.String()
	return strings.HasPrefix(s, "unk__") && !strings.ContainsAny(s, "+-*/()")
}

func usedSymbols(g *pb.GraphProto) map[string]bool {
	used := map[string]bool{}
	var walk func(g *pb.GraphProto)
	collect := func(vis []*pb.ValueInfoProto) {
		for _, vi := range vis {
			for _, d := range vi.GetType().GetTensorType().GetShape().GetDim() {
				if p := d.GetDimParam(); p != "" {
					used[p] = true
				}
			}
		}
	}
	walk = func(g *pb.GraphProto) {
		collect(g.GetInput())
		collect(g.GetOutput())
		collect(g.GetValueInfo())
		for _, n := range g.GetNode() {
			for _, a := range n.GetAttribute() {
				if a.GetG() != nil {
					walk(a.GetG())
				}
				for _, sg := range a.GetGraphs() {
					walk(sg)
				}
			}
		}
	}
	walk(g)
	return used
}

// fromType converts a declared type; unnamed unknown dimensions get fresh
// symbols.
func (e *engine) fromType(t *pb.TypeProto) *Value {
	switch {
	case t == nil:
		return &Value{}
	case t.GetSequenceType() != nil:
		v := e.fromType(t.GetSequenceType().GetElemType())
		v.Kind = graph.KindSequence
		return v
	case t.GetOptionalType() != nil:
		v := e.fromType(t.GetOptionalType().GetElemType())
		v.Kind = graph.KindOptional
		return v
	case t.GetMapType() != nil:
		mt := t.GetMapType()
		return &Value{Kind: graph.KindMap, Key: tensor.DataType(mt.GetKeyType()), Type: tensor.DataType(mt.GetValueType().GetTensorType().GetElemType())}
	}
	tt := t.GetTensorType()
	v := &Value{Type: tensor.DataType(tt.GetElemType())}
	if tt.GetShape() == nil {
		return v
	}
	v.Ranked = true
	for _, d := range tt.GetShape().GetDim() {
		v.Shape = append(v.Shape, e.fromDim(d))
	}
	return v
}

func (e *engine) fromDim(d *pb.TensorShapeProto_Dimension) graph.Dim {
	switch x := d.GetValue().(type) {
	case *pb.TensorShapeProto_Dimension_DimValue:
		return graph.Const(x.DimValue)
	case *pb.TensorShapeProto_Dimension_DimParam:
		if x.DimParam != "" {
			return graph.Sym(x.DimParam)
		}
	}
	return e.newSymbol()
}

// graphInputs gives the main graph's initializers and inputs their values.
// An initializer is read when it is small enough to compute with; a larger
// one is known by its type and shape alone. One that is also a graph input
// (from IR version 4) is a default the caller may override: its contents
// are not known.
func (e *engine) graphInputs(g *pb.GraphProto, ir int64, sc *scope, shapes map[string][]graph.Dim, add func(string, *Value)) {
	isInput := map[string]bool{}
	for _, in := range g.GetInput() {
		isInput[in.GetName()] = true
	}
	initialized := map[string]bool{}
	for _, tp := range g.GetInitializer() {
		name := tp.GetName()
		initialized[name] = true
		v := e.initializer(tp)
		if isInput[name] && ir >= 4 {
			v.Const, v.Elems = nil, nil
		}
		sc.vals[name] = v
		add(name, v)
	}
	for _, in := range g.GetInput() {
		name := in.GetName()
		if initialized[name] {
			continue
		}
		v := e.fromType(in.GetType())
		if dims, ok := shapes[name]; ok {
			v.Ranked, v.Shape = true, append([]graph.Dim{}, dims...)
		}
		sc.vals[name] = v
		add(name, v)
	}
}

// initializer reads an initializer, or only its type and shape when it is
// larger than inference computes with.
func (e *engine) initializer(tp *pb.TensorProto) *Value {
	dt := tensor.DataType(tp.GetDataType())
	shape := make([]graph.Dim, len(tp.GetDims()))
	n := int64(1)
	for i, d := range tp.GetDims() {
		shape[i] = graph.Const(d)
		// A dim an int cannot hold (2^40 on 32-bit) is refused by the
		// loader as a negative one is: a problem here too.
		if d < 0 || uint64(d) > math.MaxInt || (d > 0 && n > math.MaxInt64/d) {
			n = -1
			break
		}
		n *= d
	}
	limit := max(e.foldCap, DefaultMaxFoldBytes)
	if n < 0 || !dt.Valid() || dt.Size() == 0 || n > limit/int64(dt.Size()) {
		if n < 0 || !dt.Valid() {
			e.problem(nil, -1, tp.GetName(), fmt.Sprintf("initializer of type %d and dims %v", tp.GetDataType(), tp.GetDims()))
			return Unknown(dt)
		}
		return &Value{Type: dt, Ranked: true, Shape: shape}
	}
	t, err := onnx.TensorFromProto(tp, e.baseDir)
	if err != nil {
		e.problem(nil, -1, tp.GetName(), fmt.Sprintf("initializer: %v", err))
		return Unknown(dt)
	}
	return constValue(t)
}

// runGraph infers every node of g in an order that runs producers first,
// then compares the declared value_info and outputs with the result. prefix
// names the subgraph in problems ("" for the main graph).
func (e *engine) runGraph(g *pb.GraphProto, sc *scope, prefix string, add func(string, *Value)) {
	nodes := g.GetNode()
	producer := map[string]int{}
	for i, np := range nodes {
		for _, o := range np.GetOutput() {
			if o == "" {
				continue
			}
			if j, twice := producer[o]; twice {
				// SSA: the loader refuses the model; so does inference.
				name, op := nodeIdentity(nodes[j], j)
				e.problem(np, i, o, fmt.Sprintf("is already the output of node %s (%s)", name, op))
				continue
			}
			producer[o] = i
		}
	}
	order, err := nodeproto.Sort(nodes, producer)
	if err != nil {
		e.problem(nil, -1, "", prefix+err.Error())
	}
	declared := map[string]*pb.TypeProto{}
	for _, vi := range g.GetValueInfo() {
		declared[vi.GetName()] = vi.GetType()
	}
	for _, vi := range g.GetOutput() {
		if vi.GetType() != nil {
			declared[vi.GetName()] = vi.GetType()
		}
	}
	for _, i := range order {
		np := nodes[i]
		if e.ctx.Err() != nil {
			if e.stoppedAt == "" {
				name, op := nodeIdentity(np, i)
				e.stoppedAt = fmt.Sprintf("%snode %s (%s)", prefix, name, op)
			}
			return // Proto returns the context's error
		}
		outs := e.node(np, i, sc)
		for k, name := range np.GetOutput() {
			if name == "" {
				continue
			}
			var v *Value
			if k < len(outs) {
				v = outs[k]
			}
			if v == nil {
				v = &Value{}
			}
			if t, ok := declared[name]; ok {
				v = e.reconcile(np, i, name, v, t)
			}
			sc.vals[name] = v
			if add != nil {
				add(name, v)
			}
		}
	}
}

// node infers the outputs of one node.
func (e *engine) node(np *pb.NodeProto, i int, sc *scope) []*Value {
	in := make([]*Value, len(np.GetInput()))
	for k, name := range np.GetInput() {
		if name == "" {
			continue
		}
		v, ok := sc.lookup(name)
		if !ok {
			e.problem(np, i, name, "input is no graph input, initializer or node output")
			v = &Value{}
		}
		in[k] = v
	}
	domain := np.GetDomain()
	if domain == "ai.onnx" {
		domain = ""
	}
	opset, ok := e.opsets[domain]
	if !ok {
		e.problemOf(NoRule, np, i, "", fmt.Sprintf("the model imports no opset for domain %q", np.GetDomain()))
		return nil
	}
	version := opset
	schema := e.lookup(domain, np.GetOpType(), opset)
	if schema != nil {
		version = schema.Since
	}
	n, subgraphs, err := nodeOf(np, version, e.baseDir)
	if err != nil {
		e.problem(np, i, "", err.Error())
		return nil
	}
	c := &call{e: e, np: np, index: i, node: n, scope: sc, subgraphs: subgraphs, opset: opset}
	// A node whose inputs are all known is computed by onnxshape's own
	// kernel, which also gives the exact shape.
	if out, ok := c.fold(schema, in); ok {
		return out
	}
	r, ok := ruleFor(domain, np.GetOpType())
	if !ok {
		e.problemOf(NoRule, np, i, "", "no shape rule for this operator; its outputs are left unknown")
		return nil
	}
	out, err := c.apply(r, in)
	if err != nil {
		e.problem(np, i, "", err.Error())
		return nil
	}
	for _, v := range out {
		if v != nil {
			e.bound(v)
			// The contents a rule gives as dimensions become a tensor
			// within the total budget too (at most maxElems each).
			if v.Const == nil && v.Elems != nil {
				if e.foldUsed >= e.foldTotal {
					e.foldLimited = true
				} else if materialize(v); v.Const != nil {
					e.foldUsed += storageBytes(v.Const)
				}
			}
		}
	}
	return out
}

// maxDimSize bounds the size of a dimension's expression: a larger one (a
// model that squares a size again and again) becomes a fresh symbol.
const maxDimSize = 256

func (e *engine) bound(v *Value) {
	for i, d := range v.Shape {
		if d.ExprSize() > maxDimSize {
			v.Shape[i] = e.newSymbol()
		}
	}
	for i, d := range v.Elems {
		if d.ExprSize() > maxDimSize {
			v.Elems[i] = e.newSymbol()
		}
	}
}

// lookup returns the kernel schema serving an operator, nil when onnxshape
// has none; answers are kept, as a model repeats its operators.
func (e *engine) lookup(domain, op string, opset int) *ops.Schema {
	k := schemaKey{domain, op, opset}
	if s, ok := e.schemas[k]; ok {
		return s
	}
	s, err := ops.Lookup(domain, op, opset)
	if err != nil {
		s = nil
	}
	if e.schemas == nil {
		e.schemas = map[schemaKey]*ops.Schema{}
	}
	e.schemas[k] = s
	return s
}

type schemaKey struct {
	domain, op string
	opset      int
}

// apply runs a rule; a panic, a bug in the rule, is reported as an error.
func (c *call) apply(r rule, in []*Value) (out []*Value, err error) {
	defer func() {
		if p := recover(); p != nil {
			out, err = nil, fmt.Errorf("internal error in the shape rule: %v", p)
		}
	}()
	return r(c, in)
}

// nodeOf converts a NodeProto with nodeproto.Decode, setting graph
// attributes (If, Loop, Scan bodies) apart and leaving out the kinds of
// attribute no rule reads (type protos, sparse tensors), which call.np
// still holds.
func nodeOf(np *pb.NodeProto, version int, baseDir string) (*ops.Node, map[string]*pb.GraphProto, error) {
	var subgraphs map[string]*pb.GraphProto
	plain := np
	setApart := func(a *pb.AttributeProto) bool {
		switch a.GetType() {
		case pb.AttributeProto_GRAPH, pb.AttributeProto_GRAPHS, pb.AttributeProto_TYPE_PROTO,
			pb.AttributeProto_TYPE_PROTOS, pb.AttributeProto_SPARSE_TENSOR, pb.AttributeProto_SPARSE_TENSORS:
			return true
		}
		return a.GetG() != nil || len(a.GetGraphs()) > 0 || a.GetTp() != nil
	}
	for _, a := range np.GetAttribute() {
		if !setApart(a) {
			continue
		}
		if plain == np {
			plain = proto.Clone(np).(*pb.NodeProto)
			plain.Attribute = nil
			for _, b := range np.GetAttribute() {
				if !setApart(b) {
					plain.Attribute = append(plain.Attribute, b)
				}
			}
		}
		if a.GetG() != nil {
			if subgraphs == nil {
				subgraphs = map[string]*pb.GraphProto{}
			}
			subgraphs[a.GetName()] = a.GetG()
		}
	}
	if len(plain.GetAttribute()) == 0 {
		// Nothing to convert: most nodes of a large model.
		return &ops.Node{Name: np.GetName(), OpType: np.GetOpType(), Domain: np.GetDomain(), Version: version,
			NumOutputs: len(np.GetOutput())}, subgraphs, nil
	}
	n, err := nodeproto.Decode(plain, version, baseDir)
	return n, subgraphs, err
}

// reconcile compares the inferred value of name with its declared type: a
// contradiction is a problem naming both shapes; where inference knows less
// (an unknown rank, a fresh symbol), the declaration fills in.
func (e *engine) reconcile(np *pb.NodeProto, i int, name string, v *Value, t *pb.TypeProto) *Value {
	d := e.fromType(t)
	if t.GetTensorType() == nil || v.Kind != graph.KindTensor {
		return v
	}
	out := *v
	if d.Type != tensor.Undefined {
		if out.Type == tensor.Undefined {
			out.Type = d.Type
		} else if out.Type != d.Type {
			e.problemOf(Conflict, np, i, name, fmt.Sprintf("declared %s, inferred %s", describeShape(d), describeShape(v)))
			return v
		}
	}
	if !d.Ranked {
		return &out
	}
	if !out.Ranked {
		out.Ranked, out.Shape = true, d.Shape
		return &out
	}
	if len(d.Shape) != len(out.Shape) {
		e.problemOf(Conflict, np, i, name, fmt.Sprintf("declared %s, inferred %s", describeShape(d), describeShape(v)))
		return v
	}
	out.Shape = append([]graph.Dim{}, out.Shape...)
	for k, dd := range d.Shape {
		got := out.Shape[k]
		dv, dknown := dd.Value()
		gv, gknown := got.Value()
		switch {
		case isFresh(got) && !isFresh(dd):
			out.Shape[k] = dd
		case dknown && gknown && dv != gv:
			e.problemOf(Conflict, np, i, name, fmt.Sprintf("declared %s, inferred %s", describeShape(d), describeShape(v)))
			return v
		}
	}
	return &out
}

func (e *engine) problem(np *pb.NodeProto, i int, value, msg string) {
	e.problemOf(Refused, np, i, value, msg)
}

func (e *engine) problemOf(kind ProblemKind, np *pb.NodeProto, i int, value, msg string) {
	p := Problem{Kind: kind, Value: value, Msg: msg}
	if kind == Conflict && len(e.undecided) > 0 {
		p.Kind, p.Branch = Note, strings.Join(e.undecided, " > ")
	}
	if np != nil {
		p.Node, p.Op = nodeIdentity(np, i)
	}
	e.problems = append(e.problems, p)
}

// nodeIdentity returns how problems name node np, the i-th of its graph:
// its name ("#i" when it has none) and its operator, domain-qualified
// outside the default domain.
func nodeIdentity(np *pb.NodeProto, i int) (name, op string) {
	name = np.GetName()
	if name == "" {
		name = "#" + strconv.Itoa(i)
	}
	op = np.GetOpType()
	if d := np.GetDomain(); d != "" && d != "ai.onnx" {
		op = d + "." + op
	}
	return name, op
}
