// Package profile checks a whole ONNX model against the SONNX profile: the
// safety-related profile of ONNX that narrows what a model may rely on (no
// sparse tensors, explicit types, no implicit conversion, no default values,
// a closed operator set) and what each operator accepts.
//
// CheckFile, CheckBytes and Check (for a loaded *graph.Model) report every
// place a model leaves the profile, one Finding each, with the place as
// data (a Place), the rule's id and what would fix it. The operators' own
// constraints are not restated here: the check runs each node's real kernel
// (package ops) under ops.ProfileSONNX wherever the values it needs are known
// before the model runs (attributes, initializers, Constant nodes and what
// they compute), and reads the rule id from the *ops.Error it returns. What
// needs values only known at run time is listed in Report.Deferred: those
// constraints are checked by the operators when the model runs with
// graph.RunOptions{Profile: ops.ProfileSONNX}.
//
// docs/sonnx.md lists every rule with the function that checks it and the
// test that violates it; Rules is the same table in Go.
package profile

import (
	"fmt"
	"slices"
	"strings"

	"github.com/onnxshape/onnxshape/graph"
)

// Report is the result of Check.
type Report struct {
	// Profile is the profile checked, "sonnx".
	Profile string `json:"profile"`
	// Findings are the places where the model leaves the profile, in the
	// order of the model: graph-level findings first, then node by node.
	Findings []Finding `json:"findings"`
	// Deferred are the nodes whose constraints could not all be checked
	// before the model runs.
	Deferred []Deferred `json:"deferred"`
	// Nodes is the number of nodes in the main graph; Checked the number
	// whose kernel ran statically on known values and shapes.
	Nodes   int `json:"nodes"`
	Checked int `json:"checked_statically"`
	// Tool names the onnxshape build that checked (ToolVersion).
	Tool string `json:"tool"`
	// ModelSHA256 is the SHA-256 of the model's bytes, in hex, when they
	// were read (CheckFile, CheckBytes); "" for a model checked as a
	// message (Check, CheckProto).
	ModelSHA256 string `json:"model_sha256,omitempty"`
	// Rules is what the check decided of every rule that applies to the
	// model (the profile-wide rules and the rows of the operators it
	// uses), passed ones included, in the order of Rules.
	Rules []RuleResult `json:"rules"`
	// Admitted lists, once, the operators of the profile's set that the
	// check admits (through a transcribed specification), when a finding
	// or a deferral refers to them ("see the admitted operators"); nil
	// otherwise.
	Admitted []string `json:"admitted,omitempty"`
	// InputShapes are the input shapes the check assumed in place of the
	// declared ones (Options.InputShapes), nil when none.
	InputShapes map[string][]graph.Dim `json:"input_shapes,omitempty"`
}

// Finding is one place where a model leaves the profile.
type Finding struct {
	// Where is the place: a node (by name, or by index when unnamed), an
	// input, output, initializer or value of the graph, or the model. Its
	// String is the text of the one-line form: `node "concat0"`,
	// `node #3`, `input "x"`, `model`.
	Where Place `json:"where"`
	// Op and Version are the node's operator and since-version (Version 0
	// when the operator is unknown); empty for graph-level findings.
	Op      string `json:"op,omitempty"`
	Version int    `json:"version,omitempty"`
	// Rule is the rule's id: GR1..GR4 and the other profile-wide rules of
	// Rules, or the operator's own constraint id ("C1", "R1") as its kernel
	// reports it.
	Rule    string `json:"rule"`
	Message string `json:"message"`
	Fix     string `json:"fix"`
}

// String renders the finding as one line:
//
//	node "c0" (Concat-13) [C1]: axis -1 is negative ... Fix: write the axis as axis+rank.
func (f Finding) String() string {
	var b strings.Builder
	b.WriteString(f.Where.String())
	switch {
	case f.Op != "" && f.Version > 0:
		fmt.Fprintf(&b, " (%s-%d)", f.Op, f.Version)
	case f.Op != "":
		fmt.Fprintf(&b, " (%s)", f.Op)
	}
	if strings.HasSuffix(f.Rule, "]") { // qualified by its section: "inputs [C1]"
		fmt.Fprintf(&b, " %s: %s", f.Rule, f.Message)
	} else {
		fmt.Fprintf(&b, " [%s]: %s", f.Rule, f.Message)
	}
	if f.Fix != "" {
		b.WriteString(". Fix: ")
		b.WriteString(f.Fix)
	}
	return b.String()
}

