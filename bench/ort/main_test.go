//go:build ort

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/onnxshape/onnxshape/bench"
	"github.com/onnxshape/onnxshape/conformance"
	ort "github.com/yalue/onnxruntime_go"
)

// TestMain loads onnxruntime once; without it (scripts/ort-setup.sh not
// run) the tests are skipped, not failed.
func TestMain(m *testing.M) {
	ort.SetSharedLibraryPath(defaultLib())
	if err := ort.InitializeEnvironment(ort.WithLogLevelError()); err != nil {
		println("onnxruntime not available (run scripts/ort-setup.sh):", err.Error())
		os.Exit(0)
	}
	code := m.Run()
	ort.DestroyEnvironment()
	os.Exit(code)
}

// Small standard cases run through both engines, and the differential check
// finds them equal.
func TestBothEnginesAgree(t *testing.T) {
	dir := t.TempDir()
	for _, s := range bench.Standards() {
		switch s.Name {
		case "unsqueeze", "maxunpool_2x2_s2", "maxpool_3x3_s2_p1_indices", "transpose_nchw_nhwc", "chain_small_40":
			if err := s.Write(dir, 1); err != nil {
				t.Fatal(err)
			}
		}
	}
	dirs, err := conformance.FindCases(dir)
	if err != nil || len(dirs) != 5 {
		t.Fatalf("FindCases: %v %v", dirs, err)
	}
	mo := bench.MeasureOptions{Runs: 1}
	var rows []row
	for _, d := range dirs {
		c, err := bench.ReadCase(d)
		if err != nil {
			t.Fatal(err)
		}
		// Two rounds, so that the turns of the engines are tested too.
		r := measureCase(c, 1, 2, mo)
		if r.ours.Err != nil || r.pooled.Err != nil {
			t.Fatalf("%s: onnxshape: %v %v", c.Name, r.ours.Err, r.pooled.Err)
		}
		if r.ortErr != nil {
			t.Fatalf("%s: onnxruntime: %v", c.Name, r.ortErr)
		}
		r.check = differential(c, r.ours, r.ortOutputs, r.ortErr)
		if r.check != "same" {
			t.Errorf("%s: %s", c.Name, r.check)
		}
		for _, v := range r.ortOutputs {
			v.Destroy()
		}
		rows = append(rows, r)
	}
	var b strings.Builder
	writeTable(&b, rows)
	if !strings.Contains(b.String(), "| "+filepath.Base(dirs[0])+" |") {
		t.Errorf("table lacks %s:\n%s", filepath.Base(dirs[0]), b.String())
	}
}
