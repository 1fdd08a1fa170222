package profile

import (
	"fmt"
	"sort"
	"strings"
)

// The ids of the profile-wide rules, as Finding.Rule reports them.
const (
	ruleGR1   = "GR1"   // no sparse tensors
	ruleGR2   = "GR2"   // every type explicit
	ruleGR3   = "GR3"   // no implicit conversion
	ruleGR4   = "GR4"   // no default values
	ruleOPS   = "OPS"   // the operator is in the profile's operator set
	ruleTypes = "TYPES" // the element types are the profile's
	ruleONNX  = "ONNX"  // the model is valid ONNX in the first place
	// ruleVersion: an operator the profile specifies is used at the
	// version its specification is based on.
	ruleVersion = "VERSION"
)

// Rule is one row of the traceability table (docs/sonnx.md): a rule of the
// profile or a constraint of one of our operators, the functions that check
// it and the test that violates it.
type Rule struct {
	// Op is the operator the constraint belongs to, "" for a rule on every
	// operator or on the model.
	Op string
	// ID is the id a Finding reports: "GR1", or the operator's "C1", "R1".
	ID string
	// Statement says the rule in one line.
	Statement string
	// Fix says what to change in a model that breaks it.
	Fix string
	// Checkers are the Go functions that check it, as package.function
	// (a method by its name alone).
	Checkers []string
	// Test is the test whose case violates it, as go test -run names it.
	Test string
}

// Key is the rule's name in the table: "GR1" or "Concat C1".
func (r Rule) Key() string {
	if r.Op == "" {
		return r.ID
	}
	return r.Op + " " + r.ID
}

func rule(op, id, statement, fix string, checkers ...string) Rule {
	key := id
	if op != "" {
		key = op + "_" + id
	}
	return Rule{Op: op, ID: id, Statement: statement, Fix: fix, Checkers: checkers, Test: "TestViolations/" + key}
}

