// Package reduce is the engine of onnxshape's reductions: the Reduce*
// operators, ArgMax and ArgMin, the Softmax family, CumSum and the global
// pooling operators. It works on plain slices of one computing type; package
// ops reads and writes the tensors around it.
//
// After the axes that are reduced together and the axes that are kept
// together are merged (and axes of length 1 dropped), almost every
// reduction is [outer, n, inner]: n elements reduced, inner apart, for each
// of outer*inner outputs. Reduce-last (inner 1) walks each contiguous row
// once; reduce-first and reduce-middle (inner > 1) add whole rows of inner
// elements into the outputs, so that every loop runs over contiguous
// memory. Everything else (reduced axes not adjacent) gathers each output's
// elements into a row and reduces it as reduce-last does.
//
// Every output is the reduction of its elements in row-major order, in the
// computing type, in the order the reference engine defines: sums in
// sixteen interleaved partial sums added by halves at the end (lanes.go),
// products, maxima and minima one element after the other. The fast loops
// and the reference engine give the same bits. A float32 row sum is one
// sixteen-lane vector accumulator (sum_amd64.s); a column block keeps
// sixteen rows of partials. The softmax family's float32 exponential is
// exp32 (exp.go), whose float32 additions and fused multiply-adds the
// vector kernels run sixteen lanes at a time (exp_amd64.s); a Softmax row
// is one pass for its maximum, one for its exponentials and their sum, and
// its divisions run among the next row's exponentials. Other processors,
// and the purego build tag, take the scalar loops (sum_other.go,
// exp_other.go).
package reduce

// Number is the set of computing types: the integers are computed in
// their own type, float16 and bfloat16 in float32.
type Number interface {
	~int8 | ~uint8 | ~int16 | ~uint16 | ~int32 | ~uint32 | ~int64 | ~uint64 | ~float32 | ~float64
}

// Parallel runs f over [0, n) in parts, on several cores when work (a rough
// count of the elements touched) is large enough; package ops passes its
// worker pool.
type Parallel func(n, work int, f func(lo, hi int) error) error

// Serial is the Parallel that runs f on the caller's core.
func Serial(n, _ int, f func(lo, hi int) error) error { return f(0, n) }

// Layout is how a reduction walks its input.
type Layout struct {
	// Outer, N and Inner describe the input as [Outer, N, Inner] with N
	// reduced, when General is false.
	Outer, N, Inner int
	// General is true when the reduced axes are not adjacent once merged:
	// then Kept and Reduced list the merged axes of each kind, in order.
	General       bool
	Kept, Reduced []Axis
}

// Axis is one merged axis of a general layout: its length and its stride
// in the input, in elements.
type Axis struct{ Len, Stride int }

// NewLayout returns the layout of a reduction of shape over the axes
// marked in reduced.
func NewLayout(shape []int, reduced []bool) Layout {
	type group struct {
		len     int
		reduced bool
	}
	var groups []group
	for i, d := range shape {
		if d == 1 {
			continue
		}
		if k := len(groups) - 1; k >= 0 && groups[k].reduced == reduced[i] {
			groups[k].len *= d
			continue
		}
		groups = append(groups, group{d, reduced[i]})
	}
	l := Layout{Outer: 1, N: 1, Inner: 1}
	switch {
	case len(groups) == 0:
		return l
	case len(groups) == 1 && groups[0].reduced:
		l.N = groups[0].len
		return l
	case len(groups) == 1:
		l.Outer = groups[0].len
		return l
	case len(groups) == 2 && groups[0].reduced:
		l.N, l.Inner = groups[0].len, groups[1].len
		return l
	case len(groups) == 2:
		l.Outer, l.N = groups[0].len, groups[1].len
		return l
	case len(groups) == 3 && !groups[0].reduced:
		l.Outer, l.N, l.Inner = groups[0].len, groups[1].len, groups[2].len
		return l
	}
	l.General = true
	stride := 1
	for i := len(groups) - 1; i >= 0; i-- {
		ax := Axis{groups[i].len, stride}
		stride *= groups[i].len
		if groups[i].reduced {
			l.Reduced = append([]Axis{ax}, l.Reduced...)
		} else {
			l.Kept = append([]Axis{ax}, l.Kept...)
		}
	}
	l.N = 1
	for _, ax := range l.Reduced {
		l.N *= ax.Len
	}
	l.Outer = 1
	for _, ax := range l.Kept {
		l.Outer *= ax.Len
	}
	return l
}

// Outputs is the number of output elements.
func (l Layout) Outputs() int { return l.Outer * l.Inner }

// ScratchElems is the scratch a reduction of kind k in this layout
// allocates, in elements of 8 bytes at most, for workers cores: the general
// walk keeps the offsets of every output and of one output's elements and
// gathers each output's elements into a row on each core; LogSumExp over
// an inner axis keeps the maximum of every output, over the last axis a
// row of float32 exponentials on each core.
func (l Layout) ScratchElems(k Kind, workers int) int {
	switch {
	case l.General:
		return l.Outputs() + l.N*(1+workers)
	case k == LogSumExp && l.Inner > 1:
		return l.Outputs()
	case k == LogSumExp:
		return l.N * workers
	}
	return 0
}

// offsets returns, in row-major order, the offsets of the elements of axes.
func offsets(axes []Axis) []int {
	off := []int{0}
	for _, ax := range axes {
		next := make([]int, 0, len(off)*ax.Len)
		for _, o := range off {
			for j := range ax.Len {
				next = append(next, o+j*ax.Stride)
			}
		}
		off = next
	}
	return off
}
