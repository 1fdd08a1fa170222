package profile

import (
	"go/ast"
	"go/parser"
	"go/token"
	"math"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// TestRefusersTraceable checks the "refused at run time by" column: every
// row checked while the model runs names at least one function of the
// reference engine or the runner, and each exists in a file that names the
// row's id (as a literal or through internal/sonnxrule).
func TestRefusersTraceable(t *testing.T) {
	pkgs := map[string]sourceFuncs{
		"reference": parsePackage(t, "../reference", false),
		"graph":     parsePackage(t, "../graph", false),
	}
	rules := parsePackage(t, "../internal/sonnxrule", false)
	for _, r := range Rules {
		if r.RunTime != "" && len(r.Refusers) == 0 {
			t.Errorf("rule %s is checked at run time, but names no refusing function of the reference engine or the runner", r.Key())
		}
		for _, c := range r.Refusers {
			pkg, fn, _ := strings.Cut(c, ".")
			src, ok := pkgs[pkg]
			if !ok {
				t.Errorf("rule %s: refuser %q is not package.function of reference or graph", r.Key(), c)
				continue
			}
			f, ok := src.funcs[fn]
			if !ok {
				t.Errorf("rule %s: refuser %s does not exist", r.Key(), c)
				continue
			}
			if !src.mentions(f, r.ID) && !rules.namedThrough(f, r.ID) {
				t.Errorf("rule %s: the file that declares %s never names %q", r.Key(), c, r.ID)
			}
		}
	}
}

// qualifiedID matches the SONNX ids a reference file's header cites: a
// section's constraint ("axis [C1]", "input_var [C3]") or an id of the
// E_<OP>_..._CONSTR_... form (bare restriction ids, [R1], are left out:
// prose quotes them too).
var qualifiedID = regexp.MustCompile(`\b(E_[A-Z0-9_]+_CONSTR_[A-Z0-9_]+|[A-Za-z_]+ \[C[0-9]+\])`)

// header returns the comments of f before its first declaration that is
// not an import: the file's header, where a reference file cites its
// specification.
func header(f *ast.File) string {
	end := token.Pos(math.MaxInt)
	for _, d := range f.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT {
			continue
		}
		end = d.Pos()
		break
	}
	var b strings.Builder
	for _, cg := range f.Comments {
		if cg.Pos() < end {
			b.WriteString(cg.Text())
			b.WriteString("\n")
		}
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

// emitted returns the ids the code of f can report: every string literal
// of its code (the first argument of errorf and wrap, or an id handed to
// a helper), every constant of internal/sonnxrule it names, and the shape
// consistency ids of ops when f calls sameShapesSONNX.
func emitted(f *ast.File, rules sourceFuncs, ops []string) map[string]bool {
	ids := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		if id, ok := call.Fun.(*ast.Ident); ok && id.Name == "sameShapesSONNX" {
			for _, op := range ops {
				for _, r := range Rules {
					if r.Op == op && strings.Contains(strings.Join(r.Refusers, ","), "sameShapesSONNX") {
						ids[r.ID] = true
					}
				}
			}
		}
		return true
	})
	ast.Inspect(f, func(n ast.Node) bool {
		if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
			if v, err := strconv.Unquote(lit.Value); err == nil {
				ids[v] = true
			}
		}
		return true
	})
	// An id given through a function of the file (rangeDeltaRule) or a
	// constant: every sonnxrule constant the file names counts.
	ast.Inspect(f, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if x, ok := sel.X.(*ast.Ident); ok && x.Name == "sonnxrule" {
				if v, ok := rules.consts[sel.Sel.Name]; ok {
					ids[v] = true
				}
			}
		}
		return true
	})
	return ids
}

