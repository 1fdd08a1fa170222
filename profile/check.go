package profile

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/internal/nodeproto"
	"github.com/onnxshape/onnxshape/onnx"
	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/tensor"
)

// Check reports every place where the loaded model m leaves the SONNX
// profile; its external data is read from m.BaseDir(). CheckFile and
// CheckBytes check a model that need not load: one that is not even valid
// ONNX gets findings under the rule "ONNX". A nil m gets that finding too.
func Check(m *graph.Model) *Report {
	return CheckProto(m.Proto(), m.BaseDir())
}

// CheckProto is Check for a model held as its protobuf message, for
// callers who work with the ONNX format itself. baseDir is the folder of
// the model file, for tensors stored in external files ("" refuses
// external data). CheckProto never modifies m and never panics.
func CheckProto(m *pb.ModelProto, baseDir string) *Report {
	c := &checker{
		m:        m,
		baseDir:  baseDir,
		rep:      &Report{Profile: "sonnx", Findings: []Finding{}, Deferred: []Deferred{}, Tool: ToolVersion()},
		ran:      map[int]bool{},
		vals:     map[string]*known{},
		declared: map[string]*pb.TypeProto{},
		reported: map[string]bool{},
		compared: map[string]bool{},
	}
	c.run()
	c.results()
	return c.rep
}

// Enforce returns a *ViolationError whose text lists every finding when m
// breaks a rule of the profile, an *UnadmittedError when it uses an
// operator of the profile's set whose specification onnxshape has not
// transcribed (SPEC: nothing says such a node meets the profile, so no run
// under the profile may execute it), and nil otherwise: the other rules
// left undecided are checked while the model runs under the profile (with
// RunOptions). Load and LoadBytes call it before they return a model.
func Enforce(m *graph.Model) error { return enforce(m.Proto(), m.BaseDir()) }

// enforce is Enforce for a model not yet loaded.
func enforce(m *pb.ModelProto, baseDir string) error {
	rep := CheckProto(m, baseDir)
	if rep.Outside() {
		return &ViolationError{Report: rep}
	}
	var unadmitted []Deferred
	for _, d := range rep.Deferred {
		if slices.Contains(d.Rules, ruleSpec) || slices.Contains(d.Rules, ruleNoSpec) {
			unadmitted = append(unadmitted, d)
		}
	}
	if len(unadmitted) > 0 {
		return &UnadmittedError{Nodes: unadmitted}
	}
	return nil
}

// checker holds the state of one Check.
type checker struct {
	m       *pb.ModelProto
	baseDir string
	rep     *Report
	opsets  map[string]int // domain ("" for ai.onnx) -> imported version
	// vals is what is known of each value before the model runs.
	vals map[string]*known
	// declared holds the types the model declares for values: graph
	// outputs and value_info.
	declared map[string]*pb.TypeProto
	// reported marks the (node, rule) pairs already reported, so that the
	// static check and the kernel do not report one violation twice.
	reported map[string]bool
	// compared marks the values whose declared type was compared already.
	compared map[string]bool
	// withFinding marks the nodes of the main graph that have a finding
	// (hasFinding), kept by add: a scan of the findings for each node
	// made a check of 200,000 nodes quadratic.
	withFinding map[int]bool
	// withResultFinding marks those whose findings are not all formal
	// (formalRules): their outputs are not learnt from inference.
	withResultFinding map[int]bool
	// folded is the bytes of the computed constants kept so far.
	folded int64
	// inferred is what package infer knows of the values, nil when it
	// could not run (see infer.go).
	inferred *inference
	// ran marks the nodes whose kernel ran statically.
	ran map[int]bool
}

// keepFolded reports whether the check keeps the value v a node computed
// from constants, within foldBudget, and counts it if so.
func (c *checker) keepFolded(v tensor.Value) bool {
	var n int64
	if t, ok := v.(*tensor.Tensor); ok {
		n = int64(t.ByteLen())
		if t.DataType() == tensor.String {
			n += 16 * int64(t.Len())
		}
	}
	if c.folded+n > foldBudget {
		return false
	}
	c.folded += n
	return true
}

// known is what the checker knows of one value before the model runs.
type known struct {
	kind    valueKind
	dtype   tensor.DataType // Undefined when unknown
	dims    []int           // -1 for an unknown dimension; meaningful when hasRank
	hasRank bool
	value   tensor.Value // the value itself when it is a constant
	// from says where a value that is not constant comes from: "graph
	// input" or the producing node.
	from string
	// overBudget marks a constant whose value the check dropped, past
	// foldBudget.
	overBudget bool
}

type valueKind int

const (
	unknownKind valueKind = iota
	tensorKind
	otherKind // sequence, optional or map
)

// fullShape reports whether every dimension is known.
func (k *known) fullShape() bool {
	if k == nil || k.kind != tensorKind || !k.hasRank {
		return false
	}
	for _, d := range k.dims {
		if d < 0 {
			return false
		}
	}
	return true
}

