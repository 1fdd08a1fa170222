package profile

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/onnxshape/onnxshape/internal/sonnxrule"
	"github.com/onnxshape/onnxshape/onnx"
	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// The rules for every operator and for the model as a whole. Each function
// here is named in Rules as the checker of its rule.

// checkSparse is GR1: no sparse tensor anywhere, neither as an initializer,
// nor as an attribute (subgraphs included), nor as a declared type.
func (c *checker) checkSparse(g *pb.GraphProto) {
	c.checkSparseIn(g, nil, "")
}

// checkSparseIn checks graph g, the main graph (within nil) or the
// subgraph in attribute attr of node within.
func (c *checker) checkSparseIn(g *pb.GraphProto, within *Place, attr string) {
	at := func(p Place) Place {
		p.Within, p.Attribute = within, attr
		return p
	}
	const fix = "store the tensor dense (a TensorProto)"
	for i, sp := range g.GetSparseInitializer() {
		name := sp.GetValues().GetName()
		if name == "" {
			name = fmt.Sprintf("#%d", i)
		}
		c.graphFinding(at(valuePlace(PlaceSparseInitializer, name)), ruleGR1, fix, "the graph holds a sparse initializer")
	}
	for _, set := range []struct {
		what string
		vis  []*pb.ValueInfoProto
	}{{PlaceInput, g.GetInput()}, {PlaceOutput, g.GetOutput()}, {PlaceValue, g.GetValueInfo()}} {
		for _, vi := range set.vis {
			if hasSparseType(vi.GetType()) {
				c.graphFinding(at(valuePlace(set.what, vi.GetName())), ruleGR1, "declare a dense tensor type",
					"its type %s is sparse", onnx.DescribeType(vi.GetType()))
			}
		}
	}
	for i, np := range g.GetNode() {
		for _, a := range np.GetAttribute() {
			if a.GetSparseTensor() != nil || len(a.GetSparseTensors()) > 0 ||
				a.GetType() == pb.AttributeProto_SPARSE_TENSOR || a.GetType() == pb.AttributeProto_SPARSE_TENSORS {
				c.add(Finding{Where: at(nodeWhere(np, i)), Op: np.GetOpType(), Rule: ruleGR1,
					Message: fmt.Sprintf("attribute %s is a sparse tensor", a.GetName()), Fix: fix})
			}
			for _, sub := range append([]*pb.GraphProto{a.GetG()}, a.GetGraphs()...) {
				if sub != nil {
					node := at(nodeWhere(np, i))
					c.checkSparseIn(sub, &node, a.GetName())
				}
			}
		}
	}
}

// hasSparseType reports whether t is or holds a sparse tensor type.
func hasSparseType(t *pb.TypeProto) bool {
	switch v := t.GetValue().(type) {
	case *pb.TypeProto_SparseTensorType:
		return true
	case *pb.TypeProto_SequenceType:
		return hasSparseType(v.SequenceType.GetElemType())
	case *pb.TypeProto_OptionalType:
		return hasSparseType(v.OptionalType.GetElemType())
	case *pb.TypeProto_MapType:
		return hasSparseType(v.MapType.GetValueType())
	}
	return false
}

// checkGraphTypes is GR2 and TYPES on the graph's interface: every graph
// input and output declares a tensor type with an element type the profile
// names and a shape whose every dimension is a number; every initializer
// has such an element type.
func (c *checker) checkGraphTypes(g *pb.GraphProto) {
	inits := map[string]bool{}
	for _, tp := range g.GetInitializer() {
		inits[tp.GetName()] = true
		where := valuePlace(PlaceInitializer, tp.GetName())
		dt := tensor.DataType(tp.GetDataType())
		switch {
		case !dt.Valid():
			c.graphFinding(where, ruleGR2, "set data_type to the tensor's element type", "data_type %d is no ONNX element type", tp.GetDataType())
		case !interfaceTypes[dt]:
			c.graphFinding(where, ruleTypes, typesFix, "element type %v is not among the profile's types", dt)
		}
	}
	for _, vi := range g.GetInput() {
		if inits[vi.GetName()] && c.m.GetIrVersion() < 4 {
			continue // IR 3: every initializer is listed as an input too
		}
		c.checkInterfaceType(valuePlace(PlaceInput, vi.GetName()), vi.GetType())
	}
	for _, vi := range g.GetOutput() {
		c.checkInterfaceType(valuePlace(PlaceOutput, vi.GetName()), vi.GetType())
	}
}

