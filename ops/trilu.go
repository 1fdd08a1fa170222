// Trilu keeps the upper (upper = 1, the default) or lower triangle of each
// of the last two dims' matrices and zeros the rest: element (i, j) is
// kept when j - i >= k (upper) or j - i <= k (lower), k the optional
// scalar int64 input (0 when absent).
//
// Versions: 14. Any element type (strings become "").
//
// Rules: [rank] the input has rank >= 2; [k] k is an int64 scalar (a
// one-element tensor is read as one); [size] the output fits the size
// limit.

package ops

import (
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("Trilu", []int{14}, [2]int{1, 2}, [2]int{1, 1}, triluNode)
	declareAttrs("Trilu", AttrSpec{Name: "upper", Type: AttrInt})
}

func triluNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	opt = opt.orDefault()
	op := n.op()
	x, err := n.requiredInput(in, 0, "input")
	if err != nil {
		return nil, err
	}
	kt, err := n.tensorInput(in, 1)
	if err != nil {
		return nil, err
	}
	k := int64(0)
	if kt != nil {
		if kt.DataType() != tensor.Int64 || kt.Len() != 1 || kt.Rank() > 1 {
			return nil, op.errorf("k", "k must be an int64 scalar, got %s", kt.Describe())
		}
		v, _ := int64sOf(kt)
		k = v[0]
	}
	upper, err := n.Int("upper", 1)
	if err != nil {
		return nil, err
	}
	if x.Rank() < 2 {
		return nil, op.errorf("rank", "input must have rank >= 2, got shape %v", x.Shape())
	}
	// Each row below is written whole, its kept run copied and the rest
	// cleared: no clearing of the whole output first, which wrote every
	// byte twice.
	y, err := opt.newOverwritten(op, x.DataType(), x.Shape())
	if err != nil {
		return nil, err
	}
	if y.Len() == 0 { // nothing to write, however long the loops would run
		return opt.result(y), nil
	}
	rows, cols := x.Shape()[x.Rank()-2], x.Shape()[x.Rank()-1]
	mats := product(x.Shape()[:x.Rank()-2])
	// A k past either edge keeps (or drops) every row whole: clamped to
	// [-rows, cols], i+k cannot overflow.
	k = min(max(k, -int64(rows)), int64(cols))
	// each row keeps one contiguous run of columns [lo, hi)
	if x.DataType() != tensor.String {
		// Bytes: the storage and element size read once, not per row.
		size, xb, yb := x.DataType().Size(), x.Bytes(), y.Bytes()
		for m := range mats {
			for i := range rows {
				lo, hi := triluRun(i, k, upper, cols)
				row := (m*rows + i) * cols * size
				clear(yb[row : row+lo*size])
				copy(yb[row+lo*size:row+hi*size], xb[row+lo*size:row+hi*size])
				clear(yb[row+hi*size : row+cols*size])
			}
		}
		return opt.result(y), nil
	}
	for m := range mats {
		for i := range rows {
			lo, hi := triluRun(i, k, upper, cols)
			row := (m*rows + i) * cols
			clearElems(y, row, lo)
			copyElems(y, row+lo, x, row+lo, hi-lo)
			clearElems(y, row+hi, cols-hi)
		}
	}
	return opt.result(y), nil
}

// triluRun is the run of columns [lo, hi) row i keeps, k clamped to
// [-rows, cols] (so i+k cannot overflow).
func triluRun(i int, k, upper int64, cols int) (lo, hi int) {
	l, h := int64(0), int64(cols)
	if upper != 0 {
		l = min(max(int64(i)+k, 0), int64(cols))
	} else {
		h = min(max(int64(i)+k+1, 0), int64(cols))
	}
	l = min(l, h) // a row that keeps nothing is cleared whole
	return int(l), int(h)
}

// clearElems sets n elements of dst from position at to zero (or "").
func clearElems(dst *tensor.Tensor, at, n int) {
	if dst.DataType() == tensor.String {
		clear(dst.Strings()[at : at+n])
		return
	}
	size := dst.DataType().Size()
	clear(dst.Bytes()[at*size : (at+n)*size])
}

// copyElems copies n elements of src from position from to dst at to.
func copyElems(dst *tensor.Tensor, to int, src *tensor.Tensor, from, n int) {
	if src.DataType() == tensor.String {
		copy(dst.Strings()[to:to+n], src.Strings()[from:from+n])
		return
	}
	size := src.DataType().Size()
	copy(dst.Bytes()[to*size:(to+n)*size], src.Bytes()[from*size:(from+n)*size])
}
