// Package graph loads an ONNX model, checks it and runs its nodes in order
// with the kernels of package ops. It joins the file format (package onnx)
// to the operators (package ops): neither knows of the other.
//
// A Model is checked once, at Load: every node's operator and version are
// resolved from the model's opset imports, its arity is checked, the nodes
// are sorted so that each runs after the nodes it reads from, and the
// initializers are decoded. Run then only looks values up by slot number,
// so one Model serves many goroutines at once.
package graph

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/onnxshape/onnxshape/onnx"
	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// Model is a loaded and checked ONNX model. It is immutable after Load: Run
// is safe from many goroutines at once.
type Model struct {
	proto   *pb.ModelProto
	inputs  []ValueInfo // graph inputs the caller must give
	outputs []ValueInfo

	numSlots   int
	inputSlots map[string]int // every graph input, overridable initializers included
	inputTypes map[string]*pb.TypeProto
	consts     []slotValue // initializers, stored in their slots before each run
	outSlots   []int       // slot of each graph output, in order
	steps      []step      // the nodes in an order that runs producers first
	declared   declaredTypes
}

// ValueInfo names one input or output of a model and its declared type.
type ValueInfo struct {
	Name string
	Type *pb.TypeProto // nil when the model declares no type
}

// Describe returns the declared type, e.g. "tensor(float)[1,3,H,W]".
func (v ValueInfo) Describe() string {
	if v.Type == nil {
		return "(no type)"
	}
	return onnx.DescribeType(v.Type)
}

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
	out    []int // slot of each output; -1 for an unused output

	reference ops.Kernel // the reference engine's kernel; nil when it has none
}

// NodeError is the error of one node of a model, at load or run time.
type NodeError struct {
	Node    string // the node's name; may be empty
	Index   int    // the node's position in the model file
	Op      string // operator type, prefixed by its domain outside ai.onnx
	Version int    // the since-version that serves the node; 0 if unresolved
	Err     error
}

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

func (e *PanicError) Error() string { return fmt.Sprintf("panic: %v", e.Value) }

// RunOptions are the settings of one run: the profile, the size limit and
// the core count (see ops.Options). A nil *RunOptions means the defaults.
// Ctx is taken from Run's context argument.
type RunOptions struct {
	ops.Options
	// MaxRunBytes caps the storage of all the tensors a run creates together
	// (0 means DefaultMaxRunBytes; negative means no cap). Views, such as
	// Reshape's output, cost nothing. Each node may allocate only what is
	// left, so a run that would pass the cap stops before it allocates.
	MaxRunBytes int64
	// Pool, when set, provides the storage of the tensors the run creates
	// and takes back its intermediate tensors when the run ends.
	Pool *Pool
	// Engine selects the fast or the reference kernels (see Engine).
	Engine Engine
}

// DefaultMaxRunBytes is the default cap on the bytes a whole run allocates.
const DefaultMaxRunBytes = 4 << 30

// Load reads, checks and prepares the model in the file at path. External
// tensor data is read relative to the file's folder.
func Load(path string) (*Model, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	m, err := LoadBytes(b, filepath.Dir(path))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}

// LoadBytes is Load for a model already in memory; external tensor data is
// read relative to baseDir.
func LoadBytes(b []byte, baseDir string) (*Model, error) {
	mp, err := onnx.DecodeModel(b)
	if err != nil {
		return nil, err
	}
	return FromProto(mp, baseDir)
}