// The kinds of Place.
const (
	PlaceNode              = "node"
	PlaceInput             = "input"
	PlaceOutput            = "output"
	PlaceInitializer       = "initializer"
	PlaceSparseInitializer = "sparse_initializer"
	PlaceValue             = "value" // a value_info declaration
	PlaceModel             = "model"
)

// Place is where in a model a finding or a deferral is, as data.
type Place struct {
	// Kind is one of PlaceNode, PlaceInput, PlaceOutput, PlaceInitializer,
	// PlaceSparseInitializer, PlaceValue and PlaceModel.
	Kind string `json:"kind"`
	// Name is the node's or the value's name; "" for an unnamed node and
	// for the model.
	Name string `json:"name,omitempty"`
	// Index is a node's index in its graph; -1 for every other kind.
	Index int `json:"index"`
	// Within is, for a place inside a subgraph, the node holding it, in its
	// attribute Attribute; nil in the main graph.
	Within    *Place `json:"within,omitempty"`
	Attribute string `json:"attribute,omitempty"`
}

// nodePlace is the place of node i of its graph.
func nodePlace(name string, i int) Place { return Place{Kind: PlaceNode, Name: name, Index: i} }

// valuePlace is the place of a value of the graph, of kind kind.
func valuePlace(kind, name string) Place { return Place{Kind: kind, Name: name, Index: -1} }

// modelPlace is the place of a finding about the whole model.
var modelPlace = Place{Kind: PlaceModel, Index: -1}

// String renders the place as the one-line forms of Finding and Deferred
// do: `node "c0"`, `node #3` (unnamed), `input "x"`, `model`; a place in a
// subgraph is prefixed with its node and attribute,
// `node "loop" attribute body: node #0`.
func (p Place) String() string {
	var s string
	switch {
	case p.Kind == PlaceModel:
		s = "model"
	case p.Kind == PlaceNode && p.Name == "":
		s = fmt.Sprintf("node #%d", p.Index)
	default:
		s = fmt.Sprintf("%s %q", p.Kind, p.Name)
	}
	if p.Within != nil {
		s = fmt.Sprintf("%s attribute %s: %s", p.Within.String(), p.Attribute, s)
	}
	return s
}

// Deferred is a node some of whose rules could not be decided before the
// model runs: the values they read are known only at run time, or
// onnxshape has no specification of the operator.
type Deferred struct {
	Where   Place  `json:"where"`
	Op      string `json:"op"`
	Version int    `json:"version,omitempty"`
	// Rules are the ids of the rules left undecided, as a Finding would
	// report them.
	Rules  []string `json:"rules"`
	Reason string   `json:"reason"`
}

// String returns the deferred check as the report prints it.
func (d Deferred) String() string {
	ids := make([]string, len(d.Rules))
	for i, r := range d.Rules {
		ids[i] = r
		if !strings.HasSuffix(r, "]") {
			ids[i] = "[" + r + "]"
		}
	}
	rules := strings.Join(ids, ", ")
	if d.Version > 0 {
		return fmt.Sprintf("%s (%s-%d) %s: %s", d.Where.String(), d.Op, d.Version, rules, d.Reason)
	}
	return fmt.Sprintf("%s (%s) %s: %s", d.Where.String(), d.Op, rules, d.Reason)
}

// The verdicts of a check.
const (
	// VerdictInside: every rule was decided and none is broken.
	VerdictInside = "inside"
	// VerdictOutside: some rule is broken (Findings).
	VerdictOutside = "outside"
	// VerdictUndecided: no rule is broken, but some could not be decided
	// before the model runs (Deferred); the operators and the runner check
	// them when the model runs under the profile.
	VerdictUndecided = "undecided"
)

// Verdict is VerdictOutside when there is a finding, else
// VerdictUndecided when some rule was left to run time, else
// VerdictInside.
func (r *Report) Verdict() string {
	switch {
	case r == nil: // nothing was checked
		return VerdictUndecided
	case len(r.Findings) > 0:
		return VerdictOutside
	case len(r.Deferred) > 0:
		return VerdictUndecided
	}
	return VerdictInside
}

// Inside reports whether the model is inside the profile: every rule
// decided, none broken.
func (r *Report) Inside() bool { return r.Verdict() == VerdictInside }

