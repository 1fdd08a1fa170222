package profile

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/onnxshape/onnxshape/graph"
)

// What a report says of every rule, not only of those broken: the record
// an assessor keeps beside the verdict (check --json). A rule applies to a
// model when it is a profile-wide rule (every model) or a row of an
// operator the model uses.

// The statuses of a RuleResult.
const (
	// RulePassed: the rule was decided and holds everywhere it applies.
	RulePassed = "passed"
	// RuleBroken: a finding reports the rule.
	RuleBroken = "broken"
	// RuleUndecided: no finding, but some node leaves the rule to run
	// time (Report.Deferred).
	RuleUndecided = "undecided"
	// RuleNotChecked: no finding and nothing deferred, but a node of the
	// operator could not be checked against it, because of another finding
	// of that node (its kernel did not run); the model is outside anyway.
	RuleNotChecked = "not checked"
)

// RuleResult is what a check decided of one rule of Rules.
type RuleResult struct {
	// Rule is the row's key, as docs/sonnx.md and Finding.Rule with
	// Finding.Op name it: "GR1", "Concat axis [C1]".
	Rule   string `json:"rule"`
	Status string `json:"status"`
	// Nodes is how many nodes of the operator the model has (0 for a
	// profile-wide rule).
	Nodes int `json:"nodes,omitempty"`
}

// ToolVersion names the onnxshape build that checks: its version
// (graph.Version, or the module version a tagged dependency carries) and,
// when the build recorded them, its VCS revision and whether the tree was
// modified.
func ToolVersion() string {
	v := "onnxshape " + graph.Version
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return v
	}
	for _, m := range append([]*debug.Module{&info.Main}, info.Deps...) {
		if m.Path == "github.com/onnxshape/onnxshape" && m.Version != "" && m.Version != "(devel)" {
			v = "onnxshape " + m.Version
			break
		}
	}
	var rev, modified string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	if rev != "" {
		v += " " + rev
		if modified == "true" {
			v += " (modified)"
		}
	}
	return strings.TrimSpace(v)
}

// sha256Hex is the SHA-256 of b in hex.
func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// results fills rep.Rules from its findings and deferrals, for the model
// whose node i has operator ops[i] (default domain; "" otherwise) and ran
// its kernel when checked[i].
func (c *checker) results() {
	nodesOf := map[string][]int{}
	for i, np := range c.m.GetGraph().GetNode() {
		if d := np.GetDomain(); d == "" || d == "ai.onnx" {
			nodesOf[np.GetOpType()] = append(nodesOf[np.GetOpType()], i)
		}
	}
	broken, undecided, nodeFinding := map[string]bool{}, map[string]bool{}, map[int]bool{}
	for _, f := range c.rep.Findings {
		broken[f.Rule] = true
		if f.Op != "" {
			broken[f.Op+" "+f.Rule] = true
		}
		if f.Where.Kind == PlaceNode && f.Where.Within == nil {
			nodeFinding[f.Where.Index] = true
		}
	}
	for _, d := range c.rep.Deferred {
		for _, id := range d.Rules {
			undecided[id] = true
			undecided[d.Op+" "+id] = true
		}
	}
	c.rep.Rules = []RuleResult{}
	for _, r := range Rules {
		res := RuleResult{Rule: r.Key(), Status: RulePassed}
		if r.Op != "" {
			nodes := nodesOf[r.Op]
			if len(nodes) == 0 {
				continue // the model does not use the operator
			}
			res.Nodes = len(nodes)
			kernelOnly := !slices.ContainsFunc(r.Checkers, func(s string) bool { return strings.HasPrefix(s, "profile.") })
			if kernelOnly && slices.ContainsFunc(nodes, func(i int) bool { return !c.ran[i] && nodeFinding[i] }) {
				res.Status = RuleNotChecked
			}
		}
		switch {
		case broken[r.Key()] || (r.Op == "" && broken[r.ID]):
			res.Status = RuleBroken
		case undecided[r.Key()] || (r.Op == "" && undecided[r.ID]):
			res.Status = RuleUndecided
		}
		c.rep.Rules = append(c.rep.Rules, res)
	}
}

// RuleCounts counts the results by status: "12 passed, 1 broken".
func (r *Report) RuleCounts() string {
	n := map[string]int{}
	for _, res := range r.Rules {
		n[res.Status]++
	}
	var parts []string
	for _, s := range []string{RulePassed, RuleBroken, RuleUndecided, RuleNotChecked} {
		if n[s] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n[s], s))
		}
	}
	return strings.Join(parts, ", ")
}
