// MeanVarianceNormalization normalizes X over the axes listed in axes
// (default [0, 2, 3]: for NCHW, each channel over the batch and the
// image): Y = (X - mean) / (sqrt(var) + 1e-9), mean and var the mean and
// the variance of the slice, as the operator's function body writes it
// (its epsilon, 1e-9, is added to the standard deviation).
//
// Versions: 9 and 13 (adds bfloat16). Types: float16, float, double (and
// bfloat16 from 13). Attribute: axes. The rules, in order: [type] X's type;
// [axes] every axis in [-r, r-1], none twice. The variance is the mean of
// the squared deviations (the body's E[x^2] - E[x]^2 in exact arithmetic),
// every element computed in float64 (ops/internal/norm) and rounded once.

package ops

import (
	"github.com/onnxshape/onnxshape/ops/internal/norm"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("MeanVarianceNormalization", []int{9, 13}, [2]int{1, 1}, [2]int{1, 1}, meanVarianceNormalizationNode)
	declareAttrs("MeanVarianceNormalization", AttrSpec{Name: "axes", Type: AttrInts})
}

// mvnEpsilon is what the function body of MeanVarianceNormalization adds
// to the standard deviation.
const mvnEpsilon = 1e-9

func meanVarianceNormalizationNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	op := n.op()
	x, err := n.requiredInput(in, 0, "X")
	if err != nil {
		return nil, err
	}
	axes64, ok, err := n.Ints("axes")
	if err != nil {
		return nil, err
	}
	if !ok {
		axes64 = []int64{0, 2, 3}
	}
	types := floatTypes
	if op.version >= 13 {
		types = floatBFTypes
	}
	if err := normCheckType(op, "X", x.DataType(), types); err != nil {
		return nil, err
	}
	shape := x.Shape()
	r := len(shape)
	reduced := make([]bool, r)
	for i, a64 := range axes64 {
		a, ok := normalizeAxis(a64, r)
		if !ok {
			return nil, op.errorf("axes", "axis %d is outside [%d, %d] (X rank %d)", a64, -r, r-1, r)
		}
		if reduced[a] {
			return nil, op.errorf("axes", "axis %d designated twice (%v)", a, axes64[:i+1])
		}
		reduced[a] = true
	}
	l, err := mvnLayout(opt, op, shape, reduced)
	if err != nil {
		return nil, err
	}
	y, err := normalizeInto(opt, op, norm.StdDevPlusEps, mvnEpsilon, l, x, x.DataType(), norm.Param{}, norm.Param{}, norm.Stats{})
	if err != nil {
		return nil, err
	}
	return values(y), nil
}

// mvnLayout returns the slices of a normalization over the axes marked in
// reduced: contiguous when they are the last axes, else each slice's start
// from the kept axes and its elements' offsets (charged) from the reduced.
func mvnLayout(opt *Options, op opRef, shape []int, reduced []bool) (norm.Layout, error) {
	strides := make([]int, len(shape))
	stride := 1
	for i := len(shape) - 1; i >= 0; i-- {
		strides[i] = stride
		stride *= shape[i]
	}
	var keptLen, keptStride, redLen, redStride []int
	l := norm.Layout{Slices: 1, N: 1}
	last := true // the reduced axes are the last ones
	for i, d := range shape {
		if reduced[i] {
			redLen, redStride = append(redLen, d), append(redStride, strides[i])
			l.N *= d
		} else {
			if len(redLen) > 0 && d != 1 {
				last = false
			}
			keptLen, keptStride = append(keptLen, d), append(keptStride, strides[i])
			l.Slices *= d
		}
	}
	if last {
		return l, nil
	}
	l.Start = func(s int) int {
		off := 0
		for k := len(keptLen) - 1; k >= 0; k-- {
			off += (s % keptLen[k]) * keptStride[k]
			s /= keptLen[k]
		}
		return off
	}
	// run: the elements of the reduced axes that are the last ones in
	// memory (the image plane of the default axes), contiguous in X; the
	// offsets are those of the runs' starts.
	run, k := 1, len(shape)
	for k > 0 && (reduced[k-1] || shape[k-1] == 1) {
		run *= shape[k-1]
		k--
	}
	if run > 1 {
		l.Run = run
		for i := len(redLen) - 1; i >= 0 && redStride[i] < run; i-- {
			redLen, redStride = redLen[:i], redStride[:i]
		}
	}
	runs := l.N / max(run, 1)
	if err := opt.orDefault().scratch(op, "the offsets of a slice", runs, 8); err != nil {
		return norm.Layout{}, err
	}
	l.Offsets = make([]int, runs)
	for j := range l.Offsets {
		off, s := 0, j
		for k := len(redLen) - 1; k >= 0; k-- {
			off += (s % redLen[k]) * redStride[k]
			s /= redLen[k]
		}
		l.Offsets[j] = off
	}
	return l, nil
}
