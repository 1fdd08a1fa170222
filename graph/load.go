package graph

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sync/atomic"

	"github.com/onnxshape/onnxshape/internal/modelcheck"
	"github.com/onnxshape/onnxshape/internal/nodeproto"
	"github.com/onnxshape/onnxshape/onnx"
	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/ops"
)

// Loading, in the order of this file: the bytes are decoded under the
// limits of LoadOptions (onnx.Limits), the model passes the validity
// checks shared with the profile's checker (internal/modelcheck), the
// opsets are resolved, and every node is prepared (prepareNode: its
// operator and version looked up, its arity and attributes checked, its
// subgraphs compiled) and sorted, so that Run only looks values up by slot.

// NewestOpset is the newest opset version of the default domain (ai.onnx)
// that onnxshape knows. Load refuses models that import a newer one, whose
// operators may mean something else, unless LoadOptions.AllowNewerOpset.
const NewestOpset = 28

// LoadOptions are the settings of LoadWith; the zero value is Load's.
type LoadOptions struct {
	// AllowNewerOpset loads models importing an ai.onnx opset newer than
	// NewestOpset, serving each node with the newest version onnxshape has:
	// for experiments, since the operators may have changed since.
	AllowNewerOpset bool
	// MaxModelBytes caps the model file's size, the memory decoding it
	// takes, and the storage of all its initializers and tensor attributes
	// together, external data included (0 means onnx.DefaultMaxModelBytes,
	// 2 GiB; negative means no cap). The copies of constant weights packed
	// at load for the matrix products (Model.PackedBytes) are held to it
	// too, on their own: weights past it stay unpacked.
	MaxModelBytes int64
	// MaxTensorBytes caps each initializer and tensor attribute, checked
	// from its dims before its data is read (0 means
	// ops.DefaultMaxTensorBytes; negative means no cap).
	MaxTensorBytes int64
	// AllowUnsupported opens a model that uses operators onnxshape does
	// not run, so that its inputs, outputs and metadata can be read and
	// Model.Unsupported lists what is missing; Run refuses it with an
	// *UnsupportedError. Without it, Load returns that error.
	AllowUnsupported bool
	// NoFuse turns off load-time fusion (graph/fuse.go: a Conv's
	// BatchNormalization folded into its weights, a constant Add folded
	// into the bias of the Conv or Gemm before it, an activation run as
	// the epilogue of the Conv, Gemm or MatMul before it; and the other
	// fuse*.go files: elementwise chains, a Sigmoid gate, Transposes and
	// Pads folded into their reader, transformer normalizations, MobileNet's
	// inverted residual blocks run in bands, quantized convolutions) and
	// the cache of values computed from the inputs' dims alone
	// (graph/shapecache.go). Fusion is on by default; it only ever applies
	// to runs of the fast engine under the ONNX profile, and gives the
	// bits of the nodes run one by one but where a bound is stated (a Pad
	// before a depthwise Conv, graph/fuse.go; ExactQDQ's chain).
	NoFuse bool
	// ExactQDQ runs the quantized chains of a QDQ network as written, in
	// float (graph/fuseqdq.go): DequantizeLinear -> Conv -> QuantizeLinear
	// rather than one int8 convolution, DequantizeLinear x2 -> Add ->
	// QuantizeLinear rather than one int8 addition (the fusions whose
	// result may differ from the nodes', by one quantum of an output next
	// to a rounding boundary, as onnxruntime's do), and DequantizeLinear ->
	// MaxPool -> QuantizeLinear in float too (that one changes no bit).
	ExactQDQ bool
}

// limits are the caps of o on reading the model (see onnx.Limits).
func (o LoadOptions) limits() *onnx.Limits {
	return &onnx.Limits{MaxModelBytes: o.MaxModelBytes, MaxTensorBytes: o.MaxTensorBytes}
}

// Load reads, checks and prepares the model in the file at path. External
// tensor data is read relative to the file's folder.
func Load(path string) (*Model, error) { return LoadWith(path, LoadOptions{}) }

