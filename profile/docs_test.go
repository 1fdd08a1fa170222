package profile

import (
	"flag"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/onnxshape/onnxshape/internal/sonnxrule"
)

var update = flag.Bool("update", false, "rewrite the generated sections of docs/sonnx.md")

const docsPath = "../docs/sonnx.md"

// generatedSections are the parts of docs/sonnx.md that come from Go:
// marker name -> content.
func generatedSections() map[string]string {
	return map[string]string{"rules": Markdown(), "defaults": DefaultsMarkdown()}
}

// TestDocsUpToDate fails when docs/sonnx.md's tables differ from Rules and
// the defaults table; go test ./profile -run TestDocsUpToDate -update
// rewrites them.
func TestDocsUpToDate(t *testing.T) {
	b, err := os.ReadFile(docsPath)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	for name, content := range generatedSections() {
		begin, end := "<!-- "+name+":begin -->\n", "<!-- "+name+":end -->"
		i, j := strings.Index(doc, begin), strings.Index(doc, end)
		if i < 0 || j < i {
			t.Fatalf("%s lacks the markers %q ... %q", docsPath, strings.TrimSpace(begin), end)
		}
		current := doc[i+len(begin) : j]
		if current == content {
			continue
		}
		if !*update {
			t.Errorf("the %s table of %s is stale: run go test ./profile -run TestDocsUpToDate -update", name, docsPath)
			continue
		}
		doc = doc[:i+len(begin)] + content + doc[j:]
	}
	if *update {
		if err := os.WriteFile(docsPath, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// sourceFuncs maps each function and method name of the package in dir to
// the parsed file that declares it; tests selects the _test.go files instead
// of the others.
type sourceFuncs struct {
	funcs  map[string]*ast.File
	paths  map[string]string // function name -> the file that declares it
	consts map[string]string // constant name -> string value
}

func parsePackage(t *testing.T, dir string, tests bool) sourceFuncs {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	s := sourceFuncs{funcs: map[string]*ast.File{}, paths: map[string]string{}, consts: map[string]string{}}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") != tests {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				s.funcs[d.Name.Name] = f
				s.paths[d.Name.Name] = name
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					vs, ok := spec.(*ast.ValueSpec)
					if !ok || d.Tok != token.CONST {
						continue
					}
					for k, n := range vs.Names {
						if k < len(vs.Values) {
							if lit, ok := vs.Values[k].(*ast.BasicLit); ok && lit.Kind == token.STRING {
								s.consts[n.Name], _ = strconv.Unquote(lit.Value)
							}
						}
					}
				}
			}
		}
	}
	return s
}

// mentions reports whether file f names rule id: as a string literal, or
// through a constant whose value it is.
func (s sourceFuncs) mentions(f *ast.File, id string) bool {
	found := false
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BasicLit:
			if v, err := strconv.Unquote(n.Value); err == nil && v == id && n.Kind == token.STRING {
				found = true
			}
		case *ast.Ident:
			if v, ok := s.consts[n.Name]; ok && v == id {
				found = true
			}
		}
		return !found
	})
	return found
}

// namedThrough reports whether file f, of another package, names rule id
// through package sonnxrule (s): a constant of s whose value id is, or a
// function of s whose file names it (sonnxrule.SameShape's table).
func (s sourceFuncs) namedThrough(f *ast.File, id string) bool {
	found := false
	ast.Inspect(f, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return !found
		}
		if x, ok := sel.X.(*ast.Ident); ok && x.Name == "sonnxrule" {
			if v, ok := s.consts[sel.Sel.Name]; ok && v == id {
				found = true
			} else if file, ok := s.funcs[sel.Sel.Name]; ok && s.mentions(file, id) {
				found = true
			}
		}
		return !found
	})
	return found
}

// TestRulesTraceable checks every row of Rules against the source: each
// checker function exists, in package ops, graph, profile or internal/sonnxrule, in a file that names
// the rule's id; each test exists and has a case for the row.
func TestRulesTraceable(t *testing.T) {
	pkgs := map[string]sourceFuncs{
		"ops":     parsePackage(t, "../ops", false),
		"profile": parsePackage(t, ".", false),
		"graph":   parsePackage(t, "../graph", false),
		// The rule shared by graph and profile lives in an internal package.
		"sonnxrule": parsePackage(t, "../internal/sonnxrule", false),
	}
	tests := parsePackage(t, ".", true)
	seen := map[string]bool{}
	for _, r := range Rules {
		if seen[r.Key()] {
			t.Errorf("rule %s is listed twice", r.Key())
		}
		seen[r.Key()] = true
		if r.Statement == "" || r.Fix == "" || len(r.Checkers) == 0 {
			t.Errorf("rule %s lacks a statement, a fix or a checker", r.Key())
		}
		for _, c := range r.Checkers {
			pkg, fn, ok := strings.Cut(c, ".")
			src, known := pkgs[pkg]
			if !ok || !known {
				t.Errorf("rule %s: checker %q is not package.function of ops, graph, profile or sonnxrule", r.Key(), c)
				continue
			}
			f, ok := src.funcs[fn]
			if !ok {
				t.Errorf("rule %s: checker %s does not exist", r.Key(), c)
				continue
			}
			if !src.mentions(f, r.ID) && !pkgs["sonnxrule"].namedThrough(f, r.ID) {
				t.Errorf("rule %s: the file that declares %s never names %q", r.Key(), c, r.ID)
			}
		}
		for _, name := range []string{r.Satisfied, r.RunTime} {
			if fn, _, _ := strings.Cut(name, "/"); name != "" {
				if _, ok := tests.funcs[fn]; !ok {
					t.Errorf("rule %s: test %s does not exist", r.Key(), fn)
				}
			}
		}
		testFn, sub, _ := strings.Cut(r.Test, "/")
		if _, ok := tests.funcs[testFn]; !ok {
			t.Errorf("rule %s: test %s does not exist", r.Key(), testFn)
		}
		if testFn == "TestViolations" {
			if sub != strings.ReplaceAll(r.Key(), " ", "_") {
				t.Errorf("rule %s: its test case is %q", r.Key(), sub)
			}
			if _, ok := violations[r.Key()]; !ok {
				t.Errorf("rule %s: TestViolations has no case %q", r.Key(), sub)
			}
		}
	}
}

