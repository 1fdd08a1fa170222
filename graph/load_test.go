package graph_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/onnx"
	"github.com/onnxshape/onnxshape/onnx/pb"
)

func TestLoadWithCaps(t *testing.T) {
	spec := unsqueezeChain()
	spec.inits = append(spec.inits, floats("w", []int64{300}, make([]float32, 300)...))
	dir := t.TempDir()
	path := filepath.Join(dir, "model.onnx")
	b := spec.bytes(t)
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := graph.LoadWith(path, graph.LoadOptions{}); err != nil {
		t.Fatalf("default caps: %v", err)
	}
	tests := []struct {
		name string
		o    graph.LoadOptions
	}{
		{"file above MaxModelBytes", graph.LoadOptions{MaxModelBytes: int64(len(b)) - 1}},
		{"initializer above MaxTensorBytes", graph.LoadOptions{MaxTensorBytes: 1199}},
	}
	for _, tc := range tests {
		if _, err := graph.LoadWith(path, tc.o); !errors.Is(err, onnx.ErrTooLarge) {
			t.Errorf("%s: %v, want onnx.ErrTooLarge", tc.name, err)
		}
		if _, err := graph.LoadBytesWith(b, dir, tc.o); !errors.Is(err, onnx.ErrTooLarge) {
			t.Errorf("%s, from memory: %v, want onnx.ErrTooLarge", tc.name, err)
		}
	}
	if _, err := graph.LoadWith(path, graph.LoadOptions{MaxTensorBytes: 1200}); err != nil {
		t.Errorf("initializer at the cap: %v", err)
	}
}

func TestLoadRefusesSpecialFiles(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero here")
	}
	if _, err := graph.Load("/dev/zero"); !errors.Is(err, onnx.ErrNotRegular) {
		t.Errorf("/dev/zero: %v, want onnx.ErrNotRegular", err)
	}
}

// A 3 GiB sparse external file is refused from the tensor's dims under a
// 1000-byte cap, without being read.
func TestLoadExternalDataCapped(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "w.bin")
	if err := os.WriteFile(data, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(data, 3<<30); err != nil {
		t.Skip("no sparse files here:", err)
	}
	w := &pb.TensorProto{Name: proto.String("w"), Dims: []int64{3 << 28}, DataType: proto.Int32(1),
		DataLocation: pb.TensorProto_EXTERNAL.Enum(),
		ExternalData: []*pb.StringStringEntryProto{{Key: proto.String("location"), Value: proto.String("w.bin")}}}
	spec := unsqueezeChain()
	spec.inits = append(spec.inits, w)
	path := filepath.Join(dir, "model.onnx")
	if err := os.WriteFile(path, spec.bytes(t), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := graph.LoadWith(path, graph.LoadOptions{MaxTensorBytes: 1000}); !errors.Is(err, onnx.ErrTooLarge) {
		t.Errorf("3 GiB external initializer, cap 1000: %v, want onnx.ErrTooLarge", err)
	}
}