func (k *known) describe() string {
	if k == nil || k.kind == unknownKind {
		return "unknown"
	}
	if k.kind == otherKind {
		return "a sequence, optional or map"
	}
	s := "tensor(" + k.dtype.String() + ")"
	if k.dtype == tensor.Undefined {
		s = "tensor(?)"
	}
	if k.hasRank {
		s += shapeString(k.dims)
	}
	return s
}

func shapeString(dims []int) string {
	parts := make([]string, len(dims))
	for i, d := range dims {
		if d < 0 {
			parts[i] = "?"
		} else {
			parts[i] = strconv.Itoa(d)
		}
	}
	return "[" + strings.Join(parts, ",") + "]"
}

// knownFromType reads a declared type.
func knownFromType(t *pb.TypeProto) *known {
	switch {
	case t == nil || t.GetValue() == nil:
		return &known{}
	case t.GetTensorType() == nil:
		return &known{kind: otherKind}
	}
	tt := t.GetTensorType()
	k := &known{kind: tensorKind, dtype: tensor.DataType(tt.GetElemType())}
	if !k.dtype.Valid() {
		k.dtype = tensor.Undefined
	}
	if s := tt.GetShape(); s != nil {
		k.hasRank = true
		k.dims = make([]int, len(s.GetDim()))
		for i, d := range s.GetDim() {
			k.dims[i] = -1
			if v, ok := d.GetValue().(*pb.TensorShapeProto_Dimension_DimValue); ok && v.DimValue >= 0 && v.DimValue <= 1<<40 {
				k.dims[i] = int(v.DimValue)
			}
		}
	}
	return k
}

// knownFromValue describes a value computed or read before the model runs.
func knownFromValue(v tensor.Value, constant bool) *known {
	t, ok := v.(*tensor.Tensor)
	if !ok {
		k := &known{kind: otherKind}
		if constant {
			k.value = v
		}
		return k
	}
	k := &known{kind: tensorKind, dtype: t.DataType(), hasRank: true, dims: append([]int{}, t.Shape()...)}
	if constant {
		k.value = t
	}
	return k
}

// nodeWhere is the place of node i of the main graph.
func nodeWhere(np *pb.NodeProto, i int) Place { return nodePlace(np.GetName(), i) }

// addOnce records a finding about a node once per (node, operator, rule):
// the static checks and the kernel may see one violation each.
func (c *checker) addOnce(f Finding) {
	key := fmt.Sprintf("%d/%s/%s", f.Where.Index, f.Op, f.Rule)
	if c.reported[key] {
		return
	}
	c.reported[key] = true
	c.add(f)
}

// add records a finding.
func (c *checker) add(f Finding) {
	if f.Fix == "" {
		f.Fix = fixFor(f.Op, f.Rule)
	}
	c.rep.Findings = append(c.rep.Findings, f)
	if f.Where.Kind == PlaceNode && f.Where.Within == nil {
		if c.withFinding == nil {
			c.withFinding = map[int]bool{}
		}
		c.withFinding[f.Where.Index] = true
		if !formalRules[f.Rule] {
			if c.withResultFinding == nil {
				c.withResultFinding = map[int]bool{}
			}
			c.withResultFinding[f.Where.Index] = true
		}
	}
}

// formalRules are the rules whose findings put a node outside the profile
// without saying anything of its result: a default left implicit, an
// operator version or element type the profile does not take, an operator
// outside its set. The shapes such a node computes are ONNX's, which
// inference knows; a node with any other finding (its kernel refuses it,
// or it is no valid ONNX) has no result to learn.
var formalRules = map[string]bool{ruleGR2: true, ruleGR3: true, ruleGR4: true, ruleOPS: true, ruleTypes: true, ruleVersion: true}

// graphFinding records a finding about the graph, not a node.
func (c *checker) graphFinding(where Place, rule, fix, format string, args ...any) {
	c.add(Finding{Where: where, Rule: rule, Message: fmt.Sprintf(format, args...), Fix: fix})
}

func (c *checker) run() {
	g := c.m.GetGraph()
	if g == nil {
		c.graphFinding(modelPlace, ruleONNX, "give the model a graph", "the model has no graph")
		return
	}
	c.rep.Nodes = len(g.GetNode())
	c.inferred = runInference(c.m, c.baseDir)
	c.readOpsets()
	c.checkValidity()
	c.checkSparse(g)
	c.checkGraphTypes(g)
	c.checkDefaultInputs(g)
	c.checkPositiveDims(g)
	order := c.sortNodes(g)
	for _, i := range order {
		c.checkNode(i, g.GetNode()[i])
	}
	c.checkGraphOutputs(g)
}

