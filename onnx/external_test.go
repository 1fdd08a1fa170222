package onnx

import (
	"encoding/binary"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/tensor"
)

// externalProto is a float tensor of the given dims whose data is in an
// external file: keys are location, offset, length (empty strings omitted).
func externalProto(dims []int64, location, offset, length string) *pb.TensorProto {
	tp := &pb.TensorProto{DataType: ptr(int32(tensor.Float)), Dims: dims, DataLocation: pb.TensorProto_EXTERNAL.Enum()}
	for _, kv := range [][2]string{{"location", location}, {"offset", offset}, {"length", length}} {
		if kv[1] != "" {
			tp.ExternalData = append(tp.ExternalData, &pb.StringStringEntryProto{Key: ptr(kv[0]), Value: ptr(kv[1])})
		}
	}
	return tp
}

func floatsLE(v ...float32) []byte {
	b := make([]byte, 4*len(v))
	for i, f := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(f))
	}
	return b
}

func TestExternalData(t *testing.T) {
	dir := t.TempDir()
	// weights.bin: 8 bytes of padding, then 1 2 3, then -1 -2.
	data := append(append([]byte("padding!"), floatsLE(1, 2, 3)...), floatsLE(-1, -2)...)
	if err := os.WriteFile(filepath.Join(dir, "weights.bin"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "sub", "w.bin"), floatsLE(7), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		tp   *pb.TensorProto
		want []float32
	}{
		{"offset and length", externalProto([]int64{3}, "weights.bin", "8", "12"), []float32{1, 2, 3}},
		{"offset, no length: to the end", externalProto([]int64{1, 2}, "weights.bin", "20", ""), []float32{-1, -2}},
		{"length shorter than the rest", externalProto([]int64{2}, "weights.bin", "8", "8"), []float32{1, 2}},
		{"subfolder", externalProto([]int64{}, "sub/w.bin", "", ""), []float32{7}},
		{"subfolder, ./ prefix", externalProto([]int64{1}, "./sub/w.bin", "0", ""), []float32{7}},
		{"empty tensor at the end", externalProto([]int64{0}, "weights.bin", strconv.Itoa(len(data)), ""), []float32{}},
	}
	for _, tc := range tests {
		got, err := TensorFromProto(tc.tp, dir)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		shape := make([]int, len(tc.tp.Dims))
		for i, d := range tc.tp.Dims {
			shape[i] = int(d)
		}
		if want := tensor.MustFromSlice(tc.want, shape...); !got.Equal(want) {
			t.Errorf("%s: got %v, want %v", tc.name, got, want)
		}
	}
}

