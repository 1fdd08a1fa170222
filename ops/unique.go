// Unique finds the distinct elements of its input (the flattened input
// when axis is absent) or its distinct slices along axis, and returns them
// (Y), the position of each one's first occurrence (indices), the position
// in Y of every element or slice of the input (inverse_indices), and how
// often each occurs (counts). With sorted (the default) Y is in ascending
// order, slices compared element by element in row-major order; without
// it, in order of first occurrence.
//
// Versions: 11. Any element type. Floats compare by value: -0 equals 0,
// every NaN equals every other and sorts after all numbers (numpy's unique
// with equal_nan); strings by their bytes; complex numbers by real part,
// then imaginary part.
//
// Rules: [axis] in [-r, r-1]; [size] the outputs fit the size limit.

package ops

import (
	"math"
	"sort"
	"strings"

	"github.com/onnxshape/onnxshape/ops/internal/convert"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("Unique", []int{11}, [2]int{1, 1}, [2]int{1, 4}, uniqueNode)
	declareAttrs("Unique", AttrSpec{Name: "axis", Type: AttrInt}, AttrSpec{Name: "sorted", Type: AttrInt})
}

func uniqueNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	opt = opt.orDefault()
	op := n.op()
	x, err := n.requiredInput(in, 0, "X")
	if err != nil {
		return nil, err
	}
	sorted, err := n.Int("sorted", 1)
	if err != nil {
		return nil, err
	}
	shape, axis := []int{x.Len()}, 0
	if n.Has("axis") {
		a, err := n.Int("axis", 0)
		if err != nil {
			return nil, err
		}
		var ok bool
		if axis, ok = normalizeAxis(a, x.Rank()); !ok {
			return nil, op.errorf("axis", "axis %d outside [%d, %d]", a, -x.Rank(), x.Rank()-1)
		}
		shape = x.Shape()
	}
	// a unit is one element (no axis) or one slice along axis
	units, outer, inner := shape[axis], product(shape[:axis]), product(shape[axis+1:])
	// scratch: the sort keys (up to 16 bytes an element) and five lists of
	// a word per unit
	if err := opt.checkSize(op, tensor.Complex128, []int{x.Len()}); err != nil {
		return nil, err
	}
	if err := opt.checkSize(op, tensor.Int64, []int{units, 5}); err != nil { // an empty input may have many units
		return nil, err
	}
	if err := opt.charge(op, "sort keys and unit lists", int64(x.Len())*16+int64(units)*8*5); err != nil {
		return nil, err
	}
	key := elementKeys(x)
	// groups of equal units: each one's first unit, its count, every
	// unit's group and each group's place in Y
	var first, group, rank []int
	var counts []int64
	if hashable := key.kind != 's' && key.kind != 'c'; hashable && !n.Has("axis") {
		if err := opt.charge(op, "hash of the distinct elements", int64(units)*32); err != nil {
			return nil, err
		}
		first, counts, group, rank = uniqueHashed(key, units, sorted != 0)
	} else {
		compare := func(a, b int) int {
			if outer == 0 || inner == 0 { // empty slices are all equal
				return 0
			}
			for o := range outer {
				for i := range inner {
					if c := key.compare((o*units+a)*inner+i, (o*units+b)*inner+i); c != 0 {
						return c
					}
				}
			}
			return 0
		}
		order := make([]int, units)
		for i := range order {
			order[i] = i
		}
		sort.SliceStable(order, func(i, j int) bool { return compare(order[i], order[j]) < 0 })
		// groups of equal units, in ascending order; each group's first
		// occurrence is its first unit (the sort is stable)
		group = make([]int, units)
		counts = []int64{}
		for i, u := range order {
			if i == 0 || compare(order[i-1], u) != 0 {
				first = append(first, u)
				counts = append(counts, 0)
			}
			group[u] = len(first) - 1
			counts[len(counts)-1]++
		}
		rank = make([]int, len(first)) // a group's place in Y
		for g := range rank {
			rank[g] = g
		}
		if sorted == 0 {
			byFirst := make([]int, len(first))
			for g := range byFirst {
				byFirst[g] = g
			}
			sort.Slice(byFirst, func(i, j int) bool { return first[byFirst[i]] < first[byFirst[j]] })
			for place, g := range byFirst {
				rank[g] = place
			}
		}
	}
	yShape := append([]int{}, shape...)
	yShape[axis] = len(first)
	y, err := opt.newOverwritten(op, x.DataType(), yShape)
	if err != nil {
		return nil, err
	}
	pick := make([]int, len(first)) // the unit of x that each place of Y holds
	for g, u := range first {
		pick[rank[g]] = u
	}
	if y.Len() > 0 {
		gatherBlocks(y, x, inner, 0, outer*len(first), func(r int) int { return r/len(first)*units + pick[r%len(first)] })
	}
	out := values(y)
	if n.NumOutputs > 1 {
		idx, inv, cnt := make([]int64, len(first)), make([]int64, units), make([]int64, len(first))
		for g, u := range first {
			idx[rank[g]] = int64(u)
			cnt[rank[g]] = counts[g]
		}
		for u := range inv {
			inv[u] = int64(rank[group[u]])
		}
		for _, v := range [][]int64{idx, inv, cnt}[:n.NumOutputs-1] {
			t, err := opt.newOverwritten(op, tensor.Int64, []int{len(v)})
			if err != nil {
				return nil, err
			}
			copy(asElems[int64](t.Bytes()), v)
			out = append(out, t)
		}
	}
	return out, nil
}