// TestReferenceHeaderIDs keeps the headers of the reference engine's files
// equal to what their code reports under the profile: each file that
// refuses a row at run time cites the row's id in its header, and every
// section-qualified or E_ id its header cites is one its code reports.
func TestReferenceHeaderIDs(t *testing.T) {
	rules := parsePackage(t, "../internal/sonnxrule", false)
	refs := parsePackage(t, "../reference", false)
	byFile := map[string][]Rule{} // file -> rows it refuses
	for _, r := range Rules {
		for _, c := range r.Refusers {
			pkg, fn, _ := strings.Cut(c, ".")
			if pkg != "reference" {
				continue
			}
			if path, ok := refs.paths[fn]; ok {
				name := filepath.Base(path)
				if name == "common.go" {
					continue // shared helpers: the operators' files cite their ids
				}
				byFile[name] = append(byFile[name], r)
			}
		}
	}
	files := make([]string, 0, len(byFile))
	for name := range byFile {
		files = append(files, name)
	}
	sort.Strings(files)
	for _, name := range files {
		f, err := parser.ParseFile(token.NewFileSet(), filepath.Join("..", "reference", name), nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		head := header(f)
		var ops []string
		for _, r := range byFile[name] {
			ops = append(ops, r.Op)
			cite := r.ID
			if !strings.Contains(cite, " ") && !strings.HasPrefix(cite, "E_") && cite != ruleTypes {
				cite = "[" + cite + "]" // a bare restriction id: [R1]
			}
			if !strings.Contains(head, cite) && !(r.ID == "input" || r.ID == "pads") {
				t.Errorf("reference/%s refuses %s at run time, but its header does not cite %q", name, r.Key(), cite)
			}
		}
		code := emitted(f, rules, ops)
		elsewhere := map[string]bool{} // rows of the file's operators another file refuses, or none
		for _, r := range Rules {
			if !slices.Contains(ops, r.Op) {
				continue
			}
			here := false
			for _, c := range r.Refusers {
				_, fn, _ := strings.Cut(c, ".")
				here = here || filepath.Base(refs.paths[fn]) == name
			}
			elsewhere[r.ID] = elsewhere[r.ID] || !here
		}
		for _, id := range qualifiedID.FindAllString(head, -1) {
			if !code[id] && !elsewhere[id] {
				t.Errorf("reference/%s cites %q in its header, which its code never reports", name, id)
			}
		}
	}
}

// TestTraceNamesExist checks the machine-readable trace (Trace, onnxshape
// trace --json) on its own: one item per row, and every function and test
// an item names exists (the functions in ops, graph, profile,
// internal/sonnxrule or reference; the tests in this package, with a case
// of the item's key where the test is table-driven).
func TestTraceNamesExist(t *testing.T) {
	pkgs := map[string]sourceFuncs{
		"ops":       parsePackage(t, "../ops", false),
		"profile":   parsePackage(t, ".", false),
		"graph":     parsePackage(t, "../graph", false),
		"sonnxrule": parsePackage(t, "../internal/sonnxrule", false),
		"reference": parsePackage(t, "../reference", false),
	}
	tests := parsePackage(t, ".", true)
	items := Trace()
	if len(items) != len(Rules) {
		t.Fatalf("%d items for %d rows", len(items), len(Rules))
	}
	for _, it := range items {
		for _, fn := range append(append([]string{}, it.Checkers...), it.Refusers...) {
			pkg, name, _ := strings.Cut(fn, ".")
			if _, ok := pkgs[pkg].funcs[name]; !ok {
				t.Errorf("%s: %s does not exist", it.Key, fn)
			}
		}
		for _, test := range []string{it.Tests.Violated, it.Tests.Satisfied, it.Tests.RunTime} {
			fn, sub, _ := strings.Cut(test, "/")
			if test == "" {
				continue
			}
			if _, ok := tests.funcs[fn]; !ok {
				t.Errorf("%s: test %s does not exist", it.Key, fn)
			}
			if sub != strings.ReplaceAll(it.Key, " ", "_") {
				t.Errorf("%s: test case %q is not the item's", it.Key, test)
			}
		}
		if _, ok := violations[it.Key]; !ok {
			t.Errorf("%s: TestViolations has no case", it.Key)
		}
		if it.Spec == "" || it.Statement == "" {
			t.Errorf("%s: no spec or statement", it.Key)
		}
	}
}
