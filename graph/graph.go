// Package graph loads an ONNX model, checks it and runs its nodes in order
// with the kernels of package ops. It joins the file format (package onnx)
// to the operators (package ops): neither knows of the other.
//
// A Model is checked once, at Load: every node's operator and version are
// resolved from the model's opset imports, its arity is checked, the nodes
// are sorted so that each runs after the nodes it reads from, and the
// initializers are decoded. Run then only looks values up by slot number,
// so one Model serves many goroutines at once.
//
// A run holds a value only until the last node that reads it: the peak of
// the bytes it holds, not their total, is what RunOptions.MaxRunBytes caps
// and what Model.MemoryPlan reports. With a Pool, storage let go is reused
// by the next nodes and runs, and the outputs stay the caller's until
// Pool.Release.
//
// Every error of Load and Run is of one kind a caller tests with errors.Is
// or errors.As: invalid model, invalid input (an *InputError naming the
// input), unsupported, limit, cancelled, refused by an operator, internal.
// The table is in the documentation of ErrInvalidModel.
package graph

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/onnxshape/onnxshape/internal/memlimit"
	"github.com/onnxshape/onnxshape/internal/modelcheck"
	"github.com/onnxshape/onnxshape/internal/nodeproto"
	"github.com/onnxshape/onnxshape/internal/runenv"
	"github.com/onnxshape/onnxshape/onnx"
	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// Model is a loaded and checked ONNX model. It is immutable after Load: Run
// is safe from many goroutines at once.
type Model struct {
	proto   *pb.ModelProto
	baseDir string      // the folder of external tensor data
	inputs  []ValueInfo // graph inputs the caller must give
	outputs []ValueInfo

	numSlots   int
	inputSlots map[string]int // every graph input, overridable initializers included
	inputTypes map[string]*pb.TypeProto
	consts     []slotValue // initializers, stored in their slots before each run
	outSlots   []int       // slot of each graph output, in order
	outNames   []string    // name of each graph output, in order
	steps      []step      // the nodes in an order that runs producers first
	declared   declaredTypes

	// fixed holds the storage of the initializers and of the nodes'
	// tensor attributes: the model's, never charged to a run or released.
	fixed map[storageKey]struct{}
	// numIns is the total of the steps' input counts: the length of a
	// run's arena of input lists.
	numIns int
	// maxOuts is the most outputs a step has.
	maxOuts int
	// bodies are the model's subgraphs, compiled (see subgraph.go).
	bodies []*body
	// packed is the bytes of the weights packed at load (prepack.go).
	packed int64
	// runs recycles the state of finished runs, so that a warm run
	// allocates little beyond what its kernels create.
	runs sync.Pool
	// idle is the state of the last finished run, kept for the next one
	// outside runs, which the garbage collector empties: a model run in a
	// loop then reuses its headers and spares run after run, however much
	// else the program allocates. Concurrent runs take their states from
	// runs.
	idle atomic.Pointer[runState]

	// missing collects the unsupported nodes while the model loads;
	// unsupported is their error when LoadOptions.AllowUnsupported kept
	// the model (Run refuses it), nil otherwise.
	missing     unsupportedSet
	unsupported *UnsupportedError

	// valueSlots are the slots of the values of the model's graph by
	// name; selected keeps the runs' selections (RunOptions.Outputs).
	valueSlots map[string]int
	selected   selections
}

// ValueInfo names one input or output of a model and its declared type.
type ValueInfo struct {
	Name string
	// Type is the declared type; its Kind is KindUnknown when the model
	// declares none.
	Type Type

	proto *pb.TypeProto // the declaration as the file holds it
}

// newValueInfo returns the ValueInfo of a value named name declared with t
// (nil: no type).
func newValueInfo(name string, t *pb.TypeProto) ValueInfo {
	return ValueInfo{Name: name, Type: typeFromProto(t), proto: t}
}

// Describe returns the declared type, e.g. "tensor(float)[1,3,H,W]".
func (v ValueInfo) Describe() string { return v.Type.String() }