func TestExternalDataRefused(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "model")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	secret := filepath.Join(root, "secret.bin")
	if err := os.WriteFile(secret, floatsLE(42), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "w.bin"), floatsLE(1, 2), 0o644); err != nil {
		t.Fatal(err)
	}
	symlinks := true
	if err := os.Symlink(secret, filepath.Join(dir, "link.bin")); err != nil {
		symlinks = false
	}
	if err := os.Symlink(root, filepath.Join(dir, "up")); err != nil {
		symlinks = false
	}
	if err := os.Mkdir(filepath.Join(dir, "folder"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		tp      *pb.TensorProto
		want    string
		target  error
		symlink bool
	}{
		{"dot-dot", externalProto([]int64{1}, "../secret.bin", "", ""), `climbs out of the model folder with ".."`, ErrExternalPath, false},
		{"dot-dot inside", externalProto([]int64{1}, "sub/../../secret.bin", "", ""), `".."`, ErrExternalPath, false},
		{"backslash dot-dot", externalProto([]int64{1}, `..\secret.bin`, "", ""), `".."`, ErrExternalPath, false},
		{"absolute", externalProto([]int64{1}, secret, "", ""), "absolute path", ErrExternalPath, false},
		{"symlink to a file outside", externalProto([]int64{1}, "link.bin", "", ""), "external data location refused", ErrExternalPath, true},
		{"symlink to a folder outside", externalProto([]int64{1}, "up/secret.bin", "", ""), "external data location refused", ErrExternalPath, true},
		{"missing file", externalProto([]int64{1}, "nope.bin", "", ""), "nope.bin", nil, false},
		{"folder", externalProto([]int64{1}, "folder", "", ""), "not a regular file", nil, false},
		{"no location", externalProto([]int64{1}, "", "0", "4"), "no location", nil, false},
		{"bad offset", externalProto([]int64{1}, "w.bin", "-4", ""), `offset "-4" is not a non-negative integer`, nil, false},
		{"garbled length", externalProto([]int64{1}, "w.bin", "", "4x"), `length "4x"`, nil, false},
		{"length not matching dims", externalProto([]int64{1}, "w.bin", "", "8"), "length is 8 bytes, the tensor needs 4", tensor.ErrShape, false},
		{"offset past the end", externalProto([]int64{1}, "w.bin", "9", ""), "offset 9 is past the end", tensor.ErrShape, false},
		{"file too short", externalProto([]int64{3}, "w.bin", "", "12"), "holds 8 bytes from offset 0, the tensor needs 12", tensor.ErrShape, false},
		{"file too long without length", externalProto([]int64{1}, "w.bin", "", ""), "holds 8 bytes from offset 0, the tensor needs 4", tensor.ErrShape, false},
		{"huge dims", externalProto([]int64{math.MaxInt / 8}, "w.bin", "", ""), "the tensor needs " + strconv.Itoa(math.MaxInt/8*4), tensor.ErrShape, false},
	}
	for _, tc := range tests {
		if tc.symlink && !symlinks {
			t.Logf("%s: skipped, cannot make symbolic links here", tc.name)
			continue
		}
		got, err := TensorFromProto(tc.tp, dir)
		if err == nil {
			t.Errorf("%s: no error, got %v", tc.name, got)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %q does not say %q", tc.name, err, tc.want)
		}
		if tc.target != nil && !errors.Is(err, tc.target) {
			t.Errorf("%s: error %q does not wrap %v", tc.name, err, tc.target)
		}
	}

	// Packed and bool data, read through a buffer or straight into storage.
	if err := os.WriteFile(filepath.Join(dir, "small.bin"), []byte{0xF1, 0x08, 1, 0, 2}, 0o644); err != nil {
		t.Fatal(err)
	}
	typed := func(dt tensor.DataType, dims []int64, offset, length string) *pb.TensorProto {
		tp := externalProto(dims, "small.bin", offset, length)
		tp.DataType = ptr(int32(dt))
		return tp
	}
	got, err := TensorFromProto(typed(tensor.Int4, []int64{3}, "0", "2"), dir)
	if want := tensor.MustFromSlice([]tensor.I4{1, -1, -8}); err != nil || !got.Equal(want) {
		t.Errorf("external int4: got %v (%v), want %v", got, err, want)
	}
	got, err = TensorFromProto(typed(tensor.Bool, []int64{2}, "2", "2"), dir)
	if want := tensor.MustFromSlice([]bool{true, false}); err != nil || !got.Equal(want) {
		t.Errorf("external bool: got %v (%v), want %v", got, err, want)
	}
	if _, err := TensorFromProto(typed(tensor.Bool, []int64{3}, "2", ""), dir); err == nil || !strings.Contains(err.Error(), "bool element 2 is 2") {
		t.Errorf("external bool byte 2: %v", err)
	}

	// A symbolic link that stays inside the folder is followed.
	if symlinks {
		if err := os.Symlink("w.bin", filepath.Join(dir, "inside.bin")); err != nil {
			t.Fatal(err)
		}
		got, err := TensorFromProto(externalProto([]int64{2}, "inside.bin", "", ""), dir)
		if err != nil || !got.Equal(tensor.MustFromSlice([]float32{1, 2})) {
			t.Errorf("symlink inside the folder: got %v (%v)", got, err)
		}
	}

	// Data fields beside external data, and external string tensors.
	tp := externalProto([]int64{1}, "w.bin", "", "4")
	tp.RawData = floatsLE(1)
	if _, err := TensorFromProto(tp, dir); err == nil || !strings.Contains(err.Error(), "raw_data is set too") {
		t.Errorf("external plus raw_data: %v", err)
	}
	tp = externalProto([]int64{1}, "w.bin", "", "4")
	tp.DataType = ptr(int32(tensor.String))
	if _, err := TensorFromProto(tp, dir); err == nil || !strings.Contains(err.Error(), "string tensors cannot be stored as external data") {
		t.Errorf("external string tensor: %v", err)
	}
}