// TestOperatorIDsInRules checks the other direction: every SONNX id ([Cn],
// [Rn], E_..._CONSTR_..., or a constant of internal/sonnxrule) that the
// kernel of an admitted operator can report, in either engine (its file in
// ops/ and in reference/), has a row in Rules, so a new constraint cannot
// go untraced; and so has every id internal/sonnxrule names.
func TestOperatorIDsInRules(t *testing.T) {
	rules := parsePackage(t, "../internal/sonnxrule", false)
	keys := map[string]bool{}
	ids := map[string]bool{}
	for _, r := range Rules {
		keys[r.Key()] = true
		ids[r.ID] = true
	}
	for name, v := range rules.consts {
		if !ids[v] {
			t.Errorf("internal/sonnxrule's %s (%q) has no row in Rules", name, v)
		}
	}
	for op, pair := range sonnxruleSameShape() {
		for _, id := range pair {
			if !keys[op+" "+id] {
				t.Errorf("sonnxrule.SameShape gives %s %q, which has no row", op, id)
			}
		}
	}
	fileOf := map[string]string{"ArgMax": "argextreme.go", "Softmax": "softmaxfamily.go"}
	sonnxID := regexp.MustCompile(`^((C|R|GR)[0-9]+|\w+ \[(C|R)[0-9]+\]|E_[A-Z0-9_]+_CONSTR_[A-Z0-9_]+)$`)
	checked := 0
	for _, op := range admittedList() {
		file := strings.ToLower(op) + ".go"
		if f, ok := fileOf[op]; ok {
			file = f
		}
		for _, dir := range []string{"ops", "reference"} {
			path := filepath.Join("..", dir, file)
			f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
			if os.IsNotExist(err) {
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			checked++
			ast.Inspect(f, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok || len(call.Args) == 0 {
					return true
				}
				sel, ok := call.Fun.(*ast.SelectorExpr)
				if !ok || (sel.Sel.Name != "errorf" && sel.Sel.Name != "wrap") {
					return true
				}
				id := ""
				switch a := call.Args[0].(type) {
				case *ast.BasicLit:
					if a.Kind == token.STRING {
						id, _ = strconv.Unquote(a.Value)
					}
				case *ast.SelectorExpr:
					if x, ok := a.X.(*ast.Ident); ok && x.Name == "sonnxrule" {
						id = rules.consts[a.Sel.Name]
					}
				}
				if id != "" && sonnxID.MatchString(id) && !keys[op+" "+id] && !keys[id] {
					t.Errorf("%s/%s reports [%s], which Rules has no row of %s for", dir, file, id, op)
				}
				return true
			})
		}
	}
	if checked < 20 {
		t.Errorf("checked %d operator files, expected one in ops and reference per admitted operator", checked)
	}
}

// sonnxruleSameShape lists the shape consistency ids of
// sonnxrule.SameShape, per operator.
func sonnxruleSameShape() map[string][]string {
	m := map[string][]string{}
	for _, op := range admittedList() {
		if ids := sonnxrule.SameShapeIDs(op); len(ids) > 0 {
			m[op] = ids
		}
	}
	return m
}

// TestKernelDefaultsListed checks the GR4 table against the kernels: an
// attribute that an operator's kernel reads with a default value
// (n.Int("axis", 0), n.Str("mode", "DCR") ...) must be listed for that
// operator in defaults.go, so a default cannot go unchecked.
func TestKernelDefaultsListed(t *testing.T) {
	listed := map[string]map[string]bool{} // op -> attribute names
	byFile := map[string]string{}          // "depthtospace.go" -> "DepthToSpace"
	for op, versions := range defaults {
		byFile[strings.ToLower(op)+".go"] = op
		listed[op] = map[string]bool{}
		for _, v := range versions {
			for _, d := range v.Defaults {
				listed[op][d.Param.Name] = true
				for _, alt := range d.Or {
					listed[op][alt.Name] = true
				}
			}
		}
	}
	checked, calls := 0, 0
	for file, op := range byFile {
		f, err := parser.ParseFile(token.NewFileSet(), filepath.Join("..", "ops", file), nil, 0)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		checked++
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) != 2 {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || (sel.Sel.Name != "Int" && sel.Sel.Name != "Float" && sel.Sel.Name != "Str") {
				return true
			}
			lit, ok := call.Args[0].(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			name, _ := strconv.Unquote(lit.Value)
			calls++
			if !listed[op][name] {
				t.Errorf("ops/%s reads attribute %s with a default, but defaults.go does not list it for %s", file, name, op)
			}
			return true
		})
	}
	if checked == 0 || calls == 0 {
		t.Fatalf("found %d operator files and %d defaulted reads in ../ops", checked, calls)
	}
}
