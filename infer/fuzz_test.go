package infer_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/onnxshape/onnxshape/infer"
	"github.com/onnxshape/onnxshape/onnx"
)

// FuzzInfer: inference and folding of any decodable model end without a
// panic or a hang.
func FuzzInfer(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("testdata", "*.onnx"))
	for _, p := range seeds {
		// Small seeds only: the fuzzer minimizes what it finds, slowly for
		// models with weights.
		if b, err := os.ReadFile(p); err == nil && len(b) < 4096 {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		timer := time.AfterFunc(10*time.Second, func() { panic("inference takes more than 10 s") })
		defer timer.Stop()
		m, err := onnx.DecodeModel(b)
		if err != nil {
			return
		}
		opt := &infer.Options{MaxFoldBytes: 1 << 16}
		if _, err := infer.Proto(t.Context(), m, "", opt); err != nil {
			return
		}
		folded, r, _, err := infer.FoldProto(t.Context(), m, "", opt)
		if err != nil {
			return
		}
		infer.AnnotateProto(folded, r)
	})
}