// TypeProto returns the declared type as the model file holds it (nil when
// it declares none), for callers who work with the ONNX format itself,
// such as onnx.DecodeValue. Type is the same in plain Go.
func (v ValueInfo) TypeProto() *pb.TypeProto { return v.proto }

type slotValue struct {
	slot  int
	value tensor.Value
}

// step is one node, ready to run: its kernel, its attributes and where its
// inputs and outputs live.
type step struct {
	index  int // position in the model file, for errors
	node   *ops.Node
	schema *ops.Schema
	in     []int // slot of each input; -1 for an absent optional input
	// implicit lists the slots the step's subgraphs read by name from the
	// graph the step is in or from those enclosing it.
	implicit []int
	out      []int // slot of each output; -1 for an unused output
	// inAt is where the step's input list starts in a run's arena.
	inAt int
	// release lists the slots this step reads (or writes) last: the run
	// lets their values go right after it. Graph inputs, initializers and
	// graph outputs are never listed.
	release []int

	reference ops.Kernel // the reference engine's kernel; nil when it has none
	// prepared is the node bound to the shapes of its last fast run's
	// inputs (see ops.Prepared), shared by the runs of the model.
	prepared *atomic.Pointer[ops.Prepared]
}

// NodeError is the error of one node of a model, at load or run time.
type NodeError struct {
	Node    string // the node's name; may be empty
	Index   int    // the node's position in the model file
	Op      string // operator type, prefixed by its domain outside ai.onnx
	Version int    // the since-version that serves the node; 0 if unresolved
	Err     error
}

// Error returns the message, on one line.
func (e *NodeError) Error() string {
	where := fmt.Sprintf("node #%d", e.Index)
	if e.Node != "" {
		where = fmt.Sprintf("node %q", e.Node)
	}
	op := e.Op
	if e.Version > 0 {
		op = fmt.Sprintf("%s-%d", e.Op, e.Version)
	}
	var p *PanicError
	if errors.As(e.Err, &p) {
		return fmt.Sprintf("internal error in %s (%s): %v", where, op, p.Value)
	}
	return fmt.Sprintf("%s (%s): %v", where, op, e.Err)
}

// Unwrap returns the node's underlying error.
func (e *NodeError) Unwrap() error { return e.Err }

// PanicError is the cause of a NodeError whose kernel panicked: a bug in
// onnxshape, reported as an error rather than a crash.
type PanicError struct {
	Value any
}

// Error returns the message, on one line.
func (e *PanicError) Error() string { return fmt.Sprintf("panic: %v", e.Value) }

// RunOptions are the settings of one run: the profile, the size limits,
// the core count, the storage pool and the engine. A nil *RunOptions means
// the defaults. The run's context is Run's argument.
type RunOptions struct {
	// Profile selects ONNX or SONNX rules (see ops.Profile).
	Profile ops.Profile
	// MaxTensorBytes caps the storage of any one tensor a node creates
	// (0 means ops.DefaultMaxTensorBytes; negative means no cap).
	MaxTensorBytes int64
	// Threads caps the cores a node uses. 0 shares the cores between the
	// runs under way: each node takes GOMAXPROCS divided by the number of
	// runs, at least one.
	Threads int
	// MaxRunBytes caps the live bytes of the run: the storage of the tensors
	// the run has created and still holds, together with what the running
	// node asks for, outputs and scratch (0 means DefaultRunCap(): 4 GiB,
	// or less where the process may use less memory;
	// negative means no cap). A value is let go right after the last node
	// that reads it; the caller's inputs, the initializers and views (such
	// as Reshape's output, which shares its input's storage) cost nothing.
	// A node that would pass the cap is refused before it allocates.
	MaxRunBytes int64
	// Pool, when set, provides the storage of the tensors the run creates
	// and takes each intermediate back right after its last reader. The
	// outputs stay the caller's until Pool.Release.
	Pool *Pool
	// Engine selects the fast or the reference kernels (see Engine).
	Engine Engine
	// Outputs, when not empty, are the values the run returns instead of the
	// graph's outputs: any value of the model's graph by name, an
	// intermediate one, an input or an initializer (Model.ValueNames lists
	// them). The run then executes only the nodes they depend on, needs
	// only the inputs those read, and keeps only what is still to be read
	// or returned.
	Outputs []string

	// charge, when set (by tests, through export_test.go), is told every
	// charge of the run before the run's own cap checks it.
	charge func(int64) error
}