// FromProto checks and prepares a decoded model. The Model keeps mp, which
// must not be modified afterwards.
func FromProto(mp *pb.ModelProto, baseDir string) (*Model, error) {
	g := mp.GetGraph()
	if g == nil {
		return nil, errors.New("model has no graph")
	}
	opsets, err := opsetVersions(mp)
	if err != nil {
		return nil, err
	}
	m := &Model{proto: mp, inputSlots: map[string]int{}, inputTypes: map[string]*pb.TypeProto{}}
	slots := map[string]int{} // value name -> slot
	newSlot := func(name string) int {
		slots[name] = m.numSlots
		m.numSlots++
		return m.numSlots - 1
	}

	for _, sp := range g.GetSparseInitializer() {
		return nil, fmt.Errorf("sparse initializer %q: sparse tensors are not supported", sp.GetValues().GetName())
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
			m.inputs = append(m.inputs, ValueInfo{name, vi.GetType()})
		}
		m.inputSlots[name] = s
		m.inputTypes[name] = vi.GetType()
	}

	// Every node output gets its slot before any input is resolved, so that
	// nodes may appear in any order in the file.
	producer := map[string]int{} // value name -> index of the node making it
	nodes := g.GetNode()
	for i, np := range nodes {
		for _, name := range np.GetOutput() {
			if name == "" {
				continue
			}
			if _, ok := slots[name]; ok {
				what := "graph input"
				if p, ok := producer[name]; ok {
					what = "output of " + describeNode(nodes[p], p)
				} else if initialized[name] {
					what = "initializer"
				}
				return nil, nodeError(np, i, 0, fmt.Errorf("output %q is already the %s", name, what))
			}
			newSlot(name)
			producer[name] = i
		}
	}

	steps := make([]step, len(nodes))
	for i, np := range nodes {
		st, err := prepareNode(np, i, opsets, slots, baseDir)
		if err != nil {
			return nil, err
		}
		steps[i] = st
	}
	order, err := SortNodes(nodes, producer)
	if err != nil {
		return nil, err
	}
	for _, i := range order {
		m.steps = append(m.steps, steps[i])
	}

	for i, vi := range g.GetOutput() {
		name := vi.GetName()
		s, ok := slots[name]
		if !ok {
			return nil, fmt.Errorf("graph output #%d %q is produced by no node, input or initializer", i, name)
		}
		m.outputs = append(m.outputs, ValueInfo{name, vi.GetType()})
		m.outSlots = append(m.outSlots, s)
	}
	return m, nil
}

// opsetVersions returns the opset version the model imports for each
// domain, "" standing for ai.onnx.
func opsetVersions(mp *pb.ModelProto) (map[string]int, error) {
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
	return v, nil
}