const typesFix = "use one of float16, float, double, bfloat16, int8..int64, uint8..uint64, bool, string"

func (c *checker) checkInterfaceType(where Place, t *pb.TypeProto) {
	switch {
	case t == nil || t.GetValue() == nil:
		c.graphFinding(where, ruleGR2, "declare its tensor type: element type and every dimension", "it declares no type")
		return
	case hasSparseType(t):
		return // GR1 reported it
	case t.GetTensorType() == nil:
		c.graphFinding(where, ruleTypes, "pass tensors only", "its type %s is not a tensor: the profile knows tensors only", onnx.DescribeType(t))
		return
	}
	tt := t.GetTensorType()
	dt := tensor.DataType(tt.GetElemType())
	switch {
	case !dt.Valid():
		c.graphFinding(where, ruleGR2, "declare the element type", "its type %s has no element type", onnx.DescribeType(t))
	case !interfaceTypes[dt]:
		c.graphFinding(where, ruleTypes, typesFix, "element type %v is not among the profile's types", dt)
	}
	if tt.GetShape() == nil {
		c.graphFinding(where, ruleGR2, "declare the shape, every dimension a number", "its type %s has no shape", onnx.DescribeType(t))
		return
	}
	var loose []string
	for i, d := range tt.GetShape().GetDim() {
		if _, ok := d.GetValue().(*pb.TensorShapeProto_Dimension_DimValue); !ok {
			loose = append(loose, fmt.Sprint(i))
		}
	}
	if len(loose) > 0 {
		c.graphFinding(where, ruleGR2, "give every dimension a fixed size (dim_value)",
			"its type %s leaves dimension %s without a size", onnx.DescribeType(t), strings.Join(loose, ", "))
	}
}

// checkDeclared is GR3 for one value: the type the model declares for it
// (value_info or graph output) agrees with what the checker knows of it.
// It then fills what k does not know from the declaration. nc is the
// producing node, nil for a graph input or initializer.
func (c *checker) checkDeclared(where Place, nc *nodeCheck, name string, k *known) {
	decl, ok := c.declared[name]
	if !ok || c.compared[name] {
		return
	}
	c.compared[name] = true
	d := knownFromType(decl)
	if d.kind != tensorKind || k.kind != tensorKind {
		if !knowsAll(k, d) {
			c.deferDeclared(nc, name, k, d)
		}
		return
	}
	// The rule is the producing operator's own output constraint where its
	// specification states one (Unsqueeze's Y [C1], Concat's
	// concat_output [C1]), the run-time check's too; else GR3.
	report := func(shape bool, format string, args ...any) {
		f := Finding{Where: where, Rule: ruleGR3, Message: fmt.Sprintf(format, args...)}
		if nc != nil {
			f.Op, f.Version = nc.op(), nc.version
			f.Rule = sonnxrule.Declared(nc.op(), shape)
		}
		if f.Rule == ruleGR3 {
			f.Fix = "make the declared type that of the value, or convert explicitly (Cast, Reshape)"
		}
		c.add(f)
	}
	if d.dtype != tensor.Undefined && k.dtype != tensor.Undefined && d.dtype != k.dtype {
		report(false, "value %q is declared %v but is %v", name, d.dtype, k.dtype)
	} else if d.hasRank && k.hasRank {
		// Shapes are written with the symbols inference knows: [N,4].
		dshape, kshape, symbolic := c.inferred.symbolicMismatch(name, decl, k)
		if dshape == "" {
			dshape, kshape = shapeString(d.dims), shapeString(k.dims)
		}
		bad := len(d.dims) != len(k.dims) || symbolic
		for i := 0; !bad && i < len(d.dims); i++ {
			bad = d.dims[i] >= 0 && k.dims[i] >= 0 && d.dims[i] != k.dims[i]
		}
		if bad {
			report(true, "value %q is declared with shape %s but has shape %s", name, dshape, kshape)
		}
	}
	// A declaration that states more than is known is compared when the
	// model runs, unless it is already contradicted (deferDeclared skips a
	// node with a finding).
	if !knowsAll(k, d) {
		c.deferDeclared(nc, name, k, d)
	}
	// What the model declares stands in for what the checker cannot know.
	if k.dtype == tensor.Undefined {
		k.dtype = d.dtype
	}
	if !k.hasRank && d.hasRank {
		k.hasRank, k.dims = true, append([]int{}, d.dims...)
	} else if k.hasRank && d.hasRank && len(k.dims) == len(d.dims) {
		for i := range k.dims {
			if k.dims[i] < 0 {
				k.dims[i] = d.dims[i]
			}
		}
	}
}

