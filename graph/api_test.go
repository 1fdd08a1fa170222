package graph_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"sort"
	"strings"
	"testing"
)

// protoEscapeHatches are the exported names of package graph allowed a
// generated protobuf type in their signature: the explicit ways in and out
// for callers who hold a ModelProto already.
var protoEscapeHatches = map[string]bool{
	"FromProto":      true,
	"FromProtoWith":  true,
	"Model.Proto":    true,
	"ValueInfo.Type": true, // until ValueInfo describes types in plain Go
}

// The package's API keeps generated protobuf types out of every signature
// a user needs, and exports no plumbing for the module's other packages
// (those helpers live in internal packages).
func TestAPIHasNoProtobufOrPlumbing(t *testing.T) {
	fset := token.NewFileSet()
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	var leaks []string
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, e.Name(), nil, 0)
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
				}
				if mentionsPB(d.Type) && !protoEscapeHatches[name] {
					leaks = append(leaks, name)
				}
				for _, plumbing := range []string{"NodeFromProto", "SortNodes", "CheckAttributes", "DeclaredRule"} {
					if name == plumbing {
						leaks = append(leaks, name+" (plumbing)")
					}
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
							if n.IsExported() && mentionsPB(field.Type) && !protoEscapeHatches[ts.Name.Name+"."+n.Name] {
								leaks = append(leaks, ts.Name.Name+"."+n.Name)
							}
						}
					}
				}
			}
		}
	}
	sort.Strings(leaks)
	if len(leaks) > 0 {
		t.Errorf("exported API with protobuf types or plumbing: %s", strings.Join(leaks, ", "))
	}
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
