package apitest

import (
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// publicPackages are the module's packages a program imports.
var publicPackages = []string{"tensor", "graph", "builder", "infer", "ops", "onnx", "profile", "conformance", "bench", "examples"}

// Every exported name of a public package has a doc comment, as go doc
// shows it: a type, a function, a method, a constant or variable (alone
// or in a documented group), a struct field of an exported type.
func TestEveryExportedNameIsDocumented(t *testing.T) {
	for _, dir := range publicPackages {
		fset := token.NewFileSet()
		names, err := filepath.Glob(filepath.Join("..", "..", dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		byPackage := map[string][]*ast.File{}
		for _, name := range names {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
			if err != nil {
				t.Fatal(err)
			}
			byPackage[f.Name.Name] = append(byPackage[f.Name.Name], f)
		}
		for _, files := range byPackage {
			d, err := doc.NewFromFiles(fset, files, "github.com/onnxshape/onnxshape/"+dir)
			if err != nil {
				t.Fatal(err)
			}
			var missing []string
			check := func(name, text string) {
				if ast.IsExported(name) && strings.TrimSpace(text) == "" {
					missing = append(missing, name)
				}
			}
			values := func(vs []*doc.Value) {
				for _, v := range vs {
					if v.Doc != "" {
						continue
					}
					for _, sp := range v.Decl.Specs {
						vs := sp.(*ast.ValueSpec)
						for _, n := range vs.Names {
							check(n.Name, vs.Doc.Text()+vs.Comment.Text())
						}
					}
				}
			}
			values(d.Consts)
			values(d.Vars)
			for _, f := range d.Funcs {
				check(f.Name, f.Doc)
			}
			for _, ty := range d.Types {
				check(ty.Name, ty.Doc)
				values(ty.Consts)
				values(ty.Vars)
				for _, f := range ty.Funcs {
					check(f.Name, f.Doc)
				}
				for _, m := range ty.Methods {
					check(ty.Name+"."+m.Name, m.Doc)
				}
			}
			if len(missing) > 0 {
				t.Errorf("package %s: %d exported names without a doc comment: %s", dir, len(missing), strings.Join(missing, ", "))
			}
		}
	}
}