// checkNodeTypes is GR3 for a node's inputs: the inputs that the
// operator's schema gives one type variable have one element type, and an
// input of a fixed type (int64 shapes, float scales) has that type. It
// returns the element type bound to each type variable and whether all is
// well.
func (c *checker) checkNodeTypes(nc *nodeCheck) (map[string]tensor.DataType, bool) {
	s, ok := signatureFor(nc.np.GetOpType(), nc.version)
	bound := map[string]tensor.DataType{}
	if !ok {
		return bound, true
	}
	first := map[string]int{}
	good := true
	for i, name := range nc.np.GetInput() {
		k := nc.in[i]
		if name == "" || k == nil || k.kind != tensorKind || k.dtype == tensor.Undefined {
			continue
		}
		t := s.typeAt(false, i)
		if t == "" {
			continue
		}
		if fixed, ok := fixedTypes[t]; ok {
			if k.dtype != fixed {
				nc.finding(ruleGR3, fmt.Sprintf("input %d (%q) is %v where %s-%d takes %v", i, name, k.dtype, nc.op(), nc.version, fixed),
					fmt.Sprintf("give input %d as %v", i, fixed))
				good = false
			}
			continue
		}
		if prev, ok := bound[t]; ok && prev != k.dtype {
			rule := ruleGR3
			if r, ok := typeRuleIDs[nc.op()]; ok {
				rule = r
			}
			nc.finding(rule, fmt.Sprintf("input %d (%q) is %v but input %d is %v: %s-%d takes one type for both (%s)",
				i, name, k.dtype, first[t], prev, nc.op(), nc.version, t),
				"convert explicitly (Cast) so that both inputs have one type")
			good = false
			continue
		}
		bound[t], first[t] = k.dtype, i
	}
	return bound, good
}

// typeRuleIDs gives the operators whose specification has its own id for
// "the inputs have one type", reported instead of GR3.
var typeRuleIDs = map[string]string{"Concat": "inputs [C3]", "Slice": "R10"}

// checkDefaultInputs is GR4 (and the requirement OP 016 of the SONNX
// requirements) on the graph's interface: an initializer that is also a
// graph input (IR version 4 and later) is a default value the caller may
// replace, so the model's result depends on a value it does not fix.
func (c *checker) checkDefaultInputs(g *pb.GraphProto) {
	if c.m.GetIrVersion() < 4 {
		return // IR 3: every initializer is listed as an input too
	}
	inits := map[string]bool{}
	for _, tp := range g.GetInitializer() {
		inits[tp.GetName()] = true
	}
	for _, vi := range g.GetInput() {
		if inits[vi.GetName()] {
			c.graphFinding(valuePlace(PlaceInput, vi.GetName()), ruleGR4,
				"remove the input, keeping the initializer as a constant, or remove the initializer so the caller always gives the value",
				"the initializer %q is also a graph input: a default value the caller may replace", vi.GetName())
		}
	}
}

