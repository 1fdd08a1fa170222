// ArgMin returns the index along axis of the smallest element of each slice
// of data, as int64; keepdims keeps the axis with length 1. The first such
// index, or with select_last_index the last. A NaN counts as the smallest
// element (the first NaN, or the last with select_last_index), as numpy's
// argmin does. An axis of length 0 is an error: there is no index to give.
// The attributes and the kernel are shared with ArgMax (argmax.go).
//
// Versions: 1, 11 (the range [-r, r-1] stated; negative axes are taken in
// every version, as PyTorch exports them), 12 (select_last_index), 13
// (bfloat16). Types: every integer of 8 to 64 bits, float16, float, double,
// bfloat16.

package ops

var argMinOp = argOperator{name: "ArgMin", max: false}

func init() { registerArg(argMinOp) }