// prepareNode resolves the node's operator and version, converts its
// attributes, checks its arity and finds the slots of its inputs.
func prepareNode(np *pb.NodeProto, i int, opsets map[string]int, slots map[string]int, baseDir string) (step, error) {
	domain := np.GetDomain()
	if domain == "ai.onnx" {
		domain = ""
	}
	opset, ok := opsets[domain]
	if !ok {
		return step{}, nodeError(np, i, 0, fmt.Errorf("%w: the model imports no opset for domain %q", ops.ErrUnsupported, np.GetDomain()))
	}
	schema, err := ops.Lookup(domain, np.GetOpType(), opset)
	if err != nil {
		return step{}, nodeError(np, i, 0, fmt.Errorf("%w (model opset %d)", err, opset))
	}
	if err := CheckAttributes(np, schema); err != nil {
		return step{}, nodeError(np, i, schema.Since, err)
	}
	node, err := NodeFromProto(np, schema.Since, baseDir)
	if err != nil {
		return step{}, nodeError(np, i, schema.Since, err)
	}
	if err := checkArity("inputs", len(np.GetInput()), schema.Inputs); err != nil {
		return step{}, nodeError(np, i, schema.Since, err)
	}
	if err := checkArity("outputs", len(np.GetOutput()), schema.Outputs); err != nil {
		return step{}, nodeError(np, i, schema.Since, err)
	}
	st := step{index: i, node: node, schema: schema, reference: referenceKernel(schema)}
	for k, name := range np.GetInput() {
		if name == "" {
			st.in = append(st.in, -1)
			continue
		}
		s, ok := slots[name]
		if !ok {
			return step{}, nodeError(np, i, schema.Since, fmt.Errorf("input #%d %q is no graph input, initializer or node output", k, name))
		}
		st.in = append(st.in, s)
	}
	for _, name := range np.GetOutput() {
		if name == "" {
			st.out = append(st.out, -1)
			continue
		}
		st.out = append(st.out, slots[name])
	}
	return st, nil
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

// SortNodes returns the node indices in an order where every node comes
// after the producers of its inputs, keeping the file's order where it
// already is one; producer maps each value name to the index of the node
// that outputs it. A cycle is an error naming the nodes on it, in the order
// of the data, with the order of the nodes that depend on no cycle.
func SortNodes(nodes []*pb.NodeProto, producer map[string]int) ([]int, error) {
	waiting := make([]int, len(nodes))     // producers not yet run, per node
	consumers := make([][]int, len(nodes)) // nodes reading each node's outputs
	for i, np := range nodes {
		seen := map[int]bool{}
		for _, name := range np.GetInput() {
			if p, ok := producer[name]; ok && name != "" && !seen[p] {
				seen[p] = true
				waiting[i]++
				consumers[p] = append(consumers[p], i)
			}
		}
	}
	var ready, order []int
	for i := range nodes {
		if waiting[i] == 0 {
			ready = append(ready, i)
		}
	}
	for len(ready) > 0 {
		sort.Ints(ready)
		i := ready[0]
		ready = ready[1:]
		order = append(order, i)
		for _, c := range consumers[i] {
			if waiting[c]--; waiting[c] == 0 {
				ready = append(ready, c)
			}
		}
	}
	if len(order) == len(nodes) {
		return order, nil
	}
	// Every node left waits on another node left: walking from one to a
	// producer it waits on must come back to a node already visited.
	start := -1
	for i := range nodes {
		if waiting[i] > 0 {
			start = i
			break
		}
	}
	visited := map[int]int{} // node -> position on the path
	var path []int
	for i := start; ; {
		if at, ok := visited[i]; ok {
			path = path[at:]
			break
		}
		visited[i] = len(path)
		path = append(path, i)
		for _, name := range nodes[i].GetInput() {
			if p, ok := producer[name]; ok && name != "" && waiting[p] > 0 {
				i = p
				break
			}
		}
	}
	// path follows the data backwards; name the nodes in data order,
	// starting from the one first in the file.
	first := 0
	for k, i := range path {
		if i < path[first] {
			first = k
		}
	}
	names := make([]string, 0, len(path))
	for k := range path {
		i := path[(first-k+len(path))%len(path)]
		names = append(names, describeNode(nodes[i], i))
	}
	return order, fmt.Errorf("the graph has a cycle: %s -> %s", strings.Join(names, " -> "), names[0])
}

func describeNode(np *pb.NodeProto, i int) string {
	if np.GetName() != "" {
		return fmt.Sprintf("node %q (%s)", np.GetName(), np.GetOpType())
	}
	return fmt.Sprintf("node #%d (%s)", i, np.GetOpType())
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
func (m *Model) Inputs() []ValueInfo { return append([]ValueInfo{}, m.inputs...) }

// Outputs returns the model's outputs, in order.
func (m *Model) Outputs() []ValueInfo { return append([]ValueInfo{}, m.outputs...) }

// Proto returns the model as decoded. It must not be modified.
func (m *Model) Proto() *pb.ModelProto { return m.proto }

// Run runs the model on inputs (by graph input name) and returns its
// outputs by name. Inputs are never modified; outputs may share storage
// with inputs or initializers (Identity, Reshape and the like return
// views), so treat them as read-only too. ctx is checked between nodes and
// by long kernels.
func (m *Model) Run(ctx context.Context, inputs map[string]tensor.Value, o *RunOptions) (_ map[string]tensor.Value, err error) {
	if ctx == nil {
		ctx = context.Background()
	}
	var opt ops.Options
	budget := int64(DefaultMaxRunBytes)
	if o != nil {
		opt = o.Options
		switch {
		case o.MaxRunBytes < 0:
			budget = math.MaxInt64
		case o.MaxRunBytes > 0:
			budget = o.MaxRunBytes
		}
	}
	opt.Ctx = ctx
	tensorLimit := opt.TensorLimit()

	vals := make([]tensor.Value, m.numSlots)
	if o != nil && o.Pool != nil {
		opt.Alloc = o.Pool.alloc
		defer func() {
			if err != nil { // what the failed run created goes back
				o.Pool.release(vals, nil)
			}
		}()
	}
	for _, c := range m.consts {
		vals[c.slot] = c.value
	}
	for name, v := range inputs {
		s, ok := m.inputSlots[name]
		if !ok {
			return nil, fmt.Errorf("the model has no input %q", name)
		}
		if v == nil || isNilValue(v) {
			return nil, fmt.Errorf("input %q is nil", name)
		}
		if typ := m.inputTypes[name]; typ != nil {
			if err := onnx.ValueMatchesType(v, typ); err != nil {
				return nil, fmt.Errorf("input %q: %w", name, err)
			}
		}
		vals[s] = v
	}
	for _, in := range m.inputs {
		if _, ok := inputs[in.Name]; !ok {
			return nil, fmt.Errorf("input %q (%s) is not given", in.Name, in.Describe())
		}
	}
	if err := m.checkProfileInputs(&opt, inputs); err != nil {
		return nil, err
	}

	for _, st := range m.steps {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		// The node may create at most what the run has left.
		nodeOpt := opt
		nodeOpt.MaxTensorBytes = max(min(tensorLimit, budget), 1)
		if err := st.run(&nodeOpt, o.engine(), vals); err != nil {
			return nil, err
		}
		if err := m.checkDeclared(&opt, &st, vals); err != nil {
			return nil, err
		}
		budget -= st.allocated(vals)
		if budget < 0 {
			return nil, &NodeError{Node: st.node.Name, Index: st.index, Op: opName(st.node), Version: st.node.Version,
				Err: fmt.Errorf("%w: the run has allocated more than its cap of %d bytes", ops.ErrLimit, runCap(o))}
		}
	}

	out := make(map[string]tensor.Value, len(m.outputs))
	keep := make([]tensor.Value, 0, len(m.outputs))
	for i, vi := range m.outputs {
		out[vi.Name] = vals[m.outSlots[i]]
		keep = append(keep, out[vi.Name])
	}
	if o != nil && o.Pool != nil {
		// The intermediates go back; storage an output shares stays out.
		o.Pool.release(vals, keep)
	}
	return out, nil
}

// run runs one node, reading its inputs from vals and storing its outputs
// there. A panic in the kernel becomes a *NodeError with a *PanicError.
func (st *step) run(opt *ops.Options, engine Engine, vals []tensor.Value) (err error) {
	fail := func(e error) error {
		return &NodeError{Node: st.node.Name, Index: st.index, Op: opName(st.node), Version: st.node.Version, Err: e}
	}
	defer func() {
		if r := recover(); r != nil {
			err = fail(&PanicError{Value: r})
		}
	}()
	in := make([]tensor.Value, len(st.in))
	for k, s := range st.in {
		if s >= 0 {
			in[k] = vals[s]
		}
	}
	kernel, err := st.kernel(engine)
	if err != nil {
		return fail(err)
	}
	out, err := kernel(opt, st.node, in)
	if err != nil {
		return fail(err)
	}
	for k, s := range st.out {
		if s < 0 {
			continue
		}
		if k >= len(out) || out[k] == nil || isNilValue(out[k]) {
			return fail(fmt.Errorf("the kernel produced no output #%d", k))
		}
		vals[s] = out[k]
	}
	return nil
}

// allocated returns the bytes of new storage the step's outputs hold: views
// of its inputs (Reshape, Identity, ...) count for nothing.
func (st *step) allocated(vals []tensor.Value) int64 {
	var ins []*tensor.Tensor
	for _, s := range st.in {
		if s >= 0 {
			ins = append(ins, tensorsOf(vals[s])...)
		}
	}
	var n int64
	for _, s := range st.out {
		if s < 0 {
			continue
		}
	outputs:
		for _, t := range tensorsOf(vals[s]) {
			for _, in := range ins {
				if t == in || t.SharesStorage(in) {
					continue outputs
				}
			}
			n += int64(t.ByteLen())
			if t.DataType() == tensor.String {
				n += 16 * int64(t.Len())
			}
		}
	}
	return n
}

// tensorsOf returns the tensors a value holds.
func tensorsOf(v tensor.Value) []*tensor.Tensor {
	switch v := v.(type) {
	case *tensor.Tensor:
		return []*tensor.Tensor{v}
	case *tensor.Sequence:
		return v.Items
	case *tensor.Optional:
		if v.Value != nil {
			return tensorsOf(v.Value)
		}
	}
	return nil
}

func runCap(o *RunOptions) int64 {
	if o == nil || o.MaxRunBytes == 0 {
		return DefaultMaxRunBytes
	}
	return o.MaxRunBytes
}

func opName(n *ops.Node) string {
	if n.Domain != "" && n.Domain != "ai.onnx" {
		return n.Domain + "." + n.OpType
	}
	return n.OpType
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
