package apitest

import (
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// mainEntryPoints are the names a new user starts from, by package, each
// with the Example names that show it (go doc's: "Load", "Model_Run",
// "Pool_Release" for a method of Pool; "" for the package's own).
var mainEntryPoints = []struct {
	pkg, name string
	examples  []string // any one of them will do
}{
	{"graph", "Load", []string{"Load"}},
	{"graph", "Model.Run", []string{"Model_Run"}},
	{"graph", "Pool", []string{"Pool", "Pool_Get", "Pool_Release"}},
	{"graph", "Stateful", []string{"Stateful", "Stateful_Run"}},
	{"ops", "Call", []string{"Call"}},
	{"infer", "File", []string{"File"}},
	{"infer", "Fold", []string{"Fold"}},
	{"builder", "New", []string{"New", ""}},
	{"tensor", "FromSlice", []string{"FromSlice"}},
	{"tensor", "New", []string{"New"}},
}

// examplesOf returns the Examples of the test files in dir (both the
// package's and the external _test package's), and the names of the
// functions generated into ops/functions_gen.go when dir is ops.
func examplesOf(t *testing.T, dir string) (names []string, generated map[string]bool) {
	t.Helper()
	fset := token.NewFileSet()
	files, err := filepath.Glob(filepath.Join("..", "..", dir, "*_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	var parsed []*ast.File
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		parsed = append(parsed, f)
	}
	for _, e := range doc.Examples(parsed...) {
		names = append(names, e.Name)
	}
	generated = map[string]bool{}
	if f, err := parser.ParseFile(fset, filepath.Join("..", "..", dir, "functions_gen.go"), nil, 0); err == nil {
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil && fn.Name.IsExported() {
				generated[fn.Name.Name] = true
			}
		}
	}
	return names, generated
}

// Each main entry point has an Example (tested by go test, shown by go
// doc), and so has at least one operator function of the generated ones.
func TestMainEntryPointsHaveExamples(t *testing.T) {
	byPkg := map[string][]string{}
	for _, ep := range mainEntryPoints {
		if _, ok := byPkg[ep.pkg]; !ok {
			byPkg[ep.pkg], _ = examplesOf(t, ep.pkg)
		}
		found := slices.ContainsFunc(ep.examples, func(name string) bool { return slices.Contains(byPkg[ep.pkg], name) })
		if !found {
			t.Errorf("%s.%s has no Example (any of %q)", ep.pkg, ep.name, ep.examples)
		}
	}
	names, generated := examplesOf(t, "ops")
	if len(generated) < 100 {
		t.Fatalf("ops/functions_gen.go declares %d functions: has it moved?", len(generated))
	}
	var shown []string
	for _, name := range names {
		if fn, _, _ := strings.Cut(name, "_"); generated[fn] {
			shown = append(shown, fn)
		}
	}
	if len(shown) == 0 {
		t.Errorf("no Example shows a generated operator function of ops/functions_gen.go")
	}
}
