package profile

import (
	"fmt"
	"sort"
	"strings"
)

// The ids of the profile-wide rules, as Finding.Rule reports them.
const (
	ruleGR1 = "GR1" // no sparse tensors
	ruleGR2 = "GR2" // every type explicit
	ruleGR3 = "GR3" // no implicit conversion
	ruleGR4 = "GR4" // no default values
	ruleOPS = "OPS" // the operator is in the profile's operator set
	// ruleSpec: the operator's SONNX specification is transcribed in
	// onnxshape (undecided when it is not).
	ruleSpec = "SPEC"
	// ruleNoSpec: the operator is in the working group's list, which has
	// written no specification of it (undecided).
	ruleNoSpec = "NOSPEC"
	ruleTypes  = "TYPES" // the element types are the profile's
	ruleONNX   = "ONNX"  // the model is valid ONNX in the first place
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
	// Refusers are the functions that refuse a violation while the model
	// runs under the profile in the reference engine, the default there
	// (reference.function), or in the runner (graph.function); nil for a
	// rule decided by the check alone (refusers.go).
	Refusers []string
	// Test is the test whose case violates it, as go test -run names it:
	// check reports exactly this id and exits 1.
	Test string
	// Satisfied is the test whose model meets it: check exits 0.
	Satisfied string
	// RunTime is the test that runs the violating model under the profile
	// with its parameters given only at run time (check leaves the rule
	// undecided, the run is refused with the same id); "" for a rule
	// decided on the model alone.
	RunTime string
}

// checkedAtRunTime reports whether the rule is checked while the model
// runs under the profile: by an operator's kernel (package ops) or by the
// runner (package graph).
func (r Rule) checkedAtRunTime() bool {
	for _, c := range r.Checkers {
		if strings.HasPrefix(c, "ops.") || strings.HasPrefix(c, "graph.") {
			return true
		}
	}
	return false
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
		key = strings.ReplaceAll(op+" "+id, " ", "_")
	}
	r := Rule{Op: op, ID: id, Statement: statement, Fix: fix, Checkers: checkers,
		Test: "TestViolations/" + key, Satisfied: "TestSatisfied/" + key}
	if r.checkedAtRunTime() {
		r.RunTime = "TestRunTime/" + key
	}
	return r
}

