package profile

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/onnxshape/onnxshape/onnx"
	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
	"google.golang.org/protobuf/proto"
)

// nodeTestsDir is where the ONNX node tests are: $ONNXSHAPE_NODE_TESTS, or
// ../shared/onnx-node from the repository's root.
func nodeTestsDir() string {
	if d := os.Getenv("ONNXSHAPE_NODE_TESTS"); d != "" {
		return d
	}
	return filepath.Join("..", "..", "shared", "onnx-node")
}

// TestNodeTestModels checks every model of the ONNX node tests: the check
// must finish without panicking, and every finding must say where, what
// and how to fix it.
func TestNodeTestModels(t *testing.T) {
	dir := nodeTestsDir()
	models, _ := filepath.Glob(filepath.Join(dir, "*", "model.onnx"))
	if len(models) == 0 {
		t.Skipf("ONNX node tests not found at %s; set ONNXSHAPE_NODE_TESTS", dir)
	}
	inside := 0
	for _, path := range models {
		m, err := onnx.ReadModel(path)
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		rep := CheckProto(m, filepath.Dir(path))
		if rep.Inside() {
			inside++
		}
		for _, f := range rep.Findings {
			if f.Where.Kind == "" || f.Rule == "" || f.Message == "" || f.Fix == "" {
				t.Errorf("%s: incomplete finding %+v", path, f)
			}
		}
	}
	t.Logf("%d of %d node-test models are inside the profile", inside, len(models))
}

// TestNodeTestVerdicts pins the verdict on a few node tests whose answer
// the profile makes plain.
func TestNodeTestVerdicts(t *testing.T) {
	dir := nodeTestsDir()
	cases := []struct {
		name string
		want []string // finding keys; nil: inside
	}{
		{"test_concat_2d_axis_0", nil},
		{"test_concat_2d_axis_negative_1", []string{"Concat axis [C1]"}},
		{"test_flatten_default_axis", []string{"GR4"}},
		{"test_maxpool_2d_ceil", []string{"MaxPool R2", "MaxPool R4"}},
		{"test_slice_default_steps", []string{"Slice R3"}},
		{"test_tile", []string{"OPS"}},
		{"test_identity", []string{"OPS"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, tc.name, "model.onnx")
			m, err := onnx.ReadModel(path)
			if errors.Is(err, os.ErrNotExist) {
				t.Skipf("%s not found; set ONNXSHAPE_NODE_TESTS", path)
			}
			if err != nil {
				t.Fatal(err)
			}
			rep := CheckProto(m, filepath.Dir(path))
			if got := reportKeys(rep); !slices.Equal(got, tc.want) {
				t.Errorf("reported %q, want %q:\n%s", got, tc.want, rep)
			}
		})
	}
}

// TestDefaultsCoverRegistry checks that the GR4 table and the signatures
// know every operator version onnxshape registers.
func TestDefaultsCoverRegistry(t *testing.T) {
	for _, s := range ops.Schemas() {
		if s.Domain != "" {
			continue
		}
		if _, ok := defaultsFor(s.Name, s.Since); !ok {
			t.Errorf("defaults.go has no entry for %s-%d", s.Name, s.Since)
		} else if !slices.ContainsFunc(defaults[s.Name], func(v opVersion) bool { return v.Since == s.Since }) {
			t.Errorf("defaults.go does not list since-version %d of %s", s.Since, s.Name)
		}
		if _, ok := signatureFor(s.Name, s.Since); !ok {
			t.Errorf("types.go has no signature for %s-%d", s.Name, s.Since)
		}
		if _, out := outsideOperators[s.Name]; out && operatorSet[s.Name] {
			t.Errorf("%s is both in the profile's operator set and in outsideOperators", s.Name)
		}
	}
}