// Outside reports whether the model breaks some rule of the profile.
func (r *Report) Outside() bool { return r != nil && len(r.Findings) > 0 }

// Summary is one sentence on the result, saying what was left to run time.
func (r *Report) Summary() string {
	if r == nil {
		return "no report: the model was not checked"
	}
	var verdict string
	switch r.Verdict() {
	case VerdictInside:
		verdict = "inside the SONNX profile"
	case VerdictOutside:
		verdict = fmt.Sprintf("outside the SONNX profile: %d finding(s)", len(r.Findings))
	default:
		verdict = "undecided: no rule is broken, but some could not be decided before the model runs"
	}
	s := fmt.Sprintf("%s; %d of %d node(s) checked statically", verdict, r.Checked, r.Nodes)
	nodes, unadmitted := map[int]bool{}, map[int]bool{}
	for _, d := range r.Deferred {
		if slices.Contains(d.Rules, ruleSpec) || slices.Contains(d.Rules, ruleNoSpec) {
			unadmitted[d.Where.Index] = true
		} else {
			nodes[d.Where.Index] = true
		}
	}
	if n := len(unadmitted); n > 0 {
		s += fmt.Sprintf("; %d node(s) use operators whose SONNX specification onnxshape has not transcribed (SPEC) or the working group has not written (NOSPEC), which a run under the profile refuses", n)
	}
	if n := len(nodes); n > 0 {
		s += fmt.Sprintf("; %d node(s) have rules left to run time, checked when the model runs under the profile (onnxshape run --profile sonnx)", n)
	}
	return s
}

// String renders the report as text: one line per finding, then the
// deferred nodes, then the admitted operators and the assumed input
// shapes when there are, then the summary.
func (r *Report) String() string {
	if r == nil {
		return "no report: the model was not checked\n"
	}
	var b strings.Builder
	for _, f := range r.Findings {
		b.WriteString(f.String())
		b.WriteByte('\n')
	}
	for _, d := range r.Deferred {
		b.WriteString("undecided: ")
		b.WriteString(d.String())
		b.WriteByte('\n')
	}
	b.WriteString(r.trailer())
	b.WriteString(r.Summary())
	b.WriteByte('\n')
	return b.String()
}

// UnadmittedError is the error of Enforce for a model that breaks no rule
// but uses operators of the profile's set whose SONNX specification
// onnxshape has not transcribed (rule SPEC): the check leaves them
// undecided, and a run under the profile refuses them.
type UnadmittedError struct {
	Nodes []Deferred
}

// Error returns the message, on one line.
func (e *UnadmittedError) Error() string {
	var ops []string
	for _, d := range e.Nodes {
		if !slices.Contains(ops, d.Op) {
			ops = append(ops, d.Op)
		}
	}
	first := e.Nodes[0]
	return fmt.Sprintf("the SONNX profile cannot run the model: %d node(s) use operators whose SONNX specification onnxshape has not transcribed or the working group has not written (%s), the first %s [%s]; run it under the ONNX profile, or keep these operators out of the part that must meet SONNX",
		len(e.Nodes), strings.Join(ops, ", "), first.Where.String(), strings.Join(first.Rules, ", "))
}

// ViolationError is the error of Enforce for a model outside the profile.
type ViolationError struct {
	Report *Report
}

// Error returns the message, on one line.
func (e *ViolationError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "the model is outside the SONNX profile (%d finding(s)):", len(e.Report.Findings))
	for _, f := range e.Report.Findings {
		b.WriteString("\n  ")
		b.WriteString(f.String())
	}
	return b.String()
}

// trailer is what the text form says once before its summary: the
// admitted operators the lines refer to, and the input shapes assumed.
func (r *Report) trailer() string {
	var b strings.Builder
	if len(r.Admitted) > 0 {
		fmt.Fprintf(&b, "admitted operators (the profile's set with a transcribed specification): %s\n", strings.Join(r.Admitted, ", "))
	}
	if len(r.InputShapes) > 0 {
		names := make([]string, 0, len(r.InputShapes))
		for name := range r.InputShapes {
			names = append(names, name)
		}
		slices.Sort(names)
		for i, name := range names {
			names[i] = fmt.Sprintf("%q %v", name, r.InputShapes[name])
		}
		fmt.Fprintf(&b, "checked with the input shapes %s in place of the declared ones\n", strings.Join(names, ", "))
	}
	return b.String()
}
