package profile

import (
	"testing"

	"github.com/onnxshape/onnxshape/onnx"
	"github.com/onnxshape/onnxshape/onnx/pb"
)

// FuzzCheck feeds Check with decoded model bytes: whatever the model says,
// Check must return a report, never panic, and never call a model with a
// finding inside the profile.
func FuzzCheck(f *testing.F) {
	add := func(m *pb.ModelProto) {
		b, err := onnx.EncodeModel(m)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	add(insideModel(f))
	for _, key := range sortedKeys(violations) {
		add(violations[key].model(f))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := onnx.DecodeModel(data)
		if err != nil {
			return
		}
		rep := CheckProto(m, "")
		if rep.Outside() != (len(rep.Findings) > 0) || rep.Inside() != (len(rep.Findings) == 0 && len(rep.Deferred) == 0) {
			t.Fatalf("Inside() or Outside() disagrees with %d findings, %d deferred", len(rep.Findings), len(rep.Deferred))
		}
		for _, f := range rep.Findings {
			if f.Rule == "" || f.Message == "" || f.Fix == "" || f.Where.Kind == "" {
				t.Fatalf("incomplete finding %+v", f)
			}
		}
	})
}
