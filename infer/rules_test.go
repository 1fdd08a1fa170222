package infer

import (
	"testing"

	"github.com/onnxshape/onnxshape/ops"
)

// TestEveryOperatorHasRule: every operator onnxshape runs has a shape rule,
// so that inference never needs a kernel to know a shape.
func TestEveryOperatorHasRule(t *testing.T) {
	for _, s := range ops.Schemas() {
		if !HasRule(s.Domain, s.Name) {
			t.Errorf("%s-%d (domain %q) has a kernel but no shape rule in package infer", s.Name, s.Since, s.Domain)
		}
	}
}