// TestDefaultsRules checks the finer points of GR4: alternatives,
// conditions, and versions without defaults.
func TestDefaultsRules(t *testing.T) {
	split := func(opset int64, in []string, attrs ...*pb.AttributeProto) *pb.ModelProto {
		b := newModel(t, opset).input("x", tensor.Float, 4).ints("split", 2, 2)
		return b.node("Split", in, names("a", "b"), attrs...).
			output("a", tensor.Float, 2).output("b", tensor.Float, 2).build()
	}
	resize := func(mode string) *pb.ModelProto {
		m := newModel(t, 19).input("x", tensor.Float, 1, 1, 2, 2).
			initializer("scales", tensor.MustFromSlice([]float32{1, 1, 2, 2}, 4)).
			node("Resize", names("x", "", "scales"), names("y"),
				attrInt("antialias", 0), attrInts("axes", 0, 1, 2, 3), attrString("coordinate_transformation_mode", mode),
				&pb.AttributeProto{Name: proto.String("cubic_coeff_a"), Type: pb.AttributeProto_FLOAT.Enum(), F: proto.Float32(-0.75)},
				attrInt("exclude_outside", 0),
				&pb.AttributeProto{Name: proto.String("extrapolation_value"), Type: pb.AttributeProto_FLOAT.Enum(), F: proto.Float32(0)},
				attrString("keep_aspect_ratio_policy", "stretch"), attrString("mode", "nearest"),
				attrString("nearest_mode", "floor")).
			output("y", tensor.Float, 1, 1, 4, 4).build()
		return m
	}
	cases := []struct {
		name string
		m    *pb.ModelProto
		want []string
	}{
		{"Split-18 with num_outputs", split(18, names("x"), attrInt("axis", 0), attrInt("num_outputs", 2)), nil},
		{"Split-18 with split", split(18, names("x", "split"), attrInt("axis", 0)), nil},
		{"Split-18 with neither", split(18, names("x"), attrInt("axis", 0)), []string{"GR4"}},
		{"Split-13 without axis", split(13, names("x", "split")), []string{"GR4"}},
		{"Split-11 with split attribute", split(11, names("x"), attrInt("axis", 0), attrInts("split", 2, 2)), nil},
		{"Resize without roi, half_pixel", resize("half_pixel"), nil},
		// The kernel refuses it too: tf_crop_and_resize reads the roi.
		{"Resize without roi, tf_crop_and_resize", resize("tf_crop_and_resize"), []string{"GR4", "Resize roi"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rep := CheckProto(tc.m, "")
			if got := reportKeys(rep); !slices.Equal(got, tc.want) {
				t.Errorf("reported %q, want %q:\n%s", got, tc.want, rep)
			}
		})
	}
}

// TestConstantsPropagate checks that values computed from initializers
// reach the nodes that need them: a Reshape whose shape comes out of a
// Concat of initializers is checked statically, and its error found.
func TestConstantsPropagate(t *testing.T) {
	m := newModel(t, 25).input("x", tensor.Float, 2, 3).
		ints("a", 4).ints("b", 2).
		node("Concat", names("a", "b"), names("shape"), attrInt("axis", 0)).
		node("Reshape", names("x", "shape"), names("y"), attrInt("allowzero", 0)).
		output("y", tensor.Float, 4, 2).build()
	rep := CheckProto(m, "")
	if got := reportKeys(rep); !slices.Equal(got, []string{"Reshape X [C1]"}) {
		t.Errorf("reported %q, want [Reshape X [C1]]:\n%s", got, rep)
	}
	if len(rep.Deferred) != 0 {
		t.Errorf("nothing should be left to run time:\n%s", rep)
	}
}

