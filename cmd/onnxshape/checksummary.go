package main

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/onnxshape/onnxshape/profile"
)

// checkSummary is check --summary: two tables, rule by rule and operator
// by operator, of how many findings and undecided nodes each has (most
// first), then the report's summary. An operator counts its findings and
// its nodes left (wholly or in part) to run time.
func checkSummary(rep *profile.Report) string {
	type counts struct{ findings, undecided int }
	rules, ops := map[string]*counts{}, map[string]*counts{}
	at := func(m map[string]*counts, key string) *counts {
		if m[key] == nil {
			m[key] = &counts{}
		}
		return m[key]
	}
	opName := func(op string) string {
		if op == "" {
			return "(graph)" // a finding on an input, an output, the model
		}
		return op
	}
	for _, f := range rep.Findings {
		at(rules, f.Rule).findings++
		at(ops, opName(f.Op)).findings++
	}
	// A node may be deferred more than once (one rule needs a shape,
	// another a value): it counts once per rule and once for its operator.
	seen := map[string]bool{}
	for _, d := range rep.Deferred {
		where := d.Where.String()
		for _, r := range d.Rules {
			if !seen[where+"\x00"+r] {
				seen[where+"\x00"+r] = true
				at(rules, r).undecided++
			}
		}
		if !seen[where] {
			seen[where] = true
			at(ops, opName(d.Op)).undecided++
		}
	}
	var b strings.Builder
	table := func(title string, m map[string]*counts) {
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		slices.SortFunc(keys, func(x, y string) int {
			cx, cy := m[x], m[y]
			return cmp.Or(cmp.Compare(cy.findings+cy.undecided, cx.findings+cx.undecided), strings.Compare(x, y))
		})
		width := len(title)
		for _, k := range keys {
			width = max(width, len(printable(k)))
		}
		fmt.Fprintf(&b, "%-*s  %8s  %9s\n", width, title, "findings", "undecided")
		for _, k := range keys {
			fmt.Fprintf(&b, "%-*s  %8d  %9d\n", width, printable(k), m[k].findings, m[k].undecided)
		}
	}
	if len(rules) > 0 {
		table("rule", rules)
		b.WriteByte('\n')
		table("operator", ops)
		b.WriteByte('\n')
	}
	b.WriteString(rep.Summary())
	b.WriteByte('\n')
	return b.String()
}
