package infer_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadmeShowsExampleFile: the README's Go snippet of package infer is
// the body of ExampleFile, which compiles and whose output is checked,
// with the paths written from the repository's root. A change to either
// must be made to both.
func TestReadmeShowsExampleFile(t *testing.T) {
	fset := token.NewFileSet()
	src, err := os.ReadFile("example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	f, err := parser.ParseFile(fset, "example_test.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	var body string
	for _, d := range f.Decls {
		if fn, ok := d.(*ast.FuncDecl); ok && fn.Name.Name == "ExampleFile" {
			body = string(src[fset.Position(fn.Body.Lbrace).Offset+1 : fset.Position(fn.Body.Rbrace).Offset])
		}
	}
	if body == "" {
		t.Fatal("example_test.go has no ExampleFile")
	}
	body = body[:strings.Index(body, "\t// Output:")]
	var snippet strings.Builder
	for _, line := range strings.Split(strings.Trim(body, "\n"), "\n") {
		snippet.WriteString(strings.TrimPrefix(line, "\t") + "\n")
	}
	want := "```go\n" + strings.ReplaceAll(snippet.String(), `"testdata`, `"infer/testdata`) + "```\n"
	readme, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), want) {
		t.Errorf("README.md does not show ExampleFile's body; it should read\n%s", want)
	}
}