// Rules is the traceability table, in the order of docs/sonnx.md: the
// profile-wide rules, then each operator's, in the order of its
// specification. The operator rows carry the ids their kernels report
// (ops/<operator>.go states them in its header comment).
var Rules = []Rule{
	rule("", ruleGR1, "no sparse tensors: no sparse_initializer, no sparse attribute, no sparse type",
		"store the tensor dense (a TensorProto)", "profile.checkSparse"),
	rule("", ruleGR2, "every type explicit: graph inputs and outputs declare an element type and every dimension; initializers have an element type",
		"declare the element type and a fixed size for every dimension", "profile.checkGraphTypes"),
	rule("", ruleGR3, "no implicit conversion: inputs that share a type variable have one type, fixed-type inputs have that type, declared value types and shapes agree with what produces them",
		"convert explicitly (Cast, Reshape) or correct the declaration", "profile.checkNodeTypes", "profile.checkDeclared"),
	rule("", ruleGR4, "no default values: every attribute and optional input with a default in the operator's version is written out; no initializer is also a graph input (a default the caller may replace, OP 016)",
		"write out the attribute or input with the value the model relies on", "profile.checkDefaults", "profile.checkDefaultInputs"),
	rule("", ruleOPS, "every operator is in the profile's operator set (default domain; Unsqueeze, Concat, Reshape, Flatten, Slice, MaxPool, Pad, Squeeze, Transpose, Split, Resize, Expand)",
		"replace the operator with operators of the profile's set", "profile.checkOperatorSet"),
	rule("", ruleTypes, "every value is a tensor of a type the profile names (float16, float, double, bfloat16, int8..int64, uint8..uint64, bool, string)",
		typesFix, "profile.checkGraphTypes", "profile.setOutputs"),
	rule("", ruleVersion, "every operator SONNX specifies is used at the ONNX version its specification is based on: Unsqueeze 25, Concat 13, Reshape 25, Flatten 25, Slice 13, MaxPool 22, Shape 25",
		"import the default domain at an opset where the operator resolves to that version", "profile.checkVersion"),
	rule("", ruleONNX, "the model is valid ONNX: one graph, opsets imported, every input defined, no cycle, readable tensors and attributes, the operator's arity",
		"correct the model so that ONNX itself accepts it", "profile.sortNodes", "profile.readOpsets", "profile.runKernel"),

	rule("Unsqueeze", "C1", "every axis in [-rY, rY-1], rY = rank(X) + len(axes)",
		"give axes within [-rY, rY-1]", "ops.unsqueezeShape"),
	rule("Unsqueeze", "C2", "no axis designated twice after normalisation",
		"list every axis once", "ops.unsqueezeShape"),
	rule("Unsqueeze", "axes", "axes is a 1-D int64 tensor holding at least one axis (the formal specification needs one)",
		"give axes as a 1-D int64 tensor of at least one axis", "ops.unsqueezeNode", "ops.unsqueezeShape"),

	rule("Unsqueeze", ruleTypes, "X and Y are float16, float, double, int8..int64, uint8..uint64, bool or string (no bfloat16)",
		"give Unsqueeze a tensor of one of the listed types", "profile.checkSpecTypes"),

	rule("Concat", "R1", "the inputs have a type the Concat specification lists",
		"convert the inputs to one of the listed types", "ops.concatShape"),
	rule("Concat", "C1", "1 to 2^31-1 inputs of rank >= 1; axis in [0, r-1] (a negative axis is outside the profile, [R1] transient)",
		"give a non-negative axis below the rank (axis + r for a negative one)", "ops.concatShape"),
	rule("Concat", "C2", "the inputs have one rank and the same dimensions off the axis (no broadcasting, [R2])",
		"make the inputs' shapes agree off the axis", "ops.concatShape"),
	rule("Concat", "C3", "the inputs and the output have one type ([R3])",
		"convert the inputs explicitly (Cast) to one type", "ops.concatShape", "profile.checkNodeTypes"),

	rule("Reshape", "allowzero", "allowzero is 0 or 1",
		"write allowzero as 0 or 1", "ops.reshapeNode"),
	rule("Reshape", "dim", "no entry of the shape below -1",
		"write every dimension as >= 0, or one -1", "ops.reshapeShape"),
	rule("Reshape", "copy-zero", "with allowzero=0, a 0 at index i copies dimension i of X, so i < rank(X)",
		"write the dimension itself instead of 0", "ops.reshapeShape"),
	rule("Reshape", "minus-one", "at most one -1 in the shape",
		"write every dimension but one", "ops.reshapeShape"),
	rule("Reshape", "zero-and-minus-one", "with allowzero=1, the shape does not hold both 0 and -1",
		"write the dimension the -1 stands for", "ops.reshapeShape"),
	rule("Reshape", "infer", "a -1 is inferable: X has no zero dimension (profile) and the other dimensions do not multiply to 0",
		"write the dimension the -1 stands for", "ops.reshapeShape"),
	rule("Reshape", "count", "the output has as many elements as X",
		"give a shape with as many elements as the input", "ops.reshapeShape"),

	rule("Reshape", ruleTypes, "X and Y are float16, float, double, int2, int4, int8..int64, uint2, uint4, uint8..uint64, bool or string (no bfloat16)",
		"give Reshape a tensor of one of the listed types", "profile.checkSpecTypes"),

	rule("Flatten", ruleTypes, "X and Y are float16, float, double, int8..int64 or uint8..uint64",
		"give Flatten a tensor of one of the listed types", "profile.checkSpecTypes"),
	rule("Flatten", "C1", "axis in [-r, r], r = rank(X)",
		"give an axis within [-r, r]", "ops.flattenShape"),

	rule("Slice", ruleTypes, "X and Y are float16, float, double, bfloat16, int8..int64, uint8..uint64, bool or string",
		"give Slice a tensor of one of the listed types", "profile.checkSpecTypes"),
	rule("Slice", "R1", "axes is given",
		"give the axes input, listing every axis of X", "profile.checkDefaults", "ops.sliceNode"),
	rule("Slice", "R3", "steps is given",
		"give the steps input", "profile.checkDefaults", "ops.sliceNode"),
	rule("Slice", "R10", "starts, ends, axes and steps have one integer type, int32 or int64",
		"give starts, ends, axes and steps as one integer type", "ops.sliceNode", "profile.checkNodeTypes"),
	rule("Slice", "C1", "every axis of X is listed: len(starts) = len(ends) = len(axes) = len(steps) = rank(X) ([R2])",
		"list every axis of X in axes (start 0, end dim, step 1 keeps an axis whole)", "ops.sliceShape"),
	rule("Slice", "C2", "axes in range, steps non-zero, no clamping: start in [-d, d-1], end in [-d, d] (step > 0) or [-d-1, d-1] (step < 0), every output dimension > 0",
		"give starts and ends inside the axis, as the profile does not clamp them", "ops.sliceShape", "ops.sliceAxisStrict"),
	rule("Slice", "C3", "X has rank >= 1; axes unique after normalisation",
		"slice a tensor of rank 1 or more, listing each axis once", "ops.sliceShape"),
	rule("Slice", "R6", "(transient) a positive step needs start <= end after normalisation",
		"order start and end along the step", "ops.sliceAxisStrict"),
	rule("Slice", "R7", "(transient) a negative step needs start >= end after normalisation",
		"order start and end along the step", "ops.sliceAxisStrict"),

	rule("MaxPool", "R1", "(transient) exactly 2 spatial axes: X is 4-D",
		"pool 4-D tensors (N, C, H, W)", "ops.maxPoolSONNX"),
	rule("MaxPool", "R2", "every attribute is set explicitly (auto_pad, ceil_mode, dilations, pads, storage_order, strides)",
		"write out every attribute of MaxPool", "profile.checkDefaults"),
	rule("MaxPool", "R3", "auto_pad is NOTSET",
		"write auto_pad NOTSET and give explicit pads", "ops.maxPoolSONNX"),
	rule("MaxPool", "R4", "ceil_mode is 0",
		"write ceil_mode 0, padding explicitly at the end if needed", "ops.maxPoolSONNX"),
	rule("MaxPool", "R5", "storage_order is 0",
		"write storage_order 0", "ops.maxPoolSONNX"),
	rule("MaxPool", "C1", "X is float16, float, double, int8 or uint8",
		"pool a tensor of one of those types", "ops.maxPoolSONNX", "profile.checkSpecTypes"),
	rule("MaxPool", "C2", "every value of dilations, kernel_shape and strides is > 0",
		"give positive dilations, kernel_shape and strides", "ops.maxPoolSONNX"),
	rule("MaxPool", "C3", "pads has 4 entries, each >= 0",
		"give 4 non-negative pads", "ops.maxPoolSONNX"),
	rule("MaxPool", "C4", "every window holds a real element: the dilated kernel is larger than each pad",
		"make each pad smaller than the dilated kernel", "ops.maxPoolSONNX", "ops.maxPoolShape"),

	rule("Shape", ruleTypes, "X is float16, float, double, bfloat16, int2, int4, int8..int64, uint2, uint4, uint8..uint64, bool or string",
		"give Shape a tensor of one of the listed types", "profile.checkSpecTypes"),

	rule("Constant", "R1", "the value is given by attribute value (not value_float, value_ints, value_string, ...)",
		"give the value as a tensor in attribute value", "profile.checkConstant"),
	rule("Constant", "R2", "the value is not a sparse tensor (no sparse_value)",
		"give the value as a dense tensor in attribute value", "profile.checkConstant"),
	rule("Constant", ruleTypes, "the value is float16, float, double, int8..int64 or uint8..uint64",
		"give the value as a tensor of one of the listed types", "profile.checkSpecTypes"),
}