// DefaultMaxRunBytes is the most the default cap on a run's live bytes
// can be (see DefaultRunCap).
const DefaultMaxRunBytes = 4 << 30

// DefaultRunCap is the cap on a run's live bytes that RunOptions.MaxRunBytes
// 0 means: DefaultMaxRunBytes, or less when the process may use less
// memory than twice that. The memory the process may use is the smallest
// of its cgroup's limit (v2 memory.max, v1 memory.limit_in_bytes), its
// address-space limit (RLIMIT_AS, `ulimit -v`, less the address space it
// already holds) and GOMEMLIMIT, read once (package internal/memlimit);
// the cap leaves headroom in it (see runCapWithin). An explicit
// MaxRunBytes is used as given.
func DefaultRunCap() int64 { return defaultRunCap() }

var defaultRunCap = sync.OnceValue(func() int64 { return runCapWithin(memlimit.Process().Bytes) })

// runCapWithin is the default run cap under a memory limit of limit bytes:
// a quarter of it, at most 256 MiB, is kept for the runtime, the model and
// its initializers, and half of the rest for the run, since between two
// collections Go's heap grows to twice the bytes it holds (GOGC=100).
// Under a limit of 4 GiB that is 1.875 GiB (under a 4 GiB `ulimit -v`,
// less since memlimit counts what the process already holds).
func runCapWithin(limit int64) int64 {
	reserve := min(limit/4, 256<<20)
	return max(min(int64(DefaultMaxRunBytes), (limit-reserve)/2), 1)
}

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
	m := &Model{proto: mp, baseDir: baseDir, inputSlots: map[string]int{}, inputTypes: map[string]*pb.TypeProto{}}
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
	if e := m.missing.err(); e != nil {
		if !opts.AllowUnsupported {
			return nil, e
		}
		m.unsupported = e
	}
	m.missing = unsupportedSet{}
	m.valueSlots = slots
	m.planMemory()
	m.packWeights(opts.MaxModelBytes)
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

// Inputs returns the inputs Run needs, in the model's order. Initializers
// the model also lists as inputs are left out: Run accepts them as
// overrides but does not need them.
func (m *Model) Inputs() []ValueInfo {
	if m == nil {
		return nil
	}
	return append([]ValueInfo{}, m.inputs...)
}

// Outputs returns the model's outputs, in order.
func (m *Model) Outputs() []ValueInfo {
	if m == nil {
		return nil
	}
	return append([]ValueInfo{}, m.outputs...)
}

// Proto returns the model as decoded. It must not be modified.
func (m *Model) Proto() *pb.ModelProto {
	if m == nil {
		return nil
	}
	return m.proto
}

// BaseDir returns the folder the model's external tensor data is read
// from: the model file's folder for Load, the caller's for LoadBytes and
// FromProto ("" for a nil Model).
func (m *Model) BaseDir() string {
	if m == nil {
		return ""
	}
	return m.baseDir
}

// errNotLoaded is Run's error for a nil or zero Model.
var errNotLoaded error = &kindError{errors.New("the model is not loaded: use graph.Load"), ErrInvalidModel}

// Run runs the model on inputs (by graph input name) and returns its
// outputs (Result: by name, Names in the model's order). Inputs are never modified; outputs may share storage
// with inputs or initializers (Identity, Reshape and the like return
// views), so treat them as read-only too. ctx is checked before each node
// and by long kernels; a cancelled run returns ctx's error in a NodeError.
func (m *Model) Run(ctx context.Context, inputs map[string]tensor.Value, o *RunOptions) (Result, error) {
	return m.run(ctx, inputs, o, nil)
}

