package profile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/onnx"
	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/tensor"
)

func writeModel(t *testing.T, m *pb.ModelProto) string {
	t.Helper()
	b, err := onnx.EncodeModel(m)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "model.onnx")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestCheckFileWithInputShapes: a Relu of an input without sizes leaves
// the profile (GR2) and its kernel to run time; with the input's shape
// given, the declaration is the given one and the kernel runs: inside.
func TestCheckFileWithInputShapes(t *testing.T) {
	path := writeModel(t, newModel(t, 14).input("x", tensor.Float, -1, 3).output("y", tensor.Float, -1, 3).
		node("Relu", names("x"), names("y")).build())
	rep, err := CheckFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict() != VerdictOutside || rep.InputShapes != nil {
		t.Fatalf("without shapes: %s", rep)
	}
	shapes := map[string][]graph.Dim{"x": {graph.Const(2), graph.Const(3)}}
	rep, err = CheckFileWith(path, &Options{InputShapes: shapes})
	if err != nil {
		t.Fatal(err)
	}
	// The output's declaration [?,3] still leaves a dimension without a
	// size (GR2); nothing else is left.
	for _, f := range rep.Findings {
		if f.Where.Kind != PlaceOutput || f.Rule != ruleGR2 {
			t.Errorf("with x=2,3: finding %s", f)
		}
	}
	if len(rep.Deferred) != 0 || rep.Checked != 1 || rep.InputShapes == nil || rep.ModelSHA256 == "" {
		t.Errorf("with x=2,3: %s (checked %d, shapes %v)", rep, rep.Checked, rep.InputShapes)
	}
	if !strings.Contains(rep.String(), `checked with the input shapes "x" [2 3] in place of the declared ones`) {
		t.Errorf("the text does not say the shapes assumed:\n%s", rep)
	}
	if _, err := CheckFileWith(path, &Options{InputShapes: map[string][]graph.Dim{"z": {graph.Const(1)}}}); err == nil ||
		!strings.Contains(err.Error(), `"z", which is no graph input`) {
		t.Errorf("a shape for no input: %v", err)
	}
}

// TestAdmittedListedOnce: two nodes of an operator whose specification is
// not transcribed (Conv) refer to the admitted operators, which the
// report lists once; and the node after a Conv whose only finding is a
// default left implicit (GR4) knows its input's shape from inference
// ([?,1,3,3], the batch unknown), not only its element type.
func TestAdmittedListedOnce(t *testing.T) {
	w := tensor.MustFromSlice(make([]float32, 9), 1, 1, 3, 3)
	m := newModel(t, 14).input("x", tensor.Float, -1, 1, 7, 7).output("z", tensor.Float, -1, 1, 3, 3).
		initializer("w", w).
		node("Conv", names("x", "w"), names("y")).
		node("Conv", names("y", "w"), names("c")).
		node("Relu", names("c"), names("z")).build()
	rep := CheckProto(m, "")
	text := rep.String()
	if n := strings.Count(text, "admitted operators (the profile's set with a transcribed specification): Abs, Add,"); n != 1 {
		t.Errorf("the admitted operators are listed %d times:\n%s", n, text)
	}
	if strings.Contains(text, "(admitted: ") || len(rep.Admitted) == 0 {
		t.Errorf("a line lists the admitted operators itself, or the report has none:\n%s", text)
	}
	relu := false
	for _, d := range rep.Deferred {
		if d.Op == "Relu" {
			relu = true
			if !strings.Contains(d.Reason, "tensor(float)[?,1,3,3]") {
				t.Errorf("the Relu after the Conv: %s", d)
			}
		}
	}
	if !relu {
		t.Errorf("the Relu of a batch of unknown size is not left to run time:\n%s", text)
	}
	if rep := CheckProto(insideModel(t), ""); rep.Admitted != nil || strings.Contains(rep.String(), "admitted operators") {
		t.Errorf("a model that refers to no admitted list prints one:\n%s", rep)
	}
}