// LoadWith is Load with options. Only a regular file is read (a named pipe
// or a device is refused at once), and only when its size is within
// opts.MaxModelBytes.
func LoadWith(path string, opts LoadOptions) (*Model, error) {
	mp, err := onnx.ReadModelWith(path, opts.limits())
	if err != nil {
		return nil, err
	}
	m, err := FromProtoWith(mp, filepath.Dir(path), opts)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}

// LoadBytes is Load for a model already in memory; external tensor data is
// read relative to baseDir.
func LoadBytes(b []byte, baseDir string) (*Model, error) {
	return LoadBytesWith(b, baseDir, LoadOptions{})
}

// LoadBytesWith is LoadBytes with options.
func LoadBytesWith(b []byte, baseDir string, opts LoadOptions) (*Model, error) {
	mp, err := onnx.DecodeModelWith(b, opts.limits())
	if err != nil {
		return nil, withKind(err, ErrInvalidModel)
	}
	return FromProtoWith(mp, baseDir, opts)
}

// FromProto checks and prepares a decoded model. The Model keeps mp, which
// must not be modified afterwards.
func FromProto(mp *pb.ModelProto, baseDir string) (*Model, error) {
	return FromProtoWith(mp, baseDir, LoadOptions{})
}

// FromProtoWith is FromProto with options.
func FromProtoWith(mp *pb.ModelProto, baseDir string, opts LoadOptions) (*Model, error) {
	m, err := fromProto(mp, baseDir, opts)
	if err != nil {
		return nil, withKind(err, ErrInvalidModel)
	}
	return m, nil
}

// fromProto is FromProtoWith, its errors not yet of a kind.
func fromProto(mp *pb.ModelProto, baseDir string, opts LoadOptions) (*Model, error) {
	g := mp.GetGraph()
	if g == nil {
		return nil, errors.New("model has no graph")
	}
	// The validity pass the SONNX check shares (it reports each problem
	// under ONNX), so that the check never admits what this refuses.
	if ps := modelcheck.Check(mp); len(ps) > 0 {
		return nil, fmt.Errorf("invalid model: %w", ps[0])
	}
	opsets, err := opsetVersions(mp, opts)
	if err != nil {
		return nil, err
	}
	m := &Model{proto: mp, baseDir: baseDir, inputSlots: map[string]int{}, inputTypes: map[string]*pb.TypeProto{},
		poolID: nextPoolID.Add(1)}
	// Sized for a node output each, as most graphs are: growing a map of
	// a million names costs more than the names.
	nodes := g.GetNode()
	slots := make(map[string]int, len(g.GetInitializer())+len(g.GetInput())+len(nodes)) // value name -> slot
	newSlot := func(name string) int {
		slots[name] = m.numSlots
		m.numSlots++
		return m.numSlots - 1
	}

	for _, sp := range g.GetSparseInitializer() {
		return nil, &kindError{fmt.Errorf("sparse initializer %q: sparse tensors are not supported", sp.GetValues().GetName()), ErrUnsupported}
	}
	initialized := map[string]bool{}
	for i, tp := range g.GetInitializer() {
		name := tp.GetName()
		if name == "" {
			return nil, fmt.Errorf("initializer #%d has no name", i)
		}
		if initialized[name] {
			return nil, fmt.Errorf("initializer %q is defined twice", name)
		}
		initialized[name] = true
		t, err := onnx.TensorFromProto(tp, baseDir)
		if err != nil {
			return nil, fmt.Errorf("initializer %q: %w", name, err)
		}
		m.consts = append(m.consts, slotValue{newSlot(name), t})
	}
	for i, vi := range g.GetInput() {
		name := vi.GetName()
		if name == "" {
			return nil, fmt.Errorf("graph input #%d has no name", i)
		}
		if _, dup := m.inputSlots[name]; dup {
			return nil, fmt.Errorf("graph input %q is declared twice", name)
		}
		// Before IR version 4 initializers were also listed as inputs: the
		// caller may override them but need not give them.
		s, ok := slots[name]
		if !ok {
			s = newSlot(name)
			m.inputs = append(m.inputs, newValueInfo(name, vi.GetType()))
		}
		m.inputSlots[name] = s
		m.inputTypes[name] = vi.GetType()
	}

	// Every node output gets its slot before any input is resolved, so that
	// nodes may appear in any order in the file.
	producer := make(map[string]int, len(nodes)) // value name -> index of the node making it
	for i, np := range nodes {
		for _, name := range np.GetOutput() {
			if name == "" {
				continue
			}
			if _, ok := slots[name]; ok {
				what := "graph input"
				if p, ok := producer[name]; ok {
					what = "output of " + nodeproto.Describe(nodes[p], p)
				} else if initialized[name] {
					what = "initializer"
				}
				return nil, nodeError(np, i, 0, fmt.Errorf("output %q is already the %s", name, what))
			}
			newSlot(name)
			producer[name] = i
		}
	}

	steps, err := m.compileNodes(nodes, &scope{names: slots}, producer, opsets, baseDir, 0)
	if err != nil {
		return nil, err
	}
	m.steps = steps

	for i, vi := range g.GetOutput() {
		name := vi.GetName()
		s, ok := slots[name]
		if !ok {
			return nil, fmt.Errorf("graph output #%d %q is produced by no node, input or initializer", i, name)
		}
		m.outputs = append(m.outputs, newValueInfo(name, vi.GetType()))
		m.outSlots = append(m.outSlots, s)
		m.outNames = append(m.outNames, name)
	}
	m.outIndex = outputIndex(m.outNames)
	if e := m.missing.err(); e != nil {
		if !opts.AllowUnsupported {
			return nil, e
		}
		m.unsupported = e
	}
	m.missing = unsupportedSet{}
	m.valueSlots = slots
	m.fuseGraphs(opts)
	m.markConstants(opts.MaxModelBytes)
	m.planMemory()
	m.packWeights(opts.MaxModelBytes)
	m.planShapes(opts)
	return m, nil
}

