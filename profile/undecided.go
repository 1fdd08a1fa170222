package profile

import (
	"fmt"
	"strings"

	"github.com/onnxshape/onnxshape/internal/sonnxrule"
	"github.com/onnxshape/onnxshape/tensor"
)

// What the check cannot decide before the model runs. The verdict is
// "inside" only when every rule was decided: a rule that reads a value
// known only at run time, a declaration compared with a value whose type
// or shape is not known, and an operator onnxshape has no specification of
// each leave the model "undecided", listed with the node and the rule.

// foldBudget caps the bytes of the constants the check computes and keeps
// (values of nodes whose inputs are all known): a constant past it keeps
// its type and shape but its value becomes unknown, and a node that needs
// that value is left to run time. Without it, a model of many large
// constant-producing nodes would make the check hold all of them at once.
var foldBudget int64 = 256 << 20

// valueRules returns the ids of the rules of op that read the values of
// its inputs (those its kernel checks and the check does not decide itself
// from types and attributes): the ones a node leaves undecided when those
// values are known only at run time. An operator without a
// SONNX specification of its own has its ONNX constraints (ONNX).
func valueRules(op string) []string {
	var ids []string
	for _, r := range Rules {
		if r.Op != op {
			continue
		}
		kernel, static := false, false
		for _, c := range r.Checkers {
			kernel = kernel || strings.HasPrefix(c, "ops.")
			static = static || strings.HasPrefix(c, "profile.")
		}
		if kernel && !static { // a rule the check decides itself is not deferred
			ids = append(ids, r.ID)
		}
	}
	if len(ids) == 0 {
		ids = []string{ruleONNX}
	}
	return ids
}

// deferToRunTime records that the node's value rules are left to run time.
func (nc *nodeCheck) deferToRunTime(format string, args ...any) {
	nc.deferRules(valueRules(nc.op()), format, args...)
}

// deferRules records that rules of the node are left undecided.
func (nc *nodeCheck) deferRules(rules []string, format string, args ...any) {
	nc.c.rep.Deferred = append(nc.c.rep.Deferred, Deferred{
		Where: nc.where(), Op: nc.op(), Version: nc.version,
		Rules: rules, Reason: fmt.Sprintf(format, args...)})
}

// deferDeclared records that the declaration of value name cannot be
// compared with the value before the model runs, as what is known of the
// value (k) is less than the declaration states: the runner compares them
// when the model runs under the profile (graph.Model.Run).
func (c *checker) deferDeclared(nc *nodeCheck, name string, k, d *known) {
	if nc == nil || nc.schema == nil || c.hasFinding(nc.index) {
		// A graph input or initializer has its declared type; a node
		// already outside the profile needs no run-time comparison, nor
		// one onnxshape cannot run (undecided already).
		return
	}
	shape := k.dtype != tensor.Undefined
	if shape && k.dtype != d.dtype && d.dtype != tensor.Undefined {
		return // a type mismatch is reported already
	}
	nc.deferRules([]string{sonnxrule.Declared(nc.op(), shape)},
		"value %q is declared %s but is known only as %s before the model runs", name, describeDeclared(d, c.declared[name]), c.inferred.describe(name, k))
}

// knowsAll reports whether k states at least what declaration d does: the
// element type, and every dimension d gives.
func knowsAll(k, d *known) bool {
	if d.kind != tensorKind {
		return true
	}
	if k.kind != tensorKind || (d.dtype != tensor.Undefined && k.dtype == tensor.Undefined) {
		return false
	}
	if !d.hasRank {
		return true
	}
	if !k.hasRank {
		return false
	}
	if len(k.dims) != len(d.dims) {
		return true // a mismatch, reported as such
	}
	for i, dd := range d.dims {
		if dd >= 0 && k.dims[i] < 0 {
			return false
		}
	}
	return true
}

// hasFinding reports whether node i has a finding.
func (c *checker) hasFinding(i int) bool { return c.withFinding[i] }
