// Einsum (12). ONNX Operators.md: "An einsum of the form
// term1, term2 -> output-term produces an output tensor using the
// following equation
//
//	output[output-term] = reduce-sum( input1[term1] * input2[term2] )
//
// where the reduce-sum performs a summation over all the indices occurring
// in the input terms (term1, term2) that do not occur in the output-term.
// The Einsum operator evaluates algebraic tensor operations on a sequence
// of tensors, using the Einstein summation convention. The equation string
// contains a comma-separated sequence of lower case letters. Each term
// corresponds to an operand tensor, and the characters within the terms
// correspond to operands dimensions. This sequence may be followed by
// "->" to separate the left and right hand side of the equation. If the
// equation contains "->" followed by the right-hand side, the explicit
// (not classical) form of the Einstein summation is performed, and the
// right-hand side indices indicate output tensor dimensions. In other
// cases, output indices are (implicitly) set to the alphabetically sorted
// sequence of indices appearing exactly once in the equation. When a
// dimension character is repeated in the left-hand side, it represents
// summation along the dimension. The equation may contain ellipsis
// ("...") to enable broadcasting. Ellipsis must indicate a fixed number of
// dimensions. Specifically, every occurrence of ellipsis in the equation
// must represent the same number of dimensions. The right-hand side may
// contain exactly one ellipsis. In implicit mode, the ellipsis dimensions
// are set to the beginning of the output. The equation string may contain
// space (U+0020) character."
//
// As numpy.einsum (which the ONNX reference evaluator calls) reads it:
// letters of either case; a repeated index within a term takes the
// diagonal; the ellipses' axes are right-aligned and broadcast (numpy
// rules); ellipsis axes the explicit output lacks are summed. Types: every
// integer type (products and sums wrap in the type, as numpy's do),
// float16, float and double (summed in float64, rounded once).
//
// The rules, in order: [type] (one type for all inputs), [equation]
// (syntax; the output names each index once, only indices the inputs
// name; one term per input), [rank] (a term names its input's axes),
// [shape] (an index has one size; the ellipses broadcast).

package reference

