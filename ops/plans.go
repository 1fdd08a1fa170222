package ops

// Copy plans that several operators share. Each returns a copyPlan that
// fills a contiguous (row-major) output from a contiguous source; the
// operator only chooses the shapes.

// permutePlan returns the plan that writes the axes of a row-major source of
// shape src in the order perm: output axis k is source axis perm[k], so the
// output has shape permuted(src, perm). Transpose is one such plan;
// DepthToSpace and SpaceToDepth are one each, on a rank-6 view of their
// input. perm must be a permutation of [0, len(src)). The plan's axes are in
// output order, except that longInnerLoop may move one innermost.
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
	return longInnerLoop(p)
}

// shortInnerLoop is the length below which a plan's innermost axis is too
// short to stream: the copy engine tiles a transpose only from 8 elements
// on, and a loop of 2 or 3 elements spends its time on index arithmetic.
const shortInnerLoop = 8

// longInnerLoop returns p with the axis that the source walks contiguously
// moved innermost, when the destination's innermost axis is short and that
// axis is long. The loop then reads the source as a stream and writes with a
// small stride into output lines that stay in cache: DepthToSpace with
// blocksize 2 (innermost output axis of 2) and NCHW-to-NHWC with 3 channels
// run 2 to 4 times faster. The element mapping is unchanged: only the order
// of the walk moves.
func longInnerLoop(p copyPlan) copyPlan {
	last := len(p.shape) - 1
	for last >= 0 && p.shape[last] == 1 {
		last--
	}
	if last < 1 || p.shape[last] >= shortInnerLoop || p.srcStrides[last] == 1 {
		return p
	}
	for j := last - 1; j >= 0; j-- {
		if p.srcStrides[j] == 1 && p.shape[j] >= shortInnerLoop {
			q := copyPlan{dstOff: p.dstOff, srcOff: p.srcOff}
			for k := range p.shape {
				if k != j {
					q.shape = append(q.shape, p.shape[k])
					q.dstStrides = append(q.dstStrides, p.dstStrides[k])
					q.srcStrides = append(q.srcStrides, p.srcStrides[k])
				}
			}
			q.shape = append(q.shape, p.shape[j])
			q.dstStrides = append(q.dstStrides, p.dstStrides[j])
			q.srcStrides = append(q.srcStrides, p.srcStrides[j])
			return q
		}
	}
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
