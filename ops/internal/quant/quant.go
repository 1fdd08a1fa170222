// Package quant is the linear quantization engine of QuantizeLinear and
// DequantizeLinear (package ops): which element of scale and zero_point
// serves each element of x (Layout), and the fast loops for the common
// cases; the requantization of QLinearConv's and QLinearMatMul's int32
// sums to 8 bits (requant.go); and the 8-bit kernels of the fused QDQ
// chains: the residual addition (add.go) and MaxPool's rows (pool.go). A scale (and zero_point, of the same shape) is one of
//   - per tensor: a scalar or a one-element tensor;
//   - per axis: a 1-D tensor of x's dim on axis;
//   - blocked (block_size > 0, versions 21 on): x's shape but
//     ceil(dim/block_size) on axis, one value per block of block_size
//     positions along it.
//
// It never checks an operator's rules (the operators in ops do), never
// writes into an input, allocates nothing (the caller sizes and charges
// the output) and must not import ops.
package quant

// Layout maps elements of x to elements of scale.
type Layout struct {
	Dim, Inner int // x's dim on axis, and the elements after axis
	Block      int // block_size, 0 unless blocked
	PerTensor  bool
}

// ScaleIndex is the element of scale (and zero_point) that serves element
// i of x.
func (q Layout) ScaleIndex(i int) int {
	switch {
	case q.PerTensor:
		return 0
	case q.Block == 0:
		return i / q.Inner % q.Dim
	}
	outer, a, in := i/(q.Inner*q.Dim), i/q.Inner%q.Dim, i%q.Inner
	blocks := (q.Dim + q.Block - 1) / q.Block
	return (outer*blocks+a/q.Block)*q.Inner + in
}