// checkDefaults is GR4: every attribute and optional input that has a
// default in the node's operator version is written out (see defaults.go).
// An operator whose specification restates the rule reports it under its
// own id (defaultRuleIDs).
func (c *checker) checkDefaults(nc *nodeCheck) {
	list, ok := defaultsFor(nc.op(), nc.version)
	if !ok {
		return
	}
	var order []string               // rule ids in the order first met
	missing := map[string][]string{} // rule id -> "attribute axis (default: 1)"
	params := map[string][]string{}  // rule id -> "attribute axis"
	for _, r := range list {
		if !r.missing(nc.np) {
			continue
		}
		rule := ruleGR4
		if ids, ok := defaultRuleIDs[nc.op()]; ok {
			if id, ok := ids[r.Param.Name]; ok {
				rule = id
			} else if id, ok := ids["*"]; ok {
				rule = id
			}
		}
		if _, seen := missing[rule]; !seen {
			order = append(order, rule)
		}
		missing[rule] = append(missing[rule], fmt.Sprintf("%s (default: %s)", r.Param, r.Default))
		params[rule] = append(params[rule], r.Param.String())
	}
	for _, rule := range order {
		msg := "left to the ONNX default: " + strings.Join(missing[rule], "; ")
		if rule != ruleGR4 {
			msg += "; the profile needs every such parameter written out (GR4)"
		}
		nc.finding(rule, msg, "write out "+strings.Join(params[rule], ", ")+" with the value the model relies on")
	}
}

// defaultRuleIDs: operators whose SONNX specification restates GR4 under an
// id of its own, by parameter ("*" for every parameter).
var defaultRuleIDs = map[string]map[string]string{
	"MaxPool": {"*": "R2"},
	"ArgMax":  {"axis": "R1", "keepdims": "R2", "select_last_index": "R3"},
	"Slice":   {"axes": "R1", "steps": "R3"},
	// leakyrelu.md: "[R1] Attribute alpha must be set".
	"LeakyRelu": {"alpha": "R1"},
}

// checkOperatorSet is OPS: the operator belongs to the profile's operator
// set. It reports false for an operator outside it.
func (c *checker) checkOperatorSet(nc *nodeCheck) bool {
	domain := nc.np.GetDomain()
	if domain != "" && domain != "ai.onnx" {
		nc.finding(ruleOPS, fmt.Sprintf("operator %s of domain %q is outside the profile's operator set (the default domain only)", nc.op(), domain),
			"replace it with operators of the profile's set")
		return false
	}
	if why, ok := outsideOperators[nc.op()]; ok {
		nc.finding(ruleOPS, fmt.Sprintf("%s is outside the profile's operator set: %s", nc.op(), why.reason), why.fix)
		return false
	}
	_, err := ops.Lookup("", nc.op(), math.MaxInt32)
	implemented := err == nil
	switch {
	case operatorSet[nc.op()] && implemented && admitted(nc.op()):
		return true
	case operatorSet[nc.op()] && implemented && !wgSpecified[nc.op()]:
		// Listed without a specification: nothing to transcribe yet.
		nc.c.citeAdmitted()
		nc.deferRules([]string{ruleNoSpec}, "%s is in the working group's operator list, but the working group has written no specification of it, so the check cannot place it inside the profile (see the admitted operators)",
			nc.op())
		return false
	case operatorSet[nc.op()] && implemented:
		// Implemented is not admitted: onnxshape runs the operator with
		// plain ONNX semantics, and the working group's specification (its
		// version, types and constraints) is not transcribed here, so
		// nothing says this node meets it.
		why := "onnxshape has not transcribed its SONNX specification (version, types, constraints)"
		if reason, ok := notTranscribed[nc.op()]; ok {
			why = reason
		}
		nc.c.citeAdmitted()
		nc.deferRules([]string{ruleSpec}, "%s is in the profile's operator set, but %s, so the check cannot place it inside the profile (see the admitted operators)",
			nc.op(), why)
		return false
	case implemented:
		nc.c.citeAdmitted()
		nc.finding(ruleOPS, fmt.Sprintf("%s is outside the profile's operator set: the working group neither specifies it nor lists it in the set", nc.op()),
			"replace it with admitted operators of the profile's set")
		return false
	}
	// onnxshape has no specification of the operator: whether it is in the
	// profile, and what its rules say of this node, is not decided here.
	nc.c.citeAdmitted()
	nc.deferRules([]string{ruleOPS}, "no specification in onnxshape: %s is not an operator onnxshape implements, so the check can neither place it inside the profile nor check its rules (see the admitted operators)",
		nc.op())
	return false
}

