package reference

import "iter"

// sumLanes is the one order in which every reduction adds its terms: the
// Reduce* sums (ReduceSum, ReduceMean, ReduceSumSquare, ReduceL1,
// ReduceL2, ReduceLogSum, ReduceLogSumExp), GlobalAveragePool and
// GlobalLpPool, and the denominators of Softmax and LogSoftmax. ONNX does
// not fix an order; onnxshape fixes this one so that a sum has the same
// bits on every machine and in both engines, and so that a vector unit of
// sixteen lanes adds a row at full speed:
//
//   - term k (terms in row-major order of the reduced elements) is added,
//     in order, to partial sum k mod 16, each partial starting at 0;
//   - the partials are added by halves: p[j] += p[j+8] for j < 8, then
//     p[j] += p[j+4] for j < 4, then p[j] += p[j+2], then p[0] += p[1],
//     and p[0] is the sum.
//
// From 0, no partial is ever -0 (x + y is -0 only when both are), so the
// sum of zeros is +0 as a sum from 0 in order is, and a vector unit may
// fill the lanes past a row's end with +0.
//
// Integer sums wrap, so their order does not change them.
func sumLanes[A computeNumber](v iter.Seq[A]) A {
	return sumLanesOf(v, func(x A) A { return x })
}

// sumLanesOf is sumLanes of term(x) for the elements x of v, each term
// rounded to A before it is added.
func sumLanesOf[A computeNumber](v iter.Seq[A], term func(A) A) A {
	var p [16]A
	k := 0
	for x := range v {
		p[k%16] += term(x)
		k++
	}
	for half := 8; half >= 1; half /= 2 {
		for j := range half {
			p[j] += p[j+half]
		}
	}
	return p[0]
}

// count is the number of elements of v.
func count[A any](v iter.Seq[A]) int {
	n := 0
	for range v {
		n++
	}
	return n
}
