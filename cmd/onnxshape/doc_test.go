package main

import (
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestPackageDocListsEveryCommand keeps `go doc` of the command complete:
// every registered command appears in its package documentation as
// "onnxshape NAME".
func TestPackageDocListsEveryCommand(t *testing.T) {
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments|parser.PackageClauseOnly)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	p, err := doc.NewFromFiles(fset, files, "github.com/onnxshape/onnxshape/cmd/onnxshape")
	if err != nil {
		t.Fatal(err)
	}
	for name := range commands {
		if !strings.Contains(p.Doc, "onnxshape "+name) {
			t.Errorf("the package documentation does not list %q", name)
		}
	}
}