// wgSpecified are the operators of the set the working group has written
// a specification of (informal, safety-related-profile/sonnx/ops/spec/
// informal/<op>/, and most also in Why3): those not admitted are SPEC
// (not transcribed), the others of the set NOSPEC.
var wgSpecified = map[string]bool{
	"Abs": true, "Add": true, "ArgMax": true, "BatchNormalization": true, "Clip": true, "Concat": true,
	"Constant": true, "Conv": true, "Div": true, "Exp": true, "Flatten": true, "Gemm": true,
	"LeakyRelu": true, "Less": true, "Log": true, "LSTM": true, "MatMul": true, "Max": true,
	"MaxPool": true, "Mul": true, "Neg": true, "Pad": true, "Pow": true, "Range": true, "Relu": true,
	"Reshape": true, "Shape": true, "Sigmoid": true, "Slice": true, "Softmax": true, "Sqrt": true,
	"Sub": true, "Tanh": true, "Unsqueeze": true, "Where": true,
}

// notTranscribed says why a specified operator is not transcribed, where
// there is more to say than that it is not done yet.
var notTranscribed = map[string]string{
	"Neg":  "the working group's text of it is preliminary (it names no ONNX version and says nothing of the least integer, whose negation the type cannot hold)",
	"Gemm": "the working group's text of it is a draft (every restriction marked \"TBC\", no ONNX version, no type list, its Why3 marked \"not sure\")",
	"LSTM": "the working group's text of it names no ONNX version and states its restrictions without ids (constant W, R, B; batch size 1; the activations), so there is nothing yet to trace a check to",
	"Conv": "the working group's texts of it (conv.md, conv2.md) state an output size, strides [C2], of floor((dX+pads-(dilations*dW-1+1))/strides)+1, which differs from ONNX's dilations*(dW-1)+1 whenever a dilation is above 1, and their worked example (X 8x8, W 3x2, pads 2,1,2,2, dilations 2,2, strides 3,2, Y 4x4) matches neither; until the working group settles it, no Conv is admitted",
}

// admitted reports whether op is admitted: inside the profile only through
// a transcribed specification (specs: its version, types and constraints)
// or, for the operators sonnx-notes.md places in the set with ONNX
// semantics and the general rules, through that note (notesOperators).
func admitted(op string) bool {
	_, ok := specs[op]
	return ok || notesOperators[op]
}

// notesOperators are the operators sonnx-notes.md places in the set
// without an operator specification: ONNX semantics plus the profile's
// general rules, which the check applies to them.
var notesOperators = map[string]bool{"Pad": true, "Squeeze": true, "Transpose": true, "Split": true, "Resize": true, "Expand": true}

