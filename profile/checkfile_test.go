package profile_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/onnx"
	"github.com/onnxshape/onnxshape/profile"
)

func TestCheckFile(t *testing.T) {
	rep, err := profile.CheckFile("../examples/letterbox.onnx")
	if err != nil {
		t.Fatal(err)
	}
	mp, err := onnx.ReadModel("../examples/letterbox.onnx")
	if err != nil {
		t.Fatal(err)
	}
	if want := profile.Check(mp, "../examples"); rep.String() != want.String() {
		t.Errorf("CheckFile:\n%s\nCheck:\n%s", rep, want)
	}

	if _, err := profile.CheckFile("testdata/no-such-model.onnx"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
	garbage := filepath.Join(t.TempDir(), "garbage.onnx")
	if err := os.WriteFile(garbage, []byte("not a model"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := profile.CheckFile(garbage); !errors.Is(err, graph.ErrInvalidModel) {
		t.Errorf("garbage: %v", err)
	}
}

// A nil Report answers every method: nothing was checked, so it is
// undecided, neither inside nor outside.
func TestNilReport(t *testing.T) {
	var r *profile.Report
	if r.Verdict() != profile.VerdictUndecided || r.Inside() || r.Outside() || r.Summary() == "" || r.String() == "" {
		t.Errorf("nil report: %q %v %v %q %q", r.Verdict(), r.Inside(), r.Outside(), r.Summary(), r.String())
	}
}
