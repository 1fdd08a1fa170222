package ops_test

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/onnxshape/onnxshape/conformance"
	"github.com/onnxshape/onnxshape/internal/genopfuncs/gen"
	"github.com/onnxshape/onnxshape/internal/nodeproto"
	"github.com/onnxshape/onnxshape/onnx"
	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// functions_gen.go is what the generator writes from today's registry.
func TestGeneratedFunctionsUpToDate(t *testing.T) {
	want, err := gen.Generate(".")
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("functions_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("functions_gen.go is stale: run go generate ./ops")
	}
}

// Every registered operator has a plain Go function, hand-written or
// generated, but for those the generator says why not (graph attributes,
// a caller-chosen number of outputs).
func TestEveryOperatorHasAFunction(t *testing.T) {
	all, err := gen.Operators(".")
	if err != nil {
		t.Fatal(err)
	}
	var skipped []string
	for _, op := range all {
		k := op.Schema.Domain + "/" + op.Schema.Name
		switch {
		case op.Skip == "":
			if ops.Generated[k] == nil {
				t.Errorf("%s: no generated function", k)
			}
		case op.Skip != "hand-written":
			skipped = append(skipped, k+" ("+op.Skip+")")
		}
	}
	t.Logf("%d operators; without a function: %s", len(all), strings.Join(skipped, ", "))
	for _, s := range skipped {
		if !strings.Contains(s, "graph") && !strings.Contains(s, "number of outputs") {
			t.Errorf("no function for %s", s)
		}
	}
}

// Each generated function, called on its operator's node tests (those at
// the operator's newest version that the conformance manifest says pass),
// gives the expected outputs.
func TestGeneratedFunctionsOnNodeTests(t *testing.T) {
	root := filepath.Join("..", "..", "shared", "onnx-node")
	dirs, _ := filepath.Glob(filepath.Join(root, "test_*"))
	if len(dirs) == 0 {
		t.Skipf("no node tests in %s (scripts/fetch-node-tests.sh fetches them)", root)
	}
	sort.Strings(dirs)
	manifest, err := conformance.ReadManifest(filepath.Join("..", "conformance", "manifest.txt"))
	if err != nil {
		t.Fatal(err)
	}
	ran, passed := 0, 0
	covered := map[string]bool{}
	for _, dir := range dirs {
		mp, err := onnx.ReadModel(filepath.Join(dir, "model.onnx"))
		if err != nil || len(mp.GetGraph().GetNode()) != 1 {
			continue
		}
		np := mp.GetGraph().GetNode()[0]
		key := np.GetDomain() + "/" + np.GetOpType()
		if np.GetDomain() == "ai.onnx" {
			key = "/" + np.GetOpType()
		}
		f := ops.Generated[key]
		if e, listed := manifest[filepath.Base(dir)]; f == nil || random(np.GetOpType()) || (listed && !e.Pass) {
			continue
		}
		opset := 0
		for _, imp := range mp.GetOpsetImport() {
			if imp.GetDomain() == np.GetDomain() || (imp.GetDomain() == "ai.onnx" && np.GetDomain() == "") {
				opset = int(imp.GetVersion())
			}
		}
		at, err1 := ops.Lookup(np.GetDomain(), np.GetOpType(), opset)
		newest, err2 := ops.Lookup(np.GetDomain(), np.GetOpType(), 1<<20)
		if err1 != nil || err2 != nil || at.Since != newest.Since {
			continue
		}
		node, err := nodeproto.Decode(np, at.Since, dir)
		if err != nil {
			continue
		}
		in, want, ok := caseValues(t, mp.GetGraph(), np, filepath.Join(dir, "test_data_set_0"))
		if !ok {
			continue
		}
		ran++
		covered[key] = true
		got, err := f(node.Attrs, in)
		if err != nil {
			t.Errorf("%s: %v", filepath.Base(dir), err)
			continue
		}
		bad := false
		for j, w := range want {
			if w == nil {
				continue
			}
			if j >= len(got) {
				t.Errorf("%s: %d outputs, want %d", filepath.Base(dir), len(got), len(want))
				bad = true
				break
			}
			if err := conformance.Compare(got[j], w); err != nil {
				t.Errorf("%s: output %d: %v", filepath.Base(dir), j, err)
				bad = true
			}
		}
		if !bad {
			passed++
		}
	}
	t.Logf("%d node tests of %d operators through their generated functions, %d passed", ran, len(covered), passed)
	if ran == 0 {
		t.Fatal("no node test ran through a generated function")
	}
}

// random operators draw anew on each call: their node tests match by chance.
func random(op string) bool {
	return strings.HasPrefix(op, "Random") || op == "Bernoulli" || op == "Multinomial" || op == "Dropout"
}

// caseValues reads a node test's inputs in the node's order (nil for an
// input left out) and the expected value of each node output (nil when the
// graph does not return it); ok is false when one cannot be read.
func caseValues(t *testing.T, g *pb.GraphProto, np *pb.NodeProto, set string) (in, want []tensor.Value, ok bool) {
	read := func(kind string, vis []*pb.ValueInfoProto, name string) (tensor.Value, bool) {
		for k, vi := range vis {
			if vi.GetName() == name {
				b, err := os.ReadFile(filepath.Join(set, kind+"_"+itoa(k)+".pb"))
				if err != nil {
					return nil, false
				}
				v, _, err := onnx.DecodeValue(b, vi.GetType())
				return v, err == nil
			}
		}
		return nil, false
	}
	for _, name := range np.GetInput() {
		if name == "" {
			in = append(in, nil)
			continue
		}
		v, ok := read("input", g.GetInput(), name)
		if !ok {
			return nil, nil, false
		}
		in = append(in, v)
	}
	for _, name := range np.GetOutput() {
		v, _ := read("output", g.GetOutput(), name)
		want = append(want, v)
	}
	return in, want, true
}

func itoa(i int) string { return string(rune('0' + i)) }
