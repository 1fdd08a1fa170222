package infer_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/onnxshape/onnxshape/infer"
)

// FuzzInfer: inference, folding and annotation of any bytes, through the
// entry points a user calls, end without a panic or a hang.
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
		opt := &infer.Options{MaxFoldBytes: 1 << 16}
		if _, err := infer.Bytes(t.Context(), b, "", opt); err != nil {
			return
		}
		folded, r, _, err := infer.Fold(t.Context(), b, "", opt)
		if err != nil {
			return
		}
		if _, err := infer.Annotate(folded, r); err != nil {
			t.Errorf("the folded model does not decode: %v", err)
		}
	})
}