// fixFor returns the fix of rule id of operator op, from Rules.
func fixFor(op, id string) string {
	for _, r := range Rules {
		if r.ID == id && (r.Op == "" || r.Op == op) {
			return r.Fix
		}
	}
	return fmt.Sprintf("correct the node so that %s accepts it (rule %s)", op, id)
}

// Markdown renders Rules as the table of docs/sonnx.md.
func Markdown() string {
	var b strings.Builder
	b.WriteString("| id | operator | statement | checked by | violated by |\n")
	b.WriteString("|---|---|---|---|---|\n")
	for _, r := range Rules {
		op := r.Op
		if op == "" {
			op = "every"
		}
		checkers := make([]string, len(r.Checkers))
		for i, c := range r.Checkers {
			checkers[i] = "`" + c + "`"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | `%s` |\n", r.ID, op, escapePipes(r.Statement), strings.Join(checkers, ", "), r.Test)
	}
	return b.String()
}

// DefaultsMarkdown renders the GR4 table of defaults.go.
func DefaultsMarkdown() string {
	var b strings.Builder
	b.WriteString("| operator | since | must be written out (ONNX default) |\n")
	b.WriteString("|---|---|---|\n")
	for _, op := range sortedKeys(defaults) {
		for _, v := range defaults[op] {
			var cells []string
			for _, d := range v.Defaults {
				s := fmt.Sprintf("%s (%s)", d.Param, d.Default)
				for _, alt := range d.Or {
					s += " or " + alt.String()
				}
				if d.When != nil {
					s += " when it is read"
				}
				cells = append(cells, s)
			}
			list := strings.Join(cells, "; ")
			if list == "" {
				list = "nothing"
			}
			fmt.Fprintf(&b, "| %s | %d | %s |\n", op, v.Since, escapePipes(list))
		}
	}
	return b.String()
}

func escapePipes(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
