package profile

import (
	"errors"
	"fmt"
	"strings"

	"github.com/onnxshape/onnxshape/internal/nodeproto"
	"github.com/onnxshape/onnxshape/internal/sonnxrule"
	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// standInLimit is the largest number of elements of a stand-in tensor: a
// data input larger than this is not materialised, and the node's
// constraints are left to run time.
const standInLimit = 1 << 20

// staticOptions are the options of the kernels Check runs: the profile's
// rules, a modest size cap (a larger output is left to run time) and one
// core, since the checker runs beside other work.
func staticOptions() *ops.Options {
	return &ops.Options{Profile: ops.ProfileSONNX, MaxTensorBytes: 64 << 20, Threads: 1}
}

// nodeCheck is the check of one node.
type nodeCheck struct {
	c       *checker
	np      *pb.NodeProto
	index   int
	version int         // the operator's since-version, 0 when unresolved
	schema  *ops.Schema // nil when onnxshape has no kernel for the node
	in      []*known    // per input, nil for an input left out ("")
}

func (nc *nodeCheck) op() string   { return nc.np.GetOpType() }
func (nc *nodeCheck) where() Place { return nodeWhere(nc.np, nc.index) }

// finding records a finding about the node under rule.
func (nc *nodeCheck) finding(rule, msg, fix string) {
	nc.c.addOnce(Finding{Where: nc.where(), Op: nc.op(), Version: nc.version, Rule: rule, Message: msg, Fix: fix})
}

// checkNode checks node i, whose inputs are known as far as anything is,
// and records what it produces.
func (c *checker) checkNode(i int, np *pb.NodeProto) {
	nc := &nodeCheck{c: c, np: np, index: i}
	var undefined []string
	for _, name := range np.GetInput() {
		var k *known
		if name != "" {
			if k = c.vals[name]; k == nil {
				k = &known{}
				undefined = append(undefined, fmt.Sprintf("%q", name))
			}
		}
		nc.in = append(nc.in, k)
	}
	domain := np.GetDomain()
	if domain == "ai.onnx" {
		domain = ""
	}
	var lookupErr error
	if opset, ok := c.opsets[domain]; ok {
		nc.schema, lookupErr = ops.Lookup(domain, np.GetOpType(), opset)
		if lookupErr == nil {
			nc.version = nc.schema.Since
		}
	}
	inSet := c.checkOperatorSet(nc)
	if len(undefined) > 0 {
		nc.finding(ruleONNX, fmt.Sprintf("input %s is no graph input, initializer or node output", strings.Join(undefined, ", ")),
			"connect every input to a value the graph defines")
	}
	if nc.schema == nil {
		if inSet && lookupErr != nil {
			nc.finding(ruleONNX, lookupErr.Error(), "import an opset in which the operator exists")
		}
		c.setOutputs(nc, nil)
		return
	}
	c.checkVersion(nc)
	if nc.op() == "Constant" {
		c.checkConstant(nc)
	}
	attrsOK := c.checkAttributes(nc)
	c.checkDefaults(nc)
	bound, typesOK := c.checkNodeTypes(nc)
	c.checkElementwise(nc)
	var outs []*known
	if attrsOK && typesOK && len(undefined) == 0 {
		outs = c.runKernel(nc)
	}
	if outs == nil {
		outs = c.inferOutputs(nc, bound)
	}
	c.checkSpecTypes(nc, outs)
	c.checkOutputDims(nc, outs)
	c.checkNaN(nc)
	c.setOutputs(nc, outs)
}

// checkAttributes reports, under ONNX (the model is not valid ONNX), an
// attribute the node's operator version does not take or takes with
// another type, as the loader refuses it in every mode.
func (c *checker) checkAttributes(nc *nodeCheck) bool {
	err := nodeproto.CheckAttributes(nc.np, nc.schema)
	var opErr *ops.Error
	if errors.As(err, &opErr) {
		nc.finding(ruleONNX, opErr.Msg, "remove the attribute or give it the type the operator version takes")
		return false
	}
	return err == nil
}

// isDataInput reports whether input i of op only carries data: its values
// cannot make the operator refuse, so a stand-in of the right type and
// shape serves to check the node. Every other input is a parameter (axes,
// shape, pads, indices...) whose values must be known.
func isDataInput(nc *nodeCheck, i int) bool {
	if valueConstrained(nc, i) {
		return false
	}
	if len(sonnxrule.SameShapeIDs(nc.op())) > 0 {
		return true // Add, Less, Where...: every input is data
	}
	switch op := nc.op(); op {
	case "Concat", "Clip", "Max", "MatMul", "BatchNormalization":
		return true // BatchNormalization's input_var: valueConstrained
	case "Range":
		return false // start, limit and delta fix the output's shape
	case "Pad":
		return i == 0 || i == 2 // data, constant_value
	}
	return i == 0
}

// runKernel runs the node's kernel under the profile on what is known:
// constants as they are, stand-in tensors (zeros of the declared type and
// shape) for data inputs. It returns what the outputs are known to be, or
// nil when the kernel could not run or refused; a refusal is a finding with
// the operator's own rule id.
func (c *checker) runKernel(nc *nodeCheck) []*known {
	np := nc.np
	node, err := nodeproto.Decode(np, nc.version, c.baseDir)
	if err != nil {
		nc.finding(ruleONNX, fmt.Sprintf("the node cannot be read: %v", err), "write the node as its ONNX schema describes")
		return nil
	}
	if err := arity("inputs", len(np.GetInput()), nc.schema.Inputs); err != nil {
		if nc.op() == "Concat" { // its specification's own: 1 to 2^31-1 inputs
			nc.finding("inputs [C1]", err.Error(), "")
			return nil
		}
		nc.finding(ruleONNX, err.Error(), "give the node the inputs its ONNX schema lists")
		return nil
	}
	if err := arity("outputs", len(np.GetOutput()), nc.schema.Outputs); err != nil {
		nc.finding(ruleONNX, err.Error(), "give the node the outputs its ONNX schema lists")
		return nil
	}
	in := make([]tensor.Value, len(np.GetInput()))
	constant := true
	for i, name := range np.GetInput() {
		k := nc.in[i]
		switch {
		case name == "":
			continue
		case k.value != nil:
			in[i] = k.value
			continue
		}
		constant = false
		if !isDataInput(nc, i) {
			switch {
			case k.from == "graph input":
				nc.deferToRunTime("input %d (%q) is a graph input, known only at run time", i, name)
			case k.overBudget:
				nc.deferToRunTime("input %d (%q), computed by %s, is a constant past the check's budget of %d MiB of computed constants, so its value is left unknown", i, name, k.from, foldBudget>>20)
			default:
				nc.deferToRunTime("input %d (%q) is computed at run time by %s", i, name, k.from)
			}
			return nil
		}
		if !k.fullShape() || k.dtype == tensor.Undefined {
			nc.deferToRunTime("the type of input %d (%q) is not fully known: %s", i, name, c.inferred.describe(name, k))
			return nil
		}
		n, err := tensor.NumElements(k.dims)
		if err != nil || n > standInLimit {
			nc.deferToRunTime("input %d (%q), %s, is too large to check statically", i, name, k.describe())
			return nil
		}
		t, err := tensor.New(k.dtype, k.dims...)
		if err != nil {
			nc.deferToRunTime("input %d (%q), %s: %v", i, name, k.describe(), err)
			return nil
		}
		in[i] = t
	}
	outs, err := runSafely(nc.schema.Run, staticOptions(), node, in)
	var panicked *kernelPanic
	var opErr *ops.Error
	switch {
	case errors.As(err, &panicked):
		nc.deferToRunTime("the kernel failed while checking: %v", panicked.value)
		return nil
	case errors.Is(err, ops.ErrLimit):
		nc.deferToRunTime("its output is too large to compute statically")
		return nil
	case errors.As(err, &opErr):
		c.addOnce(Finding{Where: nc.where(), Op: opErr.Op, Version: opErr.Version,
			Rule: opErr.Rule, Message: opErr.Msg})
		return nil
	case err != nil:
		nc.finding(ruleONNX, err.Error(), "")
		return nil
	}
	c.rep.Checked++
	c.ran[nc.index] = true
	// Shape and Size read only the shape of their input, which is known.
	constant = constant || nc.op() == "Shape" || nc.op() == "Size"
	res := make([]*known, len(np.GetOutput()))
	for j := range res {
		if j < len(outs) && outs[j] != nil {
			res[j] = knownFromValue(outs[j], constant && c.keepFolded(outs[j]))
			res[j].overBudget = constant && res[j].value == nil
		}
	}
	return res
}

func arity(what string, n int, r [2]int) error {
	if n < r[0] || (r[1] >= 0 && n > r[1]) {
		if r[1] < 0 {
			return fmt.Errorf("the node has %d %s, the operator takes at least %d", n, what, r[0])
		}
		return fmt.Errorf("the node has %d %s, the operator takes %d to %d", n, what, r[0], r[1])
	}
	return nil
}

// kernelPanic is a panic inside a kernel, turned into an error.
type kernelPanic struct{ value any }

func (p *kernelPanic) Error() string { return fmt.Sprintf("panic: %v", p.value) }

func runSafely(run ops.Kernel, opt *ops.Options, n *ops.Node, in []tensor.Value) (out []tensor.Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, &kernelPanic{r}
		}
	}()
	return run(opt, n, in)
}