// TestDeferred checks that a node whose parameters are computed at run time
// is listed with the rules it leaves undecided, its output's declaration
// too, and that the verdict is undecided, not inside.
func TestDeferred(t *testing.T) {
	m := newModel(t, 25).input("x", tensor.Float, 2, 3).input("shape", tensor.Int64, 2).
		node("Reshape", names("x", "shape"), names("y"), attrInt("allowzero", 0)).
		output("y", tensor.Float, 3, 2).build()
	rep := CheckProto(m, "")
	if rep.Verdict() != VerdictUndecided || rep.Inside() || rep.Outside() || len(rep.Deferred) != 2 {
		t.Fatalf("want undecided with two deferred entries, got:\n%s", rep)
	}
	if d := rep.Deferred[0]; d.Op != "Reshape" || !slices.Contains(d.Rules, "X [C1]") {
		t.Errorf("the Reshape's rules are not listed: %v", d)
	}
	if d := rep.Deferred[1]; !slices.Equal(d.Rules, []string{"GR3"}) || !strings.Contains(d.Reason, `value "y" is declared tensor(float)[3,2]`) {
		t.Errorf("the declaration of y is not left to run time: %v", d)
	}
	if !strings.Contains(rep.Summary(), "run time") {
		t.Errorf("the summary does not say what is left to run time: %s", rep.Summary())
	}
}

// TestTypesFromSignatures checks that GR3 sees a type mismatch even where
// no shape is known and the kernel cannot run.
func TestTypesFromSignatures(t *testing.T) {
	m := newModel(t, 25).input("x", tensor.Float, 2, 3).input("shape", tensor.Int32, 2).
		node("Reshape", names("x", "shape"), names("y"), attrInt("allowzero", 0)).
		output("y", tensor.Double, 3, 2).build()
	rep := CheckProto(m, "")
	if got := reportKeys(rep); !slices.Equal(got, []string{"GR3"}) || len(rep.Findings) != 2 {
		t.Errorf("want two GR3 findings (int32 shape, double output), got:\n%s", rep)
	}
}

// TestMalformedModels feeds models that are not valid ONNX: each gets an
// ONNX finding, and none makes the check panic.
func TestMalformedModels(t *testing.T) {
	good := func() *pb.ModelProto { return insideModel(t) }
	cases := map[string]func() *pb.ModelProto{
		"nil model": func() *pb.ModelProto { return nil },
		"no graph":  func() *pb.ModelProto { m := good(); m.Graph = nil; return m },
		"no opset":  func() *pb.ModelProto { m := good(); m.OpsetImport = nil; return m },
		"cycle": func() *pb.ModelProto {
			m := good()
			m.Graph.Node[0].Input[0] = "s" // Unsqueeze reads Slice's output
			return m
		},
		"output defined twice": func() *pb.ModelProto {
			m := good()
			m.Graph.Node[1].Output[0] = "u"
			return m
		},
		"unknown graph output": func() *pb.ModelProto {
			m := good()
			m.Graph.Output[0].Name = proto.String("nowhere")
			return m
		},
		"bad initializer": func() *pb.ModelProto {
			m := good()
			m.Graph.Initializer[0].RawData = []byte{1, 2, 3}
			return m
		},
		"bad attribute": func() *pb.ModelProto {
			m := good()
			m.Graph.Node[1].Attribute[0].Type = pb.AttributeProto_GRAPH.Enum()
			return m
		},
		"arity": func() *pb.ModelProto {
			m := good()
			m.Graph.Node[3].Input = append(m.Graph.Node[3].Input, "x")
			return m
		},
		"opset too old": func() *pb.ModelProto {
			m := good()
			m.OpsetImport[0].Version = proto.Int64(4)
			return m
		},
	}
	for name, build := range cases {
		t.Run(name, func(t *testing.T) {
			rep := CheckProto(build(), "")
			if !slices.Contains(reportKeys(rep), ruleONNX) {
				t.Errorf("no ONNX finding:\n%s", rep)
			}
		})
	}
}

