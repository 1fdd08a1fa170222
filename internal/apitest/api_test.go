// Package apitest holds tests of the module's public API as a whole.
package apitest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// protoEscapeHatches are, per package, the exported names allowed a
// generated protobuf type in their signature: the explicit ways in and out
// for callers who work with the ONNX format itself.
var protoEscapeHatches = map[string]map[string]bool{
	"graph":   {"FromProto": true, "FromProtoWith": true, "Model.Proto": true, "ValueInfo.TypeProto": true},
	"builder": {"Builder.ModelProto": true},
	"profile": {"CheckProto": true},
	"ops":     {},
	"tensor":  {},
}

// plumbing are names once exported only for the module's other packages;
// they live in internal packages now.
var plumbing = map[string]bool{
	"NodeFromProto": true, "SortNodes": true, "CheckAttributes": true, "DeclaredRule": true,
	"OpenFile": true, "CreateFile": true, "ReadFile": true, "CheckTensorSizes": true, "ValueInfo": true,
}

// The user-facing packages keep generated protobuf types out of every
// signature a user needs, export no plumbing, and take a context only as
// an argument, never in a struct field.
func TestAPIHasNoProtobufOrPlumbing(t *testing.T) {
	for pkg, allowed := range protoEscapeHatches {
		t.Run(pkg, func(t *testing.T) {
			leaks := exportedLeaks(t, filepath.Join("..", "..", pkg), allowed)
			if len(leaks) > 0 {
				t.Errorf("exported API with protobuf types or plumbing: %s", strings.Join(leaks, ", "))
			}
		})
	}
}

// exportedLeaks returns the exported functions, methods and struct fields
// of the package in dir whose signature names a type of package pb (but
// for those allowed), the exported functions named as plumbing, and the
// exported struct fields that hold a context.Context.
func exportedLeaks(t *testing.T, dir string, allowed map[string]bool) []string {
	fset := token.NewFileSet()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var leaks []string
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, e.Name()), nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if !d.Name.IsExported() {
					continue
				}
				name := d.Name.Name
				if d.Recv != nil {
					recv := d.Recv.List[0].Type
					if s, ok := recv.(*ast.StarExpr); ok {
						recv = s.X
					}
					id, ok := recv.(*ast.Ident)
					if !ok || !id.IsExported() {
						continue
					}
					name = id.Name + "." + name
				} else if plumbing[name] {
					leaks = append(leaks, name+" (plumbing)")
				}
				if mentionsPB(d.Type) && !allowed[name] {
					leaks = append(leaks, name)
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					ts, ok := s.(*ast.TypeSpec)
					if !ok || !ts.Name.IsExported() {
						continue
					}
					st, ok := ts.Type.(*ast.StructType)
					if !ok {
						continue
					}
					for _, field := range st.Fields.List {
						for _, n := range field.Names {
							if !n.IsExported() {
								continue
							}
							if mentionsPB(field.Type) && !allowed[ts.Name.Name+"."+n.Name] {
								leaks = append(leaks, ts.Name.Name+"."+n.Name)
							}
							if isContext(field.Type) {
								leaks = append(leaks, ts.Name.Name+"."+n.Name+" (a context field)")
							}
						}
					}
				}
			}
		}
	}
	sort.Strings(leaks)
	return leaks
}

// mentionsPB reports whether the expression names a type of package pb.
func mentionsPB(n ast.Node) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok && id.Name == "pb" {
				found = true
			}
		}
		return !found
	})
	return found
}

// isContext reports whether the expression is the type context.Context.
func isContext(n ast.Expr) bool {
	sel, ok := n.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	id, ok := sel.X.(*ast.Ident)
	return ok && id.Name == "context" && sel.Sel.Name == "Context"
}

// TestLeaksFound: the check itself finds each kind of leak, so that a
// package passing it has none rather than a blind checker.
func TestLeaksFound(t *testing.T) {
	dir := t.TempDir()
	src := `package leaky

import (
	"context"

	"github.com/onnxshape/onnxshape/onnx/pb"
)

func Model(mp *pb.ModelProto) error            { return nil }
func Proto(mp *pb.ModelProto) error            { return nil }
func Read() ([]*pb.TensorProto, error)         { return nil, nil }
func SortNodes()                               {}
func (r *Result) Node(i int) *pb.NodeProto     { return nil }
func (r *Result) String() string               { return "" }
func helper(mp *pb.ModelProto)                 {}

type Result struct {
	Graph   map[string]*pb.GraphProto
	Ctx     context.Context
	Name    string
	private *pb.ModelProto
}
`
	if err := os.WriteFile(filepath.Join(dir, "leaky.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	got := strings.Join(exportedLeaks(t, dir, map[string]bool{"Proto": true}), ", ")
	want := "Model, Read, Result.Ctx (a context field), Result.Graph, Result.Node, SortNodes (plumbing)"
	if got != want {
		t.Errorf("leaks found: %s\nwant: %s", got, want)
	}
}
