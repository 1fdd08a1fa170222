package infer_test

import (
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/onnxshape/onnxshape/infer"
	"github.com/onnxshape/onnxshape/onnx"
	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/tensor"
	"google.golang.org/protobuf/proto"
)

// nodeTestDirs returns the folders of the ONNX node tests (../shared
// beside the repository), skipping the test when they are not there.
func nodeTestDirs(t testing.TB) []string {
	root := filepath.Join("..", "..", "shared", "onnx-node")
	dirs, _ := filepath.Glob(filepath.Join(root, "*", "model.onnx"))
	if len(dirs) == 0 {
		t.Skipf("no ONNX node tests under %s", root)
	}
	for i := range dirs {
		dirs[i] = filepath.Dir(dirs[i])
	}
	sort.Strings(dirs)
	return dirs
}

// stripDeclared removes what the model declares of its outputs and
// intermediate values, so that only the rules speak.
func stripDeclared(m *pb.ModelProto) *pb.ModelProto {
	m = proto.Clone(m).(*pb.ModelProto)
	m.Graph.ValueInfo = nil
	for _, o := range m.Graph.Output {
		o.Type = nil
	}
	return m
}

// TestNodeTestShapes infers every node test model with its declared output
// types removed: wherever inference gives a static shape, it is the shape
// of the expected output, and its element type is the output's type.
func TestNodeTestShapes(t *testing.T) {
	dirs := nodeTestDirs(t)
	var static, symbolic, unknown, mismatched int
	for _, dir := range dirs {
		m, err := onnx.ReadModel(filepath.Join(dir, "model.onnx"))
		if err != nil {
			continue
		}
		r, err := infer.Proto(t.Context(), stripDeclared(m), dir, nil)
		if err != nil {
			t.Errorf("%s: %v", filepath.Base(dir), err)
			continue
		}
		for k, o := range m.Graph.Output {
			b, err := os.ReadFile(filepath.Join(dir, "test_data_set_0", "output_"+strconv.Itoa(k)+".pb"))
			if err != nil {
				continue
			}
			want, _, err := onnx.DecodeValue(b, o.GetType())
			if err != nil {
				continue
			}
			wt, ok := want.(*tensor.Tensor)
			if !ok {
				continue
			}
			got, err := r.Value(o.GetName())
			switch {
			case err != nil || got.Rank() < 0:
				unknown++
				continue
			}
			shape, isStatic := got.Static()
			if !isStatic {
				symbolic++
				if got.Rank() != wt.Rank() {
					mismatched++
					t.Errorf("%s: output %q: inferred %v, expected rank %d", filepath.Base(dir), o.GetName(), got, wt.Rank())
				}
				continue
			}
			static++
			if !tensor.SameShape(shape, wt.Shape()) || (got.Type != tensor.Undefined && got.Type != wt.DataType()) {
				mismatched++
				t.Errorf("%s: output %q: inferred %v, expected %v", filepath.Base(dir), o.GetName(), got, wt.Describe())
			}
		}
	}
	t.Logf("%d models: %d outputs of static shape, %d symbolic, %d unknown, %d wrong", len(dirs), static, symbolic, unknown, mismatched)
}

// TestNodeTestDeclared infers the node test models as they are: no
// inferred shape contradicts a declared one.
func TestNodeTestDeclared(t *testing.T) {
	for _, dir := range nodeTestDirs(t) {
		m, err := onnx.ReadModel(filepath.Join(dir, "model.onnx"))
		if err != nil {
			continue
		}
		r, err := infer.Proto(t.Context(), m, dir, nil)
		if err != nil {
			t.Errorf("%s: %v", filepath.Base(dir), err)
			continue
		}
		for _, p := range r.Problems {
			if strings.Contains(p.Msg, "declared") {
				t.Errorf("%s: %v", filepath.Base(dir), p)
			}
		}
	}
}
