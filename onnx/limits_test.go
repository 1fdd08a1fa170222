package onnx

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/onnxshape/onnxshape/internal/safefile"
	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/tensor"
)

// modelWith returns a model whose graph holds the given initializers.
func modelWith(inits ...*pb.TensorProto) *pb.ModelProto {
	return &pb.ModelProto{
		IrVersion:   ptr(int64(8)),
		OpsetImport: []*pb.OperatorSetIdProto{{Version: ptr(int64(13))}},
		Graph:       &pb.GraphProto{Name: ptr("g"), Initializer: inits},
	}
}

func encodeModel(t *testing.T, m *pb.ModelProto) []byte {
	t.Helper()
	b, err := EncodeModel(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestReadFileRefusesSpecialFiles(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err == nil {
		_, err := safefile.Read("/dev/zero", 1<<20)
		if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "a device") {
			t.Errorf("/dev/zero: %v, want ErrNotRegular naming a device", err)
		}
	}
	_, err := safefile.Read(t.TempDir(), -1)
	if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "a folder") {
		t.Errorf("a folder: %v, want ErrNotRegular", err)
	}
}

func TestReadFileCap(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, []byte("0123456789"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := safefile.Read(path, 10); err != nil || string(b) != "0123456789" {
		t.Errorf("at the cap: %q, %v", b, err)
	}
	if _, err := safefile.Read(path, 9); !errors.Is(err, ErrTooLarge) {
		t.Errorf("above the cap: %v, want ErrTooLarge", err)
	}
	// A sparse file far above the cap is refused from its size, unread.
	big := filepath.Join(t.TempDir(), "big")
	if err := os.WriteFile(big, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(big, 3<<30); err != nil {
		t.Skip("no sparse files here:", err)
	}
	if _, err := ReadModelWith(big, &Limits{MaxModelBytes: 1 << 20}); !errors.Is(err, ErrTooLarge) {
		t.Errorf("3 GiB model with a 1 MiB cap: %v, want ErrTooLarge", err)
	}
}

func TestDecodeRefusesAmplifyingEntries(t *testing.T) {
	// Empty initializer entries: two bytes each in the file, a TensorProto
	// struct and a slice slot each once decoded.
	const entries = 1 << 16
	graph := []byte{0x12, 0x01, 'g'} // name (field 2)
	for range entries {
		graph = append(graph, 0x2a, 0x00) // initializer (field 5), empty
	}
	model := []byte{0x08, 0x08}              // ir_version 8
	model = append(model, 0x3a)              // graph (field 7)
	model = appendVarint(model, len(graph))  // its length
	model = append(model, graph...)          //
	limit := &Limits{MaxModelBytes: 4 << 20} // 32 times the file
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := DecodeModelWith(model, limit)
	runtime.ReadMemStats(&after)
	if !errors.Is(err, ErrTooLarge) {
		t.Fatalf("128 KiB of empty initializers under a 4 MiB cap: %v, want ErrTooLarge", err)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
		t.Errorf("refusing allocated %d bytes", grew)
	}
	// The same file within a cap large enough decodes.
	m, err := DecodeModelWith(model, &Limits{MaxModelBytes: -1})
	if err != nil || len(m.GetGraph().GetInitializer()) != entries {
		t.Fatalf("no cap: %v", err)
	}
}

func appendVarint(b []byte, v int) []byte {
	for v >= 0x80 {
		b = append(b, byte(v)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
}

func TestDecodeEstimateCoversRealModels(t *testing.T) {
	// A plain model of inline weights decodes within a cap of a little
	// over its own size: the estimate is not wildly pessimistic.
	raw := make([]byte, 4<<20)
	m := modelWith(&pb.TensorProto{Name: ptr("w"), DataType: ptr(int32(tensor.Float)), Dims: []int64{1 << 20}, RawData: raw},
		&pb.TensorProto{Name: ptr("f"), DataType: ptr(int32(tensor.Float)), Dims: []int64{1 << 18}, FloatData: make([]float32, 1<<18)})
	b := encodeModel(t, m)
	if _, err := DecodeModelWith(b, &Limits{MaxModelBytes: int64(len(b)) + 1<<20}); err != nil {
		t.Errorf("a model of %d bytes: %v", len(b), err)
	}
}

func TestCheckTensorSizes(t *testing.T) {
	f := func(name string, dims ...int64) *pb.TensorProto {
		return &pb.TensorProto{Name: ptr(name), DataType: ptr(int32(tensor.Float)), Dims: dims,
			DataLocation: pb.TensorProto_EXTERNAL.Enum(),
			ExternalData: []*pb.StringStringEntryProto{{Key: ptr("location"), Value: ptr("w.bin")}}}
	}
	tests := []struct {
		name  string
		model *pb.ModelProto
		limit Limits
		want  string // "" for no error
	}{
		{"within", modelWith(f("a", 250), f("b", 250)), Limits{MaxTensorBytes: 1000, MaxModelBytes: 2000}, ""},
		{"one tensor above", modelWith(f("a", 251)), Limits{MaxTensorBytes: 1000}, `initializer "a"`},
		{"sum above", modelWith(f("a", 250), f("b", 250), f("c", 1)), Limits{MaxModelBytes: 2000}, `initializer "c"`},
		{"3 GiB declared", modelWith(f("big", 3<<28)), Limits{MaxTensorBytes: 1000}, "above the limit of 1000"},
		{"no caps", modelWith(f("big", 3<<28)), Limits{MaxTensorBytes: -1, MaxModelBytes: -1}, ""},
		{"attribute", &pb.ModelProto{Graph: &pb.GraphProto{Node: []*pb.NodeProto{{OpType: ptr("Constant"),
			Attribute: []*pb.AttributeProto{{Name: ptr("value"), T: f("v", 1000)}}}}}},
			Limits{MaxTensorBytes: 1000}, "attribute value of node #0 (Constant)"},
		{"strings", modelWith(&pb.TensorProto{Name: ptr("s"), DataType: ptr(int32(tensor.String)), Dims: []int64{2},
			StringData: [][]byte{make([]byte, 100), nil}}), Limits{MaxTensorBytes: 131}, `initializer "s"`},
	}
	for _, tc := range tests {
		err := checkTensorSizes(tc.model, &tc.limit)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want != "" && (!errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: %v, want ErrTooLarge with %q", tc.name, err, tc.want)
		}
	}
}

func TestExternalDataCappedBeforeReading(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "w.bin")
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, 3<<30); err != nil {
		t.Skip("no sparse files here:", err)
	}
	tp := externalProto([]int64{3 << 28}, "w.bin", "", "")
	tp.Name = ptr("big")
	b := encodeModel(t, modelWith(tp))
	modelPath := filepath.Join(dir, "model.onnx")
	if err := os.WriteFile(modelPath, b, 0o644); err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := ReadModelWith(modelPath, &Limits{MaxTensorBytes: 1000})
	runtime.ReadMemStats(&after)
	if !errors.Is(err, ErrTooLarge) {
		t.Fatalf("3 GiB of external data, cap 1000: %v, want ErrTooLarge", err)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
		t.Errorf("refusing allocated %d bytes", grew)
	}
}

// On little-endian machines a tensor's raw_data is its storage: decoding a
// 4 MiB weight does not copy it.
func TestRawDataShared(t *testing.T) {
	if !nativeLittleEndian {
		t.Skip("big-endian machines reorder the bytes")
	}
	tp := &pb.TensorProto{DataType: ptr(int32(tensor.Float)), Dims: []int64{1 << 20}, RawData: make([]byte, 4<<20)}
	tp.RawData[7] = 0x80 // -0 at element 1 (little-endian: sign bit in byte 7)
	var x *tensor.Tensor
	var err error
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	x, err = TensorFromProto(tp, "")
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 64<<10 {
		t.Errorf("decoding 4 MiB of raw_data allocated %d bytes", grew)
	}
	if v, _ := tensor.Data[float32](x); len(v) != 1<<20 || v[1] != 0 || !math.Signbit(float64(v[1])) {
		t.Errorf("element 1 is %v, want -0", v[1])
	}
	// Bools are still checked.
	bad := &pb.TensorProto{DataType: ptr(int32(tensor.Bool)), Dims: []int64{2}, RawData: []byte{1, 2}}
	if _, err := TensorFromProto(bad, ""); !errors.Is(err, tensor.ErrType) {
		t.Errorf("bool byte 2: %v, want ErrType", err)
	}
}