// operatorSet is the SONNX operator set: the operators the working group
// specifies (informal specifications in onnx/working-groups,
// safety-related-profile/sonnx/ops/spec/informal/) and those sonnx-notes.md
// places in the set without a specification yet (Pad, Squeeze, Transpose,
// Split, Resize, Expand: ONNX semantics plus the general rules). An
// operator of the set is inside only when it is admitted (its
// specification transcribed in specs, or one of notesOperators); every
// other one is undecided (SPEC when onnxshape implements it, OPS when it
// does not).
var operatorSet = map[string]bool{
	"Abs": true, "Add": true, "ArgMax": true, "BatchNormalization": true, "Clip": true, "Concat": true,
	"Constant": true, "Conv": true, "ConvInteger": true, "DequantizeLinear": true, "Div": true, "Exp": true,
	"Flatten": true, "Gemm": true, "LeakyRelu": true, "Less": true, "Log": true, "LSTM": true,
	"MatMul": true, "Max": true, "MaxPool": true, "Mul": true, "Neg": true, "Pad": true, "Pow": true,
	"QuantizeLinear": true, "Range": true, "Relu": true, "Reshape": true, "Shape": true, "Sigmoid": true,
	"Slice": true, "Softmax": true, "Sqrt": true, "Sub": true, "Tanh": true, "Unsqueeze": true, "Where": true,

	"Squeeze": true, "Transpose": true, "Split": true, "Resize": true, "Expand": true,
}

// undecidedList lists the operators of the set the profile does not admit
// (yet): undecided, SPEC.
func undecidedList() []string {
	var l []string
	for op := range operatorSet {
		if !admitted(op) && wgSpecified[op] {
			l = append(l, op)
		}
	}
	sort.Strings(l)
	return l
}

// unspecifiedList lists the operators of the set the working group has
// not specified: undecided, NOSPEC.
func unspecifiedList() []string {
	var l []string
	for op := range operatorSet {
		if !admitted(op) && !wgSpecified[op] {
			l = append(l, op)
		}
	}
	sort.Strings(l)
	return l
}

// admittedList lists the operators the profile admits (see admitted).
// citeAdmitted records in the report the admitted operators, which a
// finding or a deferral refers to: the report lists them once, not on
// every line.
func (c *checker) citeAdmitted() {
	if c.rep.Admitted == nil {
		c.rep.Admitted = admittedList()
	}
}

func admittedList() []string {
	var l []string
	for op := range operatorSet {
		if admitted(op) {
			l = append(l, op)
		}
	}
	sort.Strings(l)
	return l
}

// outsideOperators are the operators onnxshape implements that are outside
// the profile: why, and what to write instead. sonnx-notes.md names the
// first four; the others are not in its list, and the profile's closed
// operator set leaves them out (docs/sonnx.md gives the reasons).
var outsideOperators = map[string]struct{ reason, fix string }{
	"Tile":          {"SONNX leaves it out of the set", "repeat the data with Concat of the same input, or Expand where the dimension is 1"},
	"DepthToSpace":  {"SONNX leaves it out of the set", "write it as Reshape, Transpose, Reshape"},
	"SpaceToDepth":  {"SONNX leaves it out of the set", "write it as Reshape, Transpose, Reshape"},
	"MaxUnpool":     {"SONNX leaves it out of the set", "keep MaxUnpool out of the part of the model that must meet the profile"},
	"Identity":      {"it is not in the profile's list and does nothing a profile model needs", "remove the node and connect its input to its consumers"},
	"Size":          {"it is not in the profile's list; shapes are static in the profile", "replace the computed size by an initializer that holds it"},
	"CenterCropPad": {"it is not in the profile's list (ONNX defines it as a function of Slice and Pad)", "write it as Slice and Pad"},
	"Upsample":      {"it is not in the profile's list and ONNX deprecated it", "use Resize"},
}

// checkConstant is Constant's [R1] and [R2]: the value is given by the
// attribute value (not value_float, value_ints, ...), and is not sparse.
func (c *checker) checkConstant(nc *nodeCheck) {
	for _, a := range nc.np.GetAttribute() {
		switch a.GetName() {
		case "value":
		case "sparse_value":
			nc.finding("R2", "the value is given as a sparse tensor (sparse_value)", "give the value as a dense tensor in attribute value")
		default:
			nc.finding("R1", fmt.Sprintf("the value is given by attribute %s, not by attribute value", a.GetName()),
				"give the value as a tensor in attribute value")
		}
	}
}
