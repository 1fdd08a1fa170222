package ops

// Rules every operator follows under ProfileSONNX that no single operator's
// specification states.

// sonnxPositiveDims is the rule id of positiveDims.
const sonnxPositiveDims = "DIMS" // as profile and docs/sonnx.md name it

// positiveDims refuses, under ProfileSONNX, a tensor with a zero dimension:
// the working group's formal specification gives every tensor positive
// dimensions (the invariant "positive dims" of the Tensor type in
// formal/common/libs/tensor/tensor.mlw), so an empty input or output is
// outside the profile, and the profile refuses what it leaves undefined.
// what names the tensor ("input X", "output").
func (o *Options) positiveDims(op opRef, what string, shape []int) error {
	if o.orDefault().Profile != ProfileSONNX {
		return nil
	}
	for k, d := range shape {
		if d <= 0 {
			return op.errorf(sonnxPositiveDims, "%s has shape %v: dimension %d is %d, and the profile's tensors have positive dimensions", what, shape, k, d)
		}
	}
	return nil
}
