package onnx

import (
	"strings"
	"testing"

	"github.com/onnxshape/onnxshape/onnx/pb"
)

// onnxshape's protobuf messages register under names of their own, not
// ONNX's (onnx.ModelProto in onnx.proto), which gonnx and onnx-go register:
// the same name twice in one program panics at start-up (internal/peerlink
// links them together).
func TestProtoNamesAreOurOwn(t *testing.T) {
	d := (&pb.ModelProto{}).ProtoReflect().Descriptor()
	if got := string(d.FullName()); got != "onnxshape.onnx.ModelProto" {
		t.Errorf("ModelProto registers as %q", got)
	}
	if got := d.ParentFile().Path(); got == "onnx.proto" || !strings.HasPrefix(got, "onnxshape/") {
		t.Errorf("the file registers as %q", got)
	}
}