// inferOutputs gives the element types of the outputs of a node that could
// not run, from the operator's signature.
func (c *checker) inferOutputs(nc *nodeCheck, bound map[string]tensor.DataType) []*known {
	res := make([]*known, len(nc.np.GetOutput()))
	s, ok := signatureFor(nc.op(), nc.version)
	for j := range res {
		res[j] = &known{}
		if !ok {
			continue
		}
		t := s.typeAt(true, j)
		if t == "" {
			continue
		}
		res[j].kind = tensorKind
		if fixed, ok := fixedTypes[t]; ok {
			res[j].dtype = fixed
		} else {
			res[j].dtype = bound[t]
		}
		if r, ok := outputRank(nc); ok && !c.hasFinding(nc.index) && (j == 0 || nc.op() == "MaxPool" || nc.op() == "Split") {
			res[j].hasRank = true
			res[j].dims = make([]int, r)
			for i := range res[j].dims {
				res[j].dims[i] = -1
			}
		}
	}
	return res
}

// outputRank infers the rank of the output of a node that could not run,
// from the ranks of its inputs and the lengths of its 1-D parameters:
// enough to compare a declaration's rank before the model runs, its
// dimensions being left to run time.
func outputRank(nc *nodeCheck) (int, bool) {
	rankOf := func(i int) (int, bool) {
		if i >= len(nc.in) || nc.in[i] == nil || nc.in[i].kind != tensorKind || !nc.in[i].hasRank {
			return 0, false
		}
		return len(nc.in[i].dims), true
	}
	lengthOf := func(i int) (int, bool) {
		if r, ok := rankOf(i); !ok || r != 1 || nc.in[i].dims[0] < 0 {
			return 0, false
		}
		return nc.in[i].dims[0], true
	}
	switch nc.op() {
	case "Unsqueeze":
		if nc.version >= 13 {
			r, ok := rankOf(0)
			n, ok2 := lengthOf(1)
			return r + n, ok && ok2
		}
	case "Reshape":
		if nc.version >= 5 {
			return lengthOf(1)
		}
	case "Expand":
		r, ok := rankOf(0)
		n, ok2 := lengthOf(1)
		return max(r, n), ok && ok2
	case "Concat", "Slice", "Pad", "Resize", "Transpose", "MaxPool", "Split", "Tile", "Identity", "CenterCropPad":
		return rankOf(0)
	}
	return 0, false
}

