package onnx

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/onnxshape/onnxshape/onnx/pb"
)

// nodeTestsDir is the folder of the ONNX node tests: $ONNXSHAPE_NODE_TESTS,
// or ../shared/onnx-node beside the repository.
func nodeTestsDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("ONNXSHAPE_NODE_TESTS")
	if dir == "" {
		dir = filepath.Join("..", "..", "shared", "onnx-node")
	}
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("ONNX node tests not found at %s (set ONNXSHAPE_NODE_TESTS): %v", dir, err)
	}
	return dir
}

// TestNodeTestFiles decodes every model and every input/output .pb file of
// the ONNX node tests, each .pb as the type of its graph input or output,
// and checks that the value fits that type and survives a round trip.
func TestNodeTestFiles(t *testing.T) {
	dir := nodeTestsDir(t)
	cases, err := filepath.Glob(filepath.Join(dir, "test_*"))
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(cases)
	var values int
	for _, c := range cases {
		m, err := ReadModel(filepath.Join(c, "model.onnx"))
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		pbs, _ := filepath.Glob(filepath.Join(c, "test_data_set_*", "*.pb"))
		for _, p := range pbs {
			base := filepath.Base(p)
			var typ *pb.TypeProto
			var idx int
			switch {
			case strings.HasPrefix(base, "input_"):
				if _, err := fmt.Sscanf(base, "input_%d.pb", &idx); err == nil && idx < len(m.Graph.Input) {
					typ = m.Graph.Input[idx].GetType()
				}
			case strings.HasPrefix(base, "output_"):
				if _, err := fmt.Sscanf(base, "output_%d.pb", &idx); err == nil && idx < len(m.Graph.Output) {
					typ = m.Graph.Output[idx].GetType()
				}
			}
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			v, name, err := DecodeValue(b, typ)
			if err != nil {
				t.Errorf("%s: %v", p, err)
				continue
			}
			values++
			if err := ValueMatchesType(v, typ); err != nil {
				t.Errorf("%s: %v", p, err)
			}
			enc, err := EncodeValue(v, name)
			if err != nil {
				t.Errorf("%s: encode: %v", p, err)
				continue
			}
			v2, name2, err := DecodeValue(enc, typ)
			if err != nil || name2 != name || !sameValue(v, v2) {
				t.Errorf("%s: round trip gave %v %q (%v), want %v %q", p, v2, name2, err, v, name)
			}
		}
	}
	if values == 0 {
		t.Errorf("no .pb files under %s", dir)
	}
	t.Logf("%d models, %d values decoded", len(cases), values)
}
