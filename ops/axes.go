package ops

import (
	"fmt"
	"math"
)

// normalizeAxis maps axis in [-rank, rank-1] to [0, rank-1]; ok is false
// outside that range.
func normalizeAxis(axis int64, rank int) (int, bool) {
	r := int64(rank)
	if axis < -r || axis >= r {
		return 0, false
	}
	if axis < 0 {
		axis += r
	}
	return int(axis), true
}

// toInt converts a value read from a tensor or attribute to int, failing
// where int is narrower than int64 (32-bit platforms) and v does not fit.
func toInt(v int64) (int, error) {
	if v > math.MaxInt || v < math.MinInt {
		return 0, fmt.Errorf("%d does not fit in an int on this platform", v)
	}
	return int(v), nil
}

// toInts converts a slice with toInt.
func toInts(v []int64) ([]int, error) {
	out := make([]int, len(v))
	for i, x := range v {
		n, err := toInt(x)
		if err != nil {
			return nil, err
		}
		out[i] = n
	}
	return out, nil
}

// broadcastShapes returns the multidirectional (numpy) broadcast of a and b:
// aligned at the end, each pair of dims equal or one of them 1.
func broadcastShapes(a, b []int) ([]int, error) {
	n := max(len(a), len(b))
	out := make([]int, n)
	for i := 0; i < n; i++ {
		da, db := 1, 1
		if k := i - (n - len(a)); k >= 0 {
			da = a[k]
		}
		if k := i - (n - len(b)); k >= 0 {
			db = b[k]
		}
		switch {
		case da == db || db == 1:
			out[i] = da
		case da == 1:
			out[i] = db
		default:
			return nil, fmt.Errorf("shapes %v and %v do not broadcast: dimension %d is %d and %d", a, b, i, da, db)
		}
	}
	return out, nil
}

// axisRules says how an operator checks a list of axes: the rule broken by
// an axis out of range and by one designated twice, whose rank bounds the
// axes ("input" or "output"), and whether negative axes are refused (the
// first versions of Squeeze and Unsqueeze take only non-negative ones).
type axisRules struct {
	rangeRule, repeatRule string
	rankOf                string
	nonNegative           bool
}

// normalizeAxes maps each of axes into [0, rank), in the order given, after
// checking that each is in range and that no axis is designated twice (a
// negative and a positive value may name the same axis).
func normalizeAxes(op opRef, axes []int, rank int, rules axisRules) ([]int, error) {
	lo := -rank
	if rules.nonNegative {
		lo = 0
	}
	given := make(map[int]int, len(axes)) // normalised axis -> the value that named it
	out := make([]int, len(axes))
	for i, a := range axes {
		if a < lo || a >= rank {
			return nil, op.errorf(rules.rangeRule, "axis %d is outside [%d, %d] (%s rank %d)", a, lo, rank-1, rules.rankOf, rank)
		}
		k := a
		if k < 0 {
			k += rank
		}
		if first, dup := given[k]; dup {
			return nil, op.errorf(rules.repeatRule, "axis %d designated twice (%d and %d)", k, first, a)
		}
		given[k], out[i] = a, k
	}
	return out, nil
}

// product is the number of elements of the dims (1 for none).
func product(dims []int) int {
	n := 1
	for _, d := range dims {
		n *= d
	}
	return n
}
