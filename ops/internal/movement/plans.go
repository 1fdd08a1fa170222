package movement

// Copy plans that several operators share. Each returns a Plan that
// fills a contiguous (row-major) output from a contiguous source; the
// operator only chooses the shapes.

// PermutePlan returns the plan that writes the axes of a row-major source of
// shape src in the order perm: output axis k is source axis perm[k], so the
// output has shape permuted(src, perm). Transpose is one such plan;
// DepthToSpace and SpaceToDepth are one each, on a rank-6 view of their
// input. perm must be a permutation of [0, len(src)). The plan's axes are in
// output order.
func PermutePlan(src, perm []int) Plan {
	srcStrides := ContiguousStrides(src)
	p := Plan{
		Shape:      Permuted(src, perm),
		SrcStrides: make([]int, len(perm)),
	}
	for k, a := range perm {
		p.SrcStrides[k] = srcStrides[a]
	}
	p.DstStrides = ContiguousStrides(p.Shape)
	return p
}

// Permuted returns shape with its axes in the order perm.
func Permuted(shape, perm []int) []int {
	out := make([]int, len(perm))
	for k, a := range perm {
		out[k] = shape[a]
	}
	return out
}

// BroadcastPlan returns the plan that fills an output of shape out from a
// row-major source of shape in that broadcasts to it (numpy rules: aligned at
// the end, each dim of in equal to that of out or 1). A broadcast axis, and
// an axis that in lacks, has source stride 0, so every output element reads
// its one source element without any index arithmetic per element.
func BroadcastPlan(in, out []int) Plan {
	inStrides := ContiguousStrides(in)
	p := Plan{
		Shape:      append([]int{}, out...),
		DstStrides: ContiguousStrides(out),
		SrcStrides: make([]int, len(out)),
	}
	for k := range out {
		j := k - (len(out) - len(in))
		if j >= 0 && in[j] == out[k] {
			p.SrcStrides[k] = inStrides[j]
		}
	}
	return p
}