// readOpsets reads the model's opset imports.
func (c *checker) readOpsets() {
	c.opsets = map[string]int{}
	for _, imp := range c.m.GetOpsetImport() {
		d := imp.GetDomain()
		if d == "ai.onnx" {
			d = ""
		}
		if _, dup := c.opsets[d]; dup {
			c.graphFinding(modelPlace, ruleONNX, "import each domain once", "the opset of domain %q is imported twice", imp.GetDomain())
			continue
		}
		if imp.GetVersion() < 1 || imp.GetVersion() > 1<<20 {
			c.graphFinding(modelPlace, ruleONNX, "import a released opset version", "the opset of domain %q has version %d", imp.GetDomain(), imp.GetVersion())
			continue
		}
		if d == "" && imp.GetVersion() > graph.NewestOpset {
			// The loader refuses it (its operators may mean something
			// else), so no run under the profile could succeed.
			c.graphFinding(modelPlace, ruleONNX, fmt.Sprintf("import ai.onnx at an opset onnxshape knows (at most %d)", graph.NewestOpset),
				"the model imports ai.onnx opset %d, newer than opset %d, the newest onnxshape knows", imp.GetVersion(), graph.NewestOpset)
			continue
		}
		c.opsets[d] = int(imp.GetVersion())
	}
	if _, ok := c.opsets[""]; !ok && len(c.m.GetGraph().GetNode()) > 0 {
		c.graphFinding(modelPlace, ruleONNX, "add an opset_import for the default domain (ai.onnx)", "the model imports no opset of the default domain")
	}
}

// sortNodes returns the nodes' indices with every node after the producers
// of its inputs. It also records what is known of the graph's inputs and
// initializers, and reports values produced twice and cycles.
func (c *checker) sortNodes(g *pb.GraphProto) []int {
	defined := map[string]string{} // value name -> what defines it
	isInput := map[string]bool{}
	for _, vi := range g.GetInput() {
		isInput[vi.GetName()] = true
	}
	for _, vi := range g.GetValueInfo() {
		c.declared[vi.GetName()] = vi.GetType()
	}
	for _, vi := range g.GetOutput() {
		c.declared[vi.GetName()] = vi.GetType()
	}
	// An initializer that is also a graph input is only a default the
	// caller may replace (IR version 4 and later), so its value is not known.
	overridable := c.m.GetIrVersion() >= 4
	// One name, one initializer and one graph input: the loader refuses
	// duplicates, so the check does too (it kept the last).
	seenInit, seenInput := map[string]bool{}, map[string]bool{}
	for _, vi := range g.GetInput() {
		if seenInput[vi.GetName()] {
			c.graphFinding(valuePlace(PlaceInput, vi.GetName()), ruleONNX, "give every graph input its own name", "graph input %q is declared twice", vi.GetName())
		}
		seenInput[vi.GetName()] = true
	}
	for _, tp := range g.GetInitializer() {
		name := tp.GetName()
		if seenInit[name] {
			c.graphFinding(valuePlace(PlaceInitializer, name), ruleONNX, "give every initializer its own name", "initializer %q is given twice", name)
		}
		seenInit[name] = true
		if isInput[name] && overridable {
			continue
		}
		defined[name] = "initializer"
		t, err := onnx.TensorFromProto(tp, c.baseDir)
		if err != nil {
			c.graphFinding(valuePlace(PlaceInitializer, name), ruleONNX, "store the tensor as ONNX describes (data matching its dims and type)", "the tensor cannot be read: %v", err)
			c.vals[name] = &known{}
			continue
		}
		c.vals[name] = knownFromValue(t, true)
	}
	for _, vi := range g.GetInput() {
		if _, ok := c.vals[vi.GetName()]; ok {
			continue
		}
		defined[vi.GetName()] = "input"
		k := knownFromType(vi.GetType())
		k.from = "graph input"
		c.vals[vi.GetName()] = k
	}

	nodes := g.GetNode()
	producer := map[string]int{}
	for i, np := range nodes {
		for _, out := range np.GetOutput() {
			if out == "" {
				continue
			}
			if what, ok := defined[out]; ok {
				c.addOnce(Finding{Where: nodeWhere(np, i), Op: np.GetOpType(), Rule: ruleONNX,
					Message: fmt.Sprintf("output %q is already defined by %s", out, what),
					Fix:     "give every value one producer (SSA form)"})
				continue
			}
			defined[out] = nodeWhere(np, i).String()
			producer[out] = i
		}
	}
	// The runner's order, so that the check and a run visit nodes alike.
	order, err := nodeproto.Sort(nodes, producer)
	if err != nil {
		c.graphFinding(modelPlace, ruleONNX, "break the cycle: ONNX graphs are acyclic", "%v", err)
	}
	return order
}

// checkGraphOutputs checks the graph outputs that no node produces, and
// that every output is defined.
func (c *checker) checkGraphOutputs(g *pb.GraphProto) {
	for _, vi := range g.GetOutput() {
		name := vi.GetName()
		k, ok := c.vals[name]
		if !ok {
			c.graphFinding(valuePlace(PlaceOutput, name), ruleONNX, "connect the output to a value the graph defines", "no node, input or initializer defines it")
			continue
		}
		c.checkDeclared(valuePlace(PlaceOutput, name), nil, name, k)
	}
}