// opsetVersions returns the opset version the model imports for each
// domain, "" standing for ai.onnx.
func opsetVersions(mp *pb.ModelProto, opts LoadOptions) (map[string]int, error) {
	v := map[string]int{}
	for _, imp := range mp.GetOpsetImport() {
		d := imp.GetDomain()
		if d == "ai.onnx" {
			d = ""
		}
		if _, dup := v[d]; dup {
			return nil, fmt.Errorf("opset of domain %q is imported twice", imp.GetDomain())
		}
		if imp.GetVersion() < 1 || imp.GetVersion() > 1<<20 {
			return nil, fmt.Errorf("opset of domain %q has version %d", imp.GetDomain(), imp.GetVersion())
		}
		v[d] = int(imp.GetVersion())
	}
	if len(v) == 0 {
		return nil, errors.New("model imports no opset")
	}
	if v[""] > NewestOpset && !opts.AllowNewerOpset {
		return nil, fmt.Errorf("%w: the model imports ai.onnx opset %d, newer than opset %d, the newest onnxshape knows (LoadOptions.AllowNewerOpset loads it anyway)", ops.ErrUnsupported, v[""], NewestOpset)
	}
	return v, nil
}

// prepareNode resolves the node's operator and version, converts its
// attributes (compiling its subgraphs, at nesting depth+1), checks its
// arity and finds the slots of its inputs in sc. It also returns the names
// its subgraphs read from sc's graph and those enclosing it.
func (m *Model) prepareNode(np *pb.NodeProto, i int, opsets map[string]int, sc *scope, baseDir string, depth int) (step, []string, error) {
	domain := np.GetDomain()
	if domain == "ai.onnx" {
		domain = ""
	}
	opset, ok := opsets[domain]
	if !ok {
		return step{}, nil, nodeError(np, i, 0, fmt.Errorf("%w: the model imports no opset for domain %q", ops.ErrUnsupported, np.GetDomain()))
	}
	schema, err := ops.Lookup(domain, np.GetOpType(), opset)
	if err != nil {
		nerr := nodeError(np, i, 0, fmt.Errorf("%w (model opset %d)", err, opset))
		if !isUnsupportedOp(err) {
			return step{}, nil, nerr
		}
		// Every unsupported node is listed, not only the first: the
		// node stays in the graph, without a kernel, and the load
		// fails (or Run refuses the model) once all are known.
		m.missing.add(np, domain, opset, nerr)
		return m.unsupportedStep(np, i, sc)
	}
	if err := nodeproto.CheckAttributes(np, schema); err != nil {
		return step{}, nil, nodeError(np, i, schema.Since, err)
	}
	node, err := nodeproto.Decode(np, schema.Since, baseDir)
	if err != nil {
		return step{}, nil, nodeError(np, i, schema.Since, err)
	}
	if err := checkArity("inputs", len(np.GetInput()), schema.Inputs); err != nil {
		return step{}, nil, nodeError(np, i, schema.Since, err)
	}
	if err := checkArity("outputs", len(np.GetOutput()), schema.Outputs); err != nil {
		return step{}, nil, nodeError(np, i, schema.Since, err)
	}
	st := step{index: i, node: node, schema: schema, reference: referenceKernel(schema), prepared: new(atomic.Pointer[ops.Prepared])}
	var implicit []string
	var bodies []*body
	for _, ap := range np.GetAttribute() {
		a, ok := node.Attrs[ap.GetName()]
		if !ok || a.Type != ops.AttrGraph {
			continue
		}
		b, names, slots, err := m.compileBody(ap.GetG(), sc, opsets, baseDir, depth+1)
		if err != nil {
			var deep *depthError
			if errors.As(err, &deep) && depth > 0 {
				return step{}, nil, err // named once, by the outermost node
			}
			return step{}, nil, nodeError(np, i, schema.Since, fmt.Errorf("attribute %s: %w", ap.GetName(), err))
		}
		a.Graph = b.sg
		node.Attrs[ap.GetName()] = a
		bodies = append(bodies, b)
		for k, name := range names {
			if !slices.Contains(st.implicit, slots[k]) {
				st.implicit = append(st.implicit, slots[k])
				implicit = append(implicit, name)
			}
		}
	}
	for k, name := range np.GetInput() {
		if name == "" {
			st.in = append(st.in, -1)
			continue
		}
		s, ok := sc.lookup(name)
		if !ok {
			return step{}, nil, nodeError(np, i, schema.Since, fmt.Errorf("input #%d %q is no graph input, initializer or node output", k, name))
		}
		st.in = append(st.in, s)
	}
	for _, name := range np.GetOutput() {
		if name == "" {
			st.out = append(st.out, -1)
			continue
		}
		st.out = append(st.out, sc.names[name])
	}
	if node.Domain == "" && node.OpType == "If" && len(bodies) > 0 {
		// An If returns its branch's outputs as they are (ops/if.go).
		st.branches = true
		for _, b := range bodies {
			if len(b.out) == len(st.out) {
				b.heirs = st.out
			}
		}
	}
	return st, implicit, nil
}

func checkArity(what string, n int, r [2]int) error {
	if n < r[0] || (r[1] >= 0 && n > r[1]) {
		want := fmt.Sprintf("%d to %d", r[0], r[1])
		switch {
		case r[1] < 0:
			want = fmt.Sprintf("at least %d", r[0])
		case r[0] == r[1]:
			want = fmt.Sprint(r[0])
		}
		return fmt.Errorf("has %d %s, the operator takes %s", n, what, want)
	}
	return nil
}

func nodeError(np *pb.NodeProto, i, version int, err error) *NodeError {
	op := np.GetOpType()
	if d := np.GetDomain(); d != "" && d != "ai.onnx" {
		op = d + "." + op
	}
	return &NodeError{Node: np.GetName(), Index: i, Op: op, Version: version, Err: err}
}