// setOutputs records what the node's outputs are known to be, after
// comparing it with the model's declarations (GR3) and the profile's types.
func (c *checker) setOutputs(nc *nodeCheck, outs []*known) {
	for j, name := range nc.np.GetOutput() {
		if name == "" {
			continue
		}
		if _, taken := c.vals[name]; taken {
			continue // defined twice: reported by sortNodes
		}
		k := &known{}
		if j < len(outs) && outs[j] != nil {
			k = outs[j]
		}
		if k.value == nil {
			k.from = nc.where().String()
		}
		if nc.schema != nil && !c.withResultFinding[nc.index] {
			// A node whose kernel refuses it has no result to learn:
			// inference may give it one. Nor has one onnxshape cannot run,
			// left undecided whole. A finding on a default left implicit
			// or a version (formalRules) changes nothing of the shapes
			// ONNX gives, which inference knows.
			c.inferred.learn(name, k)
		}
		c.checkDeclared(nc.where(), nc, name, k)
		if _, own := specs[nc.op()]; !own && k.kind == tensorKind && k.dtype != tensor.Undefined && !profileTypes[k.dtype] {
			nc.finding(ruleTypes, fmt.Sprintf("output %d (%q) is %v, which is not among the profile's types", j, name, k.dtype), typesFix)
		}
		c.vals[name] = k
	}
}