// Rules is the traceability table, in the order of docs/sonnx.md: the
// profile-wide rules, then each operator's, in the order of its
// specification. The operator rows carry the ids their kernels report
// (ops/<operator>.go states them in its header comment).
var Rules = append([]Rule{
	rule("", ruleGR1, "no sparse tensors: no sparse_initializer, no sparse attribute, no sparse type",
		"store the tensor dense (a TensorProto)", "profile.checkSparse"),
	rule("", ruleGR2, "every type explicit: graph inputs and outputs declare an element type and every dimension; initializers have an element type",
		"declare the element type and a fixed size for every dimension", "profile.checkGraphTypes"),
	rule("", ruleGR3, "no implicit conversion: inputs that share a type variable have one type, fixed-type inputs have that type, declared value types and shapes agree with what produces them",
		"convert explicitly (Cast, Reshape) or correct the declaration", "profile.checkNodeTypes", "profile.checkDeclared"),
	rule("", ruleGR4, "no default values: every attribute and optional input with a default in the operator's version is written out; no initializer is also a graph input (a default the caller may replace, OP 016)",
		"write out the attribute or input with the value the model relies on", "profile.checkDefaults", "profile.checkDefaultInputs"),
	rule("", ruleOPS, "every operator is in the profile's operator set (default domain; the set admits "+strings.Join(admittedList(), ", ")+", see SPEC); an operator onnxshape does not implement is undecided",
		"replace the operator with operators of the profile's set", "profile.checkOperatorSet"),
	rule("", ruleSpec, "every operator of the set is admitted through its transcribed SONNX specification (pinned version, type list, constraints with their ids: "+strings.Join(sortedKeys(specs), ", ")+") or through sonnx-notes.md (Pad, Squeeze, Transpose, Split, Resize, Expand); an operator of the set whose specification is not transcribed is undecided ("+strings.Join(undecidedList(), ", ")+"), and a run under the profile refuses it",
		"keep the operator out of the part of the model that must meet the profile until its specification is transcribed", "profile.checkOperatorSet", "profile.Enforce"),
	rule("", ruleNoSpec, "an operator of the working group's list that it has written no specification of ("+strings.Join(unspecifiedList(), ", ")+") is undecided, and a run under the profile refuses it",
		"keep the operator out of the part of the model that must meet the profile until the working group specifies it", "profile.checkOperatorSet", "profile.Enforce"),
	rule("", ruleTypes, "every value is a tensor of a type the profile names (float16, float, double, bfloat16, int8..int64, uint8..uint64, bool, string; on the graph's interface also the types an operator's specification lists: complex64/128, int2/int4/uint2/uint4)",
		typesFix, "profile.checkGraphTypes", "profile.setOutputs"),
	rule("", ruleVersion, "every operator SONNX specifies is used at the ONNX version its specification is based on: "+specVersions(),
		"import the default domain at an opset where the operator resolves to that version", "profile.checkVersion"),
	rule("", ruleDims, "every dimension of a data tensor is > 0 (graph inputs, outputs, value_info, node outputs but Shape's): the WG's formal specifications require positive dimensions, its informal texts and ONNX allow 0, so the profile refuses 0",
		dimsFix, "profile.checkPositiveDims", "profile.checkOutputDims", "graph.positiveDims"),
	rule("", ruleONNX, "the model is valid ONNX, as the loader's validity pass (internal/modelcheck) and the loader decide: one graph, an ir_version set and known, opsets imported, every input defined, no cycle, readable tensors, attributes with their values, no negative dimension, one declaration of each value that agrees with the others (value_info, graph inputs, initializers, graph outputs, whatever their order), no model-local function named like an operator, the operator's arity",
		"correct the model so that ONNX itself accepts it", "profile.sortNodes", "profile.readOpsets", "profile.runKernel", "profile.checkValidity"),
	rule("", ruleModel, "the model runs as written: no training_info (its algorithms rebind initializers), no IR-3 initializer listed as a graph input (a default the caller may replace, which IR 3 cannot leave out), an IR version that carries the default-domain opset the model imports",
		"write the model as an inference model in an IR version that carries its opset (4 or later)", "profile.checkModelRules"),

	rule("Unsqueeze", "A [C1]", "every axis in [-rY, rY-1], rY = rank(X) + len(axes)",
		"give axes within [-rY, rY-1], rY the output's rank", "ops.unsqueezeShape"),
	rule("Unsqueeze", "A [C2]", "no axis designated twice after normalisation (a < 0 counts as a + rY)",
		"list every axis once, negative ones included", "ops.unsqueezeShape"),
	rule("Unsqueeze", "axes", "axes is a 1-D int64 tensor holding at least one axis (the formal specification needs one)",
		"give axes as a 1-D int64 tensor of at least one axis", "ops.unsqueezeNode", "ops.unsqueezeShape"),
	rule("Unsqueeze", "Y [C1]", "Y's shape is X's with a 1 inserted at each axis: a declared shape of Y agrees with it",
		"declare Y with the shape Unsqueeze gives (X's with a 1 at each axis)", "sonnxrule.Declared"),

	rule("Unsqueeze", ruleTypes, "X and Y are float16, float, double, int8..int64, uint8..uint64, bool or string (no bfloat16)",
		"give Unsqueeze a tensor of one of the listed types", "profile.checkSpecTypes"),

	rule("Concat", "R1", "the inputs have a type the Concat specification lists",
		"convert the inputs to one of the listed types", "ops.concatShape"),
	rule("Concat", "inputs [C1]", "1 to 2^31-1 inputs",
		"give Concat at least one input", "ops.concatShape", "profile.runKernel"),
	rule("Concat", "inputs [C2]", "the inputs have one rank and the same dimensions off the axis (no broadcasting, [R2])",
		"make the inputs' shapes agree off the axis (reshape or slice them explicitly)", "ops.concatShape"),
	rule("Concat", "inputs [C3]", "the inputs have one element type ([R3])",
		"convert the inputs explicitly (Cast) to one type", "ops.concatShape", "profile.checkNodeTypes"),
	rule("Concat", "concat_output [C1]", "the output has the inputs' element type ([R3]): a declared type of the output agrees with it",
		"declare the output with the inputs' element type", "sonnxrule.Declared"),
	rule("Concat", "axis [C1]", "axis in [0, r-1], r the inputs' rank (>= 1): a negative axis is outside the profile",
		"give a non-negative axis below the rank (axis + r for a negative one); rank-0 inputs have no axis to join along: reshape them to [1] first", "ops.concatShape"),

	rule("Reshape", ruleTypes, "X and Y are float16, float, double, int2, int4, int8..int64, uint2, uint4, uint8..uint64, bool or string (no bfloat16)",
		"give Reshape a tensor of one of the listed types", "profile.checkSpecTypes"),
	rule("Reshape", "allowzero [C1]", "allowzero is 0 or 1",
		"write allowzero as 0 or 1", "ops.reshapeNode"),
	rule("Reshape", "allowzero [C2]", "with allowzero=0, a 0 at index i of S copies dimension i of X, so i < rank(X)",
		"write the dimension itself instead of 0", "ops.reshapeShape"),
	rule("Reshape", "allowzero [C3]", "S's domain: every entry >= -1; with allowzero=1 no 0 beside a -1; a -1 only when X has no zero dimension and the other entries do not multiply to 0",
		"write every dimension as >= 0, and the one a -1 stands for where it cannot be inferred", "ops.reshapeShape"),
	rule("Reshape", "S [C1]", "at most one -1 in S",
		"write every dimension but one", "ops.reshapeShape"),
	rule("Reshape", "X [C1]", "the output has as many elements as X",
		"give a shape with as many elements as the input", "ops.reshapeShape"),

	rule("Flatten", ruleTypes, "X and Y are float16, float, double, int8..int64 or uint8..uint64",
		"give Flatten a tensor of one of the listed types", "profile.checkSpecTypes"),
	rule("Flatten", "axis [C1]", "axis in [-r, r], r = rank(X)",
		"give an axis within [-r, r]", "ops.flattenShape"),

	rule("Slice", ruleTypes, "X and Y are float16, float, double, bfloat16, int8..int64, uint8..uint64, bool or string",
		"give Slice a tensor of one of the listed types", "profile.checkSpecTypes"),
	rule("Slice", "R1", "axes is given",
		"give the axes input, listing every axis of X", "profile.checkDefaults", "ops.sliceNode"),
	rule("Slice", "R3", "steps is given",
		"give the steps input", "profile.checkDefaults", "ops.sliceNode"),
	rule("Slice", "R10", "starts, ends, axes and steps have one integer type, int32 or int64",
		"give starts, ends, axes and steps as one integer type", "ops.sliceNode", "profile.checkNodeTypes"),
	rule("Slice", "X [C1]", "every axis of X is listed: len(starts) = len(ends) = len(axes) = len(steps) = rank(X) ([R2])",
		"list every axis of X in axes (start 0, end dim, step 1 keeps an axis whole)", "ops.sliceShape"),
	rule("Slice", "starts [C2]", "every start in [-d, d-1], d the dimension of its axis: the profile does not clamp ([R8])",
		"give every start inside its axis, in [-d, d-1]", "ops.sliceAxisStrict"),
	rule("Slice", "ends [C2]", "every end in [-d, d] for a positive step, [-d-1, d-1] for a negative one: the profile does not clamp",
		"give every end inside [-d, d] (step > 0) or [-d-1, d-1] (step < 0)", "ops.sliceAxisStrict"),
	rule("Slice", "axes [C2]", "every axis in [-r, r-1], r = rank(X)",
		"give axes within [-r, r-1]", "ops.sliceShape"),
	rule("Slice", "steps [C2]", "no step is 0",
		"give every step a non-zero value (1 keeps every element)", "ops.sliceShape"),
	rule("Slice", "Y [C2]", "every output dimension is > 0",
		"give start and end at least one step apart on every axis", "ops.sliceAxisStrict"),
	rule("Slice", "X [C3]", "X has rank >= 1",
		"slice a tensor of rank 1 or more", "ops.sliceShape"),
	rule("Slice", "axes [C3]", "axes unique after normalisation (a < 0 counts as a + r)",
		"list each axis once, negative ones included", "ops.sliceShape"),
	rule("Slice", "R6", "(transient) a positive step needs start <= end after normalisation",
		"order start and end along the step", "ops.sliceAxisStrict"),
	rule("Slice", "R7", "(transient) a negative step needs start >= end after normalisation",
		"order start and end along the step", "ops.sliceAxisStrict"),

	rule("MaxPool", ruleNaN, "X holds no NaN: the WG's texts disagree on the maximum of a NaN, so the profile refuses it (a constant X is searched; one known at run time is undecided)",
		"remove the NaN from the input (the maximum of a NaN is undefined)", "profile.checkNaN"),
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
	rule("MaxPool", ruleTypes, "X is float16, float, double, int8 or uint8 (its type list)",
		"pool a tensor of one of those types", "ops.maxPoolSONNX", "profile.checkSpecTypes"),
	rule("MaxPool", "dilations [C1]", "every value of dilations is > 0",
		"give every dilation as 1 or more (1: no dilation)", "ops.maxPoolSONNX"),
	rule("MaxPool", "kernel_shape [C1]", "every value of kernel_shape is > 0",
		"give every kernel dimension as 1 or more", "ops.maxPoolSONNX"),
	rule("MaxPool", "strides [C1]", "every value of strides is > 0",
		"give every stride as 1 or more", "ops.maxPoolSONNX"),
	rule("MaxPool", "pads [C1]", "pads has twice as many entries as X has spatial axes: 4",
		"give 4 pads: the begin and end of each spatial axis", "ops.maxPoolSONNX"),
	rule("MaxPool", "pads", "every pad is >= 0 (ONNX; the specification's pads add elements)",
		"give every pad as 0 or more", "ops.maxPoolSONNX"),
	rule("MaxPool", "pads [C2]", "every window holds a real element: the dilated kernel d*(k-1)+1 is larger than each pad",
		"make every window reach a real element: each pad smaller than the dilated kernel and, with a dilation above 1, pads that no window's taps all fall into (its taps step over the input by the dilation: lower the pad or the dilation)", "ops.maxPoolSONNX", "ops.maxPoolShape"),

	rule("Shape", ruleTypes, "X is float16, float, double, bfloat16, int2, int4, int8..int64, uint2, uint4, uint8..uint64, bool or string",
		"give Shape a tensor of one of the listed types", "profile.checkSpecTypes"),

	rule("Constant", "R1", "the value is given by attribute value (not value_float, value_ints, value_string, ...)",
		"give the value as a tensor in attribute value", "profile.checkConstant"),
	rule("Constant", "R2", "the value is not a sparse tensor (no sparse_value)",
		"give the value as a dense tensor in attribute value", "profile.checkConstant"),
	rule("Constant", ruleTypes, "the value is float16, float, double, int8..int64 or uint8..uint64",
		"give the value as a tensor of one of the listed types", "profile.checkSpecTypes"),

	rule("Softmax", ruleTypes, "X and Y are float16, float or double (Softmax-13's type list; no bfloat16)",
		"give Softmax a tensor of one of the listed types", "profile.checkSpecTypes", "ops.softmaxLayout"),
	rule("Softmax", "axis [C1]", "axis >= 0 ([R1], transient)",
		"give the axis as a non-negative number (axis + r for a negative one)", "ops.softmaxLayout"),
	rule("Softmax", "axis [C2]", "axis < r, r the rank of X",
		"give an axis below the rank of X", "ops.softmaxLayout"),

	rule("ArgMax", ruleTypes, "X is float16, float, double, int8..int64 or uint8..uint64 (ArgMax-13's type list; no bfloat16); Y is int64",
		"give ArgMax a tensor of one of the listed types", "profile.checkSpecTypes"),
	rule("ArgMax", "R1", "attribute axis is set", "write out axis", "profile.checkDefaults"),
	rule("ArgMax", "R2", "attribute keepdims is set", "write out keepdims", "profile.checkDefaults"),
	rule("ArgMax", "R3", "attribute select_last_index is set", "write out select_last_index", "profile.checkDefaults"),
	rule("ArgMax", "axis [C1]", "axis >= 0 ([R4], transient)",
		"give the axis as a non-negative number (axis + r for a negative one)", "ops.argOutputShape"),
	rule("ArgMax", "axis [C2]", "axis < r, r the rank of X",
		"give an axis below the rank of X", "ops.argOutputShape"),
	rule("ArgMax", "keepdims [C1]", "keepdims is 0 or 1", "write keepdims as 0 or 1", "ops.argFlags"),
	rule("ArgMax", "select_last_index [C1]", "select_last_index is 0 or 1", "write select_last_index as 0 or 1", "ops.argFlags"),
}, append(elementwiseRules(), computeRules()...)...)

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
	b.WriteString("| id | operator | statement | checked by | refused at run time by | violated by (check: exit 1) | satisfied by (check: exit 0) | at run time (run --profile sonnx) |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|\n")
	for _, r := range Rules {
		op := r.Op
		if op == "" {
			op = "every"
		}
		checkers := make([]string, len(r.Checkers))
		for i, c := range r.Checkers {
			checkers[i] = "`" + c + "`"
		}
		runTime := "decided by check"
		if r.RunTime != "" {
			runTime = "`" + r.RunTime + "`"
		}
		refusedBy := make([]string, len(r.Refusers))
		for i, c := range r.Refusers {
			refusedBy[i] = "`" + c + "`"
		}
		refused := strings.Join(refusedBy, ", ")
		if refused == "" {
			refused = "decided by check"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | `%s` | `%s` | %s |\n", r.ID, op, escapePipes(r.Statement), strings.Join(checkers, ", "), refused, r.Test, r.Satisfied, runTime)
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
