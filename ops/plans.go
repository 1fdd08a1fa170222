package ops

// Copy plans that several operators share. Each returns a copyPlan that
// fills a contiguous (row-major) output from a contiguous source; the
// operator only chooses the shapes.

// permutePlan returns the plan that writes the axes of a row-major source of
// shape src in the order perm: output axis k is source axis perm[k], so the
// output has shape permuted(src, perm). Transpose is one such plan;
// DepthToSpace and SpaceToDepth are one each, on a rank-6 view of their
// input. perm must be a permutation of [0, len(src)). The plan's axes are in
// output order.
func permutePlan(src, perm []int) copyPlan {
	srcStrides := contiguousStrides(src)
	p := copyPlan{
		shape:      permuted(src, perm),
		srcStrides: make([]int, len(perm)),
	}
	for k, a := range perm {
		p.srcStrides[k] = srcStrides[a]
	}
	p.dstStrides = contiguousStrides(p.shape)
	return p
}

// permuted returns shape with its axes in the order perm.
func permuted(shape, perm []int) []int {
	out := make([]int, len(perm))
	for k, a := range perm {
		out[k] = shape[a]
	}
	return out
}

// broadcastPlan returns the plan that fills an output of shape out from a
// row-major source of shape in that broadcasts to it (numpy rules: aligned at
// the end, each dim of in equal to that of out or 1). A broadcast axis, and
// an axis that in lacks, has source stride 0, so every output element reads
// its one source element without any index arithmetic per element.
func broadcastPlan(in, out []int) copyPlan {
	inStrides := contiguousStrides(in)
	p := copyPlan{
		shape:      append([]int{}, out...),
		dstStrides: contiguousStrides(out),
		srcStrides: make([]int, len(out)),
	}
	for k := range out {
		j := k - (len(out) - len(in))
		if j >= 0 && in[j] == out[k] {
			p.srcStrides[k] = inStrides[j]
		}
	}
	return p
}