// TestSparseEverywhere checks GR1 on attributes and declared types.
func TestSparseEverywhere(t *testing.T) {
	m := insideModel(t)
	m.Graph.Node[1].Attribute = append(m.Graph.Node[1].Attribute, &pb.AttributeProto{
		Name: proto.String("extra"), Type: pb.AttributeProto_SPARSE_TENSOR.Enum(), SparseTensor: &pb.SparseTensorProto{}})
	m.Graph.ValueInfo = append(m.Graph.ValueInfo, valueInfo("u", &pb.TypeProto{
		Value: &pb.TypeProto_SparseTensorType{SparseTensorType: &pb.TypeProto_SparseTensor{ElemType: proto.Int32(1)}}}))
	rep := CheckProto(m, "")
	n := 0
	for _, f := range rep.Findings {
		if f.Rule == ruleGR1 {
			n++
		}
	}
	if n != 2 {
		t.Errorf("want 2 GR1 findings (attribute, value_info), got:\n%s", rep)
	}
}

// TestEnforce checks Enforce's error: a *ViolationError listing every
// finding.
func TestEnforce(t *testing.T) {
	err := enforce(violations["Concat axis [C1]"].model(t), "")
	var v *ViolationError
	if !errors.As(err, &v) || len(v.Report.Findings) != 1 {
		t.Fatalf("Enforce = %v, want a *ViolationError with one finding", err)
	}
	if !strings.Contains(err.Error(), "(Concat-13) axis [C1]") {
		t.Errorf("the error does not name the node's rule: %v", err)
	}
}

// TestReportJSON checks that the report's JSON carries every field.
func TestReportJSON(t *testing.T) {
	rep := CheckProto(violations["MaxPool R4"].model(t), "")
	b, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	var back Report
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if len(back.Findings) != 1 {
		t.Fatalf("findings %v", back.Findings)
	}
	f := back.Findings[0]
	if f.Op != "MaxPool" || f.Version != 22 || f.Rule != "R4" || f.Where.Index != 0 || f.Where.Name != "MaxPool_0" || f.Where.String() != `node "MaxPool_0"` {
		t.Errorf("finding %+v", f)
	}
	want := `node "MaxPool_0" (MaxPool-22) [R4]: ceil_mode must be 0. Fix: `
	if !strings.HasPrefix(f.String(), want) {
		t.Errorf("line %q, want it to start with %q", f.String(), want)
	}
}

// TestPadConstantValue checks that Pad's constant_value is needed in mode
// constant only, where Pad reads it.
func TestPadConstantValue(t *testing.T) {
	pad := func(mode string, in ...string) *pb.ModelProto {
		return newModel(t, 25).input("x", tensor.Float, 3).ints("pads", 1, 1).ints("axes", 0).
			initializer("cv", tensor.MustFromSlice([]float32{0}, 1)).
			node("Pad", in, names("y"), attrString("mode", mode)).
			output("y", tensor.Float, 5).build()
	}
	cases := []struct {
		name string
		m    *pb.ModelProto
		want []string
	}{
		{"constant with value", pad("constant", "x", "pads", "cv", "axes"), nil},
		{"constant without value", pad("constant", "x", "pads", "", "axes"), []string{"GR4"}},
		{"edge without value", pad("edge", "x", "pads", "", "axes"), nil},
		{"edge without axes", pad("edge", "x", "pads"), []string{"GR4"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rep := CheckProto(tc.m, "")
			if got := reportKeys(rep); !slices.Equal(got, tc.want) {
				t.Errorf("reported %q, want %q:\n%s", got, tc.want, rep)
			}
		})
	}
}

// TestDeferredReason checks that a deferred node names where its unknown
// parameter comes from.
func TestDeferredReason(t *testing.T) {
	m := newModel(t, 25).input("x", tensor.Float, 2, 3).input("y", tensor.Float, -1, 3).
		node("Shape", names("y"), names("shape"), attrInt("start", 0), attrInt("end", 2)).
		node("Reshape", names("x", "shape"), names("r"), attrInt("allowzero", 0)).
		output("r", tensor.Float, 2, 3).build()
	rep := CheckProto(m, "")
	var reasons []string
	for _, d := range rep.Deferred {
		reasons = append(reasons, d.Reason)
	}
	want := `input 1 ("shape") is computed at run time by node "Shape_0"`
	if !slices.Contains(reasons, want) {
		t.Errorf("deferred reasons %q lack %q", reasons, want)
	}
}
