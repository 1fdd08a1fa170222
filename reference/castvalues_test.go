package reference

import (
	"testing"

	"github.com/onnxshape/onnxshape/tensor"
)

// nearestCode searches each small float format's values by bisection:
// the list must come out of valuesOf in strictly increasing order.
func TestValueListsIncrease(t *testing.T) {
	for _, dt := range []tensor.DataType{tensor.Float16, tensor.BFloat16, tensor.Float8E4M3FN, tensor.Float8E4M3FNUZ,
		tensor.Float8E5M2, tensor.Float8E5M2FNUZ, tensor.Float4E2M1} {
		l := valuesOf(dt)
		if len(l.values) == 0 || len(l.values) != len(l.codes) {
			t.Fatalf("%v: %d values, %d codes", dt, len(l.values), len(l.codes))
		}
		for i := 1; i < len(l.values); i++ {
			if !(l.values[i-1] < l.values[i]) {
				t.Fatalf("%v: value %d (%v, code %#x) is not below value %d (%v, code %#x)", dt, i-1, l.values[i-1], l.codes[i-1], i, l.values[i], l.codes[i])
			}
		}
	}
}
