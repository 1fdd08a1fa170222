package movement

// BoxPlan is a copy plan shared by the operators that move a rectangular
// box between two row-major tensors: Concat (each input is a box of the
// output), Split (each output is a box of the input), Slice (a strided box
// of the input) and CenterCropPad (a box of the input into a box of the
// output). Pad's interior has the same form (pad.go builds it itself today),
// and the file could join plans.go, the other shared plans.
//
// It copies count[k] elements on each axis k, read from a source of shape src
// starting at srcStart[k] and stepping by srcStep[k] (negative steps walk
// backwards), and written to a destination of shape dst starting at
// dstStart[k], one after another. A nil srcStart or dstStart is the origin; a
// nil srcStep is 1 on every axis.
func BoxPlan(count, src, srcStart, srcStep, dst, dstStart []int) Plan {
	p := Plan{
		Shape:      append([]int{}, count...),
		DstStrides: ContiguousStrides(dst),
		SrcStrides: ContiguousStrides(src),
	}
	for _, n := range count {
		if n == 0 {
			return p // moves nothing; the starts may lie past the end
		}
	}
	for k := range count {
		if srcStart != nil {
			p.SrcOff += srcStart[k] * p.SrcStrides[k]
		}
		if dstStart != nil {
			p.DstOff += dstStart[k] * p.DstStrides[k]
		}
		if srcStep != nil && count[k] > 1 {
			p.SrcStrides[k] *= srcStep[k]
		}
	}
	return p
}