// uniqueHashed groups the n numbers of k (kind 'f', 'i' or 'u') by value
// through a hash of their canonical bits (-0 as 0, every NaN as one), in
// order of first occurrence, and places the groups in Y in ascending order
// when sorted (k.compare's order), else as they came.
func uniqueHashed(k keys, n int, sorted bool) (first []int, counts []int64, group, rank []int) {
	// Sized for up to uniqueHint distinct values, so that a small input's
	// map and lists do not grow a few elements at a time (a large one's
	// grow as they must, within the charge's 32 bytes a unit).
	group = make([]int, n)
	hint := min(n, uniqueHint)
	seen := make(map[uint64]int, hint)
	first, counts = make([]int, 0, hint), make([]int64, 0, hint)
	canon := func(u int) uint64 {
		if k.kind != 'f' {
			return uint64(k.i[u])
		}
		f := k.f[u]
		switch {
		case f == 0:
			return 0
		case f != f:
			return 0x7ff8000000000001
		}
		return math.Float64bits(f)
	}
	for u := range n {
		c := canon(u)
		g, ok := seen[c]
		if !ok {
			g = len(first)
			seen[c] = g
			first = append(first, u)
			counts = append(counts, 0)
		}
		group[u] = g
		counts[g]++
	}
	rank = make([]int, len(first))
	if !sorted {
		for g := range rank {
			rank[g] = g
		}
		return first, counts, group, rank
	}
	byValue := make([]int, len(first))
	for g := range byValue {
		byValue[g] = g
	}
	sort.Slice(byValue, func(i, j int) bool { return k.compare(first[byValue[i]], first[byValue[j]]) < 0 })
	for place, g := range byValue {
		rank[g] = place
	}
	return first, counts, group, rank
}

// uniqueHint is the most distinct values uniqueHashed sizes its map for
// before it has seen them.
const uniqueHint = 1 << 12

// keys are a tensor's elements in a form that orders them: numbers as
// float64 (every float type holds exactly), int64 or uint64, strings as
// they are, complex numbers as two float64s.
type keys struct {
	kind byte // 'f' float, 'i' signed, 'u' unsigned, 's' string, 'c' complex
	f    []float64
	i    []int64
	s    []string
}

func elementKeys(x *tensor.Tensor) keys {
	dt := x.DataType()
	switch {
	case dt == tensor.String:
		return keys{kind: 's', s: x.Strings()}
	case dt == tensor.Complex64 || dt == tensor.Complex128:
		f := make([]float64, 2*x.Len())
		if dt == tensor.Complex64 {
			for i, v := range asElems[float32](x.Bytes()) {
				f[i] = float64(v)
			}
		} else {
			copy(f, asElems[float64](x.Bytes()))
		}
		return keys{kind: 'c', f: f}
	case dt.IsFloat():
		f := make([]float64, x.Len())
		convert.DecodeFloats(f, x, 0)
		return keys{kind: 'f', f: f}
	case dt == tensor.Uint64:
		return keys{kind: 'u', i: append([]int64{}, asElems[int64](x.Bytes())...)}
	}
	v := make([]int64, x.Len())
	convert.DecodeInts(v, x, 0)
	return keys{kind: 'i', i: v}
}

func (k keys) compare(a, b int) int {
	switch k.kind {
	case 's':
		return strings.Compare(k.s[a], k.s[b])
	case 'c':
		if c := compareFloats(k.f[2*a], k.f[2*b]); c != 0 {
			return c
		}
		return compareFloats(k.f[2*a+1], k.f[2*b+1])
	case 'f':
		return compareFloats(k.f[a], k.f[b])
	case 'u':
		x, y := uint64(k.i[a]), uint64(k.i[b])
		return cmpOrdered(x, y)
	}
	return cmpOrdered(k.i[a], k.i[b])
}

// compareFloats orders numbers by value, NaN after all of them and equal
// to every NaN.
func compareFloats(x, y float64) int {
	switch xn, yn := math.IsNaN(x), math.IsNaN(y); {
	case xn && yn:
		return 0
	case xn:
		return 1
	case yn:
		return -1
	}
	return cmpOrdered(x, y)
}

func cmpOrdered[T int64 | uint64 | float64](x, y T) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}