// run is Run, recording the live bytes of each step into plan when it is
// not nil.
func (m *Model) run(ctx context.Context, inputs map[string]tensor.Value, o *RunOptions, plan *MemoryPlan) (_ Result, err error) {
	if m == nil || m.proto == nil {
		return Result{}, errNotLoaded
	}
	if m.unsupported != nil {
		return Result{}, m.unsupported
	}
	if ctx == nil {
		ctx = context.Background()
	}
	r := m.startRun(ctx, o, plan)
	defer func() {
		if err != nil { // what the failed run created goes back
			r.abandon()
		}
		m.endRun(r)
	}()
	if o != nil && len(o.Outputs) > 0 {
		sel, err := m.selectValues(o.Outputs)
		if err != nil {
			return Result{}, err
		}
		return m.runSelection(r, inputs, sel)
	}
	if err := r.setInputs(inputs, m.inputs); err != nil {
		return Result{}, err
	}
	if err := m.checkProfileInputs(&r.opt, inputs); err != nil {
		return Result{}, err
	}

	for pos := range m.steps {
		st := &m.steps[pos]
		if err := ctx.Err(); err != nil {
			return Result{}, st.fail(err)
		}
		if err := r.step(pos, st); err != nil {
			return Result{}, err
		}
		// Here the node has run: its outputs are in r.vals[st.out[k]].
		if err := m.checkDeclared(&r.opt, st, r.vals); err != nil {
			return Result{}, err
		}
		r.release(st.release)
	}
	// A cancellation during the last node is not a success either.
	if err := ctx.Err(); err != nil {
		if len(m.steps) == 0 {
			return Result{}, fmt.Errorf("the run of a model without nodes stopped: %w", err)
		}
		return Result{}, m.steps[len(m.steps)-1].fail(err)
	}

	out := make(map[string]tensor.Value, len(m.outputs))
	for i, vi := range m.outputs {
		out[vi.Name] = r.vals[m.outSlots[i]]
	}
	if r.pool != nil {
		r.pool.handOut(r.vals, m.outSlots)
	}
	return newResult(m.outNames, out), nil
}

// runSelection is run for the values sel names: the nodes they need, in
// order, each value let go after its last reader in the selection.
func (m *Model) runSelection(r *runState, inputs map[string]tensor.Value, sel *selection) (Result, error) {
	r.returned = sel.slots
	if err := r.setInputs(inputs, sel.inputs); err != nil {
		return Result{}, err
	}
	if err := m.checkProfileInputs(&r.opt, inputs); err != nil {
		return Result{}, err
	}
	for i, pos := range sel.steps {
		st := &m.steps[pos]
		if err := r.ctx.Err(); err != nil {
			return Result{}, st.fail(err)
		}
		if err := r.step(pos, st); err != nil {
			return Result{}, err
		}
		if err := m.checkDeclared(&r.opt, st, r.vals); err != nil {
			return Result{}, err
		}
		r.release(sel.release[i])
	}
	if err := r.ctx.Err(); err != nil {
		if len(sel.steps) == 0 {
			return Result{}, fmt.Errorf("the run stopped: %w", err)
		}
		return Result{}, m.steps[sel.steps[len(sel.steps)-1]].fail(err)
	}
	out := make(map[string]tensor.Value, len(sel.names))
	for i, name := range sel.names {
		out[name] = r.vals[sel.slots[i]]
	}
	if r.pool != nil {
		r.pool.handOut(r.vals, sel.slots)
	}
	return newResult(sel.names, out), nil
}

