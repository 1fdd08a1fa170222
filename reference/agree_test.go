package reference_test

import (
	"math"
	"testing"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/reference"
	"github.com/onnxshape/onnxshape/tensor"
)

// Agree is bit for bit, except for linear and cubic Resize, where it takes
// the stated bound and not more.
func TestAgree(t *testing.T) {
	one := func(v ...float32) []tensor.Value { return []tensor.Value{tensor.MustFromSlice(v, len(v))} }
	transpose := &ops.Node{OpType: "Transpose", Version: 21}
	if err := reference.Agree(transpose, one(1, 2), one(1, 2), one(1, 2)); err != nil {
		t.Fatal(err)
	}
	if reference.Agree(transpose, one(1, 2), one(1, 2), one(1, math.Nextafter32(2, 3))) == nil {
		t.Fatal("Transpose: a difference of one ulp is accepted")
	}
	if reference.Agree(transpose, one(0), one(0), one(float32(math.Copysign(0, -1)))) == nil {
		t.Fatal("Transpose: -0 is accepted for 0")
	}
	nearest := &ops.Node{OpType: "Resize", Version: 19, Attrs: map[string]ops.Attribute{"mode": {Type: ops.AttrString, String: "nearest"}}}
	if reference.Agree(nearest, one(1, 2), one(1, 2), one(1, math.Nextafter32(2, 3))) == nil {
		t.Fatal("nearest Resize: a difference of one ulp is accepted")
	}
	// Linear, rank 1, max |x| = 8: the bound is 2 * 4 * 2^-24 * 8 = 2^-18.
	linear := &ops.Node{OpType: "Resize", Version: 19, Attrs: map[string]ops.Attribute{"mode": {Type: ops.AttrString, String: "linear"}}}
	x := one(8, -3)
	if err := reference.Agree(linear, x, one(5, 4+0x1p-19), one(5, 4)); err != nil {
		t.Fatalf("linear Resize within the bound: %v", err)
	}
	if reference.Agree(linear, x, one(5, 4+0x1p-16), one(5, 4)) == nil {
		t.Fatal("linear Resize: a difference above the bound is accepted")
	}
	if reference.Agree(linear, x, one(5, float32(math.NaN())), one(5, 4)) == nil {
		t.Fatal("linear Resize: NaN is accepted for a number")
	}
	// Integer outputs: within 1.
	bytes := func(v ...uint8) []tensor.Value { return []tensor.Value{tensor.MustFromSlice(v, len(v))} }
	if err := reference.Agree(linear, bytes(3, 9), bytes(4, 7), bytes(4, 8)); err != nil {
		t.Fatalf("uint8 within 1: %v", err)
	}
	if reference.Agree(linear, bytes(3, 9), bytes(4, 6), bytes(4, 8)) == nil {
		t.Fatal("uint8: a difference of 2 is accepted")
	}
	if reference.Agree(linear, x, one(5), one(5, 4)) == nil {
		t.Fatal("shapes that differ are accepted")
	}
}