import (
	"sort"
	"strings"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() { register("Einsum", []int{12}, einsumKernel) }

// einsumEllipsis labels the ellipsis's axes: the first is einsumEllipsis,
// letters are their own code (below it).
const einsumEllipsis = 1000

func einsumKernel(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	xs := make([]*tensor.Tensor, len(in))
	for i := range in {
		var err error
		if xs[i], err = requiredInput(op, in, i, "Inputs"); err != nil {
			return nil, err
		}
	}
	if !n.Has("equation") {
		return nil, op.errorf("equation", "the equation attribute is required")
	}
	eq, err := n.Str("equation", "")
	if err != nil {
		return nil, err
	}
	if len(xs) == 0 {
		return nil, op.errorf("input", "no input")
	}
	dt := xs[0].DataType()
	switch dt {
	case tensor.Uint8, tensor.Uint16, tensor.Uint32, tensor.Uint64, tensor.Int8, tensor.Int16, tensor.Int32, tensor.Int64,
		tensor.Float16, tensor.Float, tensor.Double:
	default:
		return nil, op.errorf("type", "the inputs are %v, which version %d does not accept", dt, n.Version)
	}
	for _, x := range xs {
		if x.DataType() != dt {
			return nil, op.errorf("type", "the inputs are not all of one type")
		}
	}
	terms, out, size, err := einsumLabels(op, eq, xs)
	if err != nil {
		return nil, err
	}
	outShape := make([]int, len(out))
	for i, l := range out {
		outShape[i] = size[l]
	}
	y, err := newTensor(opt, op, dt, outShape)
	if err != nil {
		return nil, err
	}
	if err := cancelled(opt, op); err != nil {
		return nil, err
	}
	if err := chargeScratch(opt, op, "the sums", y.Len(), 8); err != nil {
		return nil, err
	}
	stop := newPoll(opt, op)
	switch computeTypeOf(dt) {
	case tensor.Float, tensor.Double:
		storeAll(y, einsumSums[float64](stop, xs, terms, out, size))
	case tensor.Int8:
		storeAll(y, einsumSums[int8](stop, xs, terms, out, size))
	case tensor.Int16:
		storeAll(y, einsumSums[int16](stop, xs, terms, out, size))
	case tensor.Int32:
		storeAll(y, einsumSums[int32](stop, xs, terms, out, size))
	case tensor.Int64:
		storeAll(y, einsumSums[int64](stop, xs, terms, out, size))
	case tensor.Uint8:
		storeAll(y, einsumSums[uint8](stop, xs, terms, out, size))
	case tensor.Uint16:
		storeAll(y, einsumSums[uint16](stop, xs, terms, out, size))
	case tensor.Uint32:
		storeAll(y, einsumSums[uint32](stop, xs, terms, out, size))
	case tensor.Uint64:
		storeAll(y, einsumSums[uint64](stop, xs, terms, out, size))
	}
	if stop.err != nil {
		return nil, stop.err
	}
	return []tensor.Value{y}, nil
}

// einsumTerm is one term of an equation: its letters, and where among
// them the ellipsis stands (-1 without one).
type einsumTerm struct {
	letters    []int
	ellipsisAt int
}

func parseEinsumTerm(op opRef, eq, term string) (einsumTerm, error) {
	t := einsumTerm{ellipsisAt: -1}
	for i := 0; i < len(term); i++ {
		c := term[i]
		switch {
		case strings.HasPrefix(term[i:], "..."):
			if t.ellipsisAt >= 0 {
				return t, op.errorf("equation", "term %q of %q has two ellipses", term, eq)
			}
			t.ellipsisAt = len(t.letters)
			i += 2
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z':
			t.letters = append(t.letters, int(c))
		default:
			return t, op.errorf("equation", "term %q of %q holds %q", term, eq, c)
		}
	}
	return t, nil
}

// einsumLabels reads the equation: the label of each axis of each input,
// the output's labels and every label's size.
func einsumLabels(op opRef, eq string, xs []*tensor.Tensor) (terms [][]int, out []int, size map[int]int, err error) {
	eq = strings.ReplaceAll(eq, " ", "")
	lhs, rhs, explicit := strings.Cut(eq, "->")
	if strings.Contains(rhs, "->") {
		return nil, nil, nil, op.errorf("equation", "%q has two arrows", eq)
	}
	var in []einsumTerm
	for _, term := range strings.Split(lhs, ",") {
		t, err := parseEinsumTerm(op, eq, term)
		if err != nil {
			return nil, nil, nil, err
		}
		in = append(in, t)
	}
	named := map[int]int{} // letter -> occurrences on the left
	for _, t := range in {
		for _, c := range t.letters {
			named[c]++
		}
	}
	var right einsumTerm
	if explicit {
		if right, err = parseEinsumTerm(op, eq, rhs); err != nil {
			return nil, nil, nil, err
		}
		seen := map[int]bool{}
		for _, c := range right.letters {
			if seen[c] || named[c] == 0 {
				return nil, nil, nil, op.errorf("equation", "the output of %q names %q twice or names an index no input names", eq, rune(c))
			}
			seen[c] = true
		}
	}
	if len(in) != len(xs) {
		return nil, nil, nil, op.errorf("equation", "%q has %d terms for %d inputs", eq, len(in), len(xs))
	}
	ell := 0
	for i, t := range in {
		r := xs[i].Rank()
		if (t.ellipsisAt < 0 && len(t.letters) != r) || len(t.letters) > r {
			return nil, nil, nil, op.errorf("rank", "term %d of %q does not name the %d axes of its input", i, eq, r)
		}
		if t.ellipsisAt >= 0 {
			ell = max(ell, r-len(t.letters))
		}
	}
	size = map[int]int{}
	for i, t := range in {
		s := xs[i].Shape()
		var labels []int
		for j, c := range t.letters {
			if j == t.ellipsisAt {
				labels = append(labels, ellipsisLabels(ell, len(s)-len(t.letters))...)
			}
			labels = append(labels, c)
		}
		if t.ellipsisAt == len(t.letters) {
			labels = append(labels, ellipsisLabels(ell, len(s)-len(t.letters))...)
		}
		for ax, l := range labels {
			d, seen := size[l]
			switch {
			case !seen || d == s[ax]:
				size[l] = s[ax]
			case l >= einsumEllipsis && (d == 1 || s[ax] == 1):
				size[l] = d * s[ax] // the one that is not 1 (or 0)
			default:
				return nil, nil, nil, op.errorf("shape", "an index of %q has sizes %d and %d", eq, d, s[ax])
			}
		}
		terms = append(terms, labels)
	}
	if explicit {
		for j, c := range right.letters {
			if j == right.ellipsisAt {
				out = append(out, ellipsisLabels(ell, ell)...)
			}
			out = append(out, c)
		}
		if right.ellipsisAt == len(right.letters) {
			out = append(out, ellipsisLabels(ell, ell)...)
		}
	} else {
		out = ellipsisLabels(ell, ell)
		var once []int
		for c, k := range named {
			if k == 1 {
				once = append(once, c)
			}
		}
		sort.Ints(once)
		out = append(out, once...)
	}
	return terms, out, size, nil
}

// ellipsisLabels returns the labels of the last e of the ell axes the
// ellipses stand for (inputs' ellipses are right-aligned).
func ellipsisLabels(ell, e int) []int {
	out := make([]int, e)
	for j := range out {
		out[j] = einsumEllipsis + ell - e + j
	}
	return out
}

// einsumSums returns the output's elements: for each output index, the sum
// over every value of the indices the output lacks of the product of the
// inputs' elements those indices select (an axis of size 1 that
// broadcasts reads element 0).
func einsumSums[A computeNumber](stop *poll, xs []*tensor.Tensor, terms [][]int, out []int, size map[int]int) []A {
	var summed []int
	for l := range size {
		if !containsLabel(out, l) {
			summed = append(summed, l)
		}
	}
	sort.Ints(summed)
	sumShape := make([]int, len(summed))
	for i, l := range summed {
		sumShape[i] = size[l]
	}
	outShape := make([]int, len(out))
	for i, l := range out {
		outShape[i] = size[l]
	}
	res := make([]A, numElements(outShape))
	value := map[int]int{}
	forEachIndexWhile(outShape, func(flat int, idx []int) bool {
		for i, l := range out {
			value[l] = idx[i]
		}
		var total A
		forEachIndex(sumShape, func(_ int, sidx []int) {
			for i, l := range summed {
				value[l] = sidx[i]
			}
			prod := A(1)
			for t, x := range xs {
				s := x.Shape()
				at, stride := 0, 1
				for ax := len(s) - 1; ax >= 0; ax-- {
					if s[ax] != 1 {
						at += value[terms[t][ax]] * stride
					}
					stride *= s[ax]
				}
				prod *= elementAs[A](x, at)
			}
			total += prod
		})
		res[flat] = total
		return !stop.stop(numElements(sumShape) + 1)
	})
	return res
}

func containsLabel(ls []int, l int) bool {
	for _, m := range ls {
		if m == l {
			return true
		}
	}
	return false
}