// run runs one node under r's engine, reading its inputs from r.vals into
// in (one slot per input) and storing its outputs in r.vals. A panic in
// the kernel becomes a *NodeError with a *PanicError.
//
// Under the fast engine and the ONNX rules, a data-movement node runs
// prepared (see ops.Prepared) when its inputs fit the shapes it was last
// prepared for, its outputs in headers the run made last time when no one
// else can hold them (see runState.headers).
func (st *step) run(r *runState, in []tensor.Value) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = st.fail(&PanicError{Value: r})
		}
	}()
	vals := r.vals
	for k, s := range st.in {
		in[k] = nil
		if s >= 0 {
			in[k] = vals[s]
		}
	}
	fast := r.engine != EngineReference && r.opt.Profile == ops.ProfileONNX && st.prepared != nil
	if fast {
		if p := st.prepared.Load(); p.Fits(in) {
			return st.runPrepared(r, p, in)
		}
	}
	for _, s := range st.in {
		if s >= 0 {
			r.headers[s] = nil // the kernel may keep the header in its outputs
		}
	}
	var out []tensor.Value
	if fast {
		var p *ops.Prepared
		if out, p, err = st.schema.Prepare(&r.opt, st.node, in); p != nil {
			st.prepared.Store(p)
		}
	} else {
		kernel, kerr := st.kernel(r.engine, r.opt.Profile)
		if kerr != nil {
			return st.fail(kerr)
		}
		out, err = kernel(&r.opt, st.node, in)
	}
	if err != nil {
		return st.fail(err)
	}
	for k, s := range st.out {
		if s < 0 {
			continue
		}
		if k >= len(out) || out[k] == nil || isNilValue(out[k]) {
			return st.fail(&kindError{fmt.Errorf("the kernel produced no output #%d", k), ErrInternal})
		}
		vals[s] = out[k]
	}
	return nil
}

// runPrepared runs the step's prepared node p on in. Each output gets the
// header this step made for its slot in the run before, when that one
// reached no one outside the run. A prepared node's outputs are headers of
// their own (never an input passed through: see ops.Prepared), so each
// slot's header is reachable only through that slot.
func (st *step) runPrepared(r *runState, p *ops.Prepared, in []tensor.Value) error {
	reuse, out := r.reuse[:len(st.out)], r.outs[:len(st.out)]
	for k, s := range st.out {
		reuse[k] = nil
		if s >= 0 {
			reuse[k] = r.headers[s]
		}
	}
	err := runenv.RunPrepared(p, &r.opt, in, reuse, out)
	clear(reuse)
	if err != nil {
		clear(out)
		return st.fail(err)
	}
	for k, s := range st.out {
		y := out[k]
		out[k] = nil
		if s < 0 {
			continue
		}
		r.vals[s] = y
		r.headers[s], _ = y.(*tensor.Tensor)
	}
	return nil
}

// fail wraps err as the step's NodeError.
func (st *step) fail(err error) *NodeError {
	return &NodeError{Node: st.node.Name, Index: st.index, Op: opName(st.node), Version: st.node.Version, Err: err}
}

func opName(n *ops.Node) string {
	if n.Domain != "" && n.Domain != "ai.onnx" {
		return n.Domain + "." + n.OpType
	}
	return n.OpType
}

// checkValue returns an error for a value no kernel can read: nil, a zero
// Tensor, a sequence holding nil, an optional holding one of those.
func checkValue(v tensor.Value) error {
	switch x := v.(type) {
	case nil:
		return errors.New("is nil")
	case *tensor.Tensor:
		if x == nil {
			return errors.New("is nil")
		}
		if !x.DataType().Valid() {
			return errors.New("is a zero Tensor: make tensors with tensor.New")
		}
	case *tensor.Sequence:
		if x == nil {
			return errors.New("is nil")
		}
		for i, t := range x.Items {
			if err := checkValue(t); err != nil {
				return fmt.Errorf("item %d %w", i, err)
			}
		}
	case *tensor.Optional:
		if x == nil {
			return errors.New("is nil")
		}
		if x.Value != nil {
			if err := checkValue(x.Value); err != nil {
				return fmt.Errorf("holds a value that %w", err)
			}
		}
	}
	return nil
}

// isNilValue reports a typed nil pointer inside a Value.
func isNilValue(v tensor.Value) bool {
	switch x := v.(type) {
	case *tensor.Tensor:
		return x == nil
	case *tensor.Sequence:
		return x == nil
	case *tensor.Optional:
		return x == nil
	}
	return false
}
