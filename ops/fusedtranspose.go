package ops

// Transposes folded into a MatMul, the kernels' side of
// graph/fusetransposes.go. A transformer's attention, exported node by
// node, moves the heads around every product: Q, K and V are reshaped to
// [batch, seq, heads, d] and transposed to [batch, heads, seq, d] (K once
// more, to [batch, heads, d, seq]) before the products of every head, and
// the heads' results are transposed back to [batch, seq, heads, d] after.
// Each Transpose copies the whole activation. The matrix-product engine
// reads and writes a matrix through a row stride: a head's matrix of the
// transposed value is a strided matrix of the value before the Transpose. So a MatMul that is
// the only reader of a Transpose (or of a chain of them) reads the value
// before it in place, and a MatMul whose only reader is a Transpose writes
// the Transpose's output in place; the Transposes pass their input through
// (in a run that fuses: the fast engine, the ONNX profile, the graph's
// outputs asked for). The products and their sums are the same, element
// for element, so the result has the bits of the nodes run one by one
// (TestFoldedTransposesSameBits, graph/fusetransposes_test.go).
//
// What is read or written in place: a permutation that leaves the last
// axis last (rows with a stride, columns contiguous). Transposes that move
// an input's last axis are not folded (K^T: see FoldTransposes). At run
// time, a permutation that does not fit the value's rank, or an operand or
// product that is not a matrix, goes through the Transpose operator's own
// kernel inside the MatMul, with its errors, and is then multiplied as
// unfused.

import (
	"github.com/onnxshape/onnxshape/ops/internal/gemm"
	"github.com/onnxshape/onnxshape/tensor"
)

// transposeFold is one Transpose folded into a MatMul: its operator
// version and its perm attribute (nil when absent: the axes reversed).
type transposeFold struct {
	op   opRef
	perm []int
}

// matMulFolds are the Transposes a MatMul node folded: in[k], applied in
// order, make input k from the value the run passes for it; out, applied
// in order, are applied to the product.
type matMulFolds struct {
	in  [2][]transposeFold
	out []transposeFold
}

// FoldTransposes folds the Transpose nodes before (in[k] for input k, the
// first applied first) and after (out) MatMul node mm into it, and reports
// whether it did: nothing is folded when mm is not a MatMul or one of the
// nodes is not a Transpose with a readable perm. The graph then passes
// each Transpose's input through in a run that fuses.
func FoldTransposes(mm *Node, in [2][]*Node, out []*Node) bool {
	if mm == nil || mm.OpType != "MatMul" || mm.Domain != "" || mm.folds != nil {
		return false
	}
	var f matMulFolds
	fold := func(trs []*Node) ([]transposeFold, bool) {
		var folds []transposeFold
		for _, tr := range trs {
			if tr == nil || tr.OpType != "Transpose" || tr.Domain != "" {
				return nil, false
			}
			perm, _, err := tr.intsAttr("perm", "perm")
			if err != nil {
				return nil, false
			}
			folds = append(folds, transposeFold{tr.op(), perm})
		}
		return folds, true
	}
	var ok bool
	for k := range in {
		if f.in[k], ok = fold(in[k]); !ok {
			return false
		}
		if !keepsLastAxis(f.in[k]) {
			// Read in place, the operand would be a transposed matrix,
			// which the engine packs more slowly than a Transpose's copy
			// and a plain packing take together (a head's K^T: 64 us
			// against 39 on GPT-2's [4, 64, 64] heads): left unfolded.
			f.in[k] = nil
		}
	}
	if f.out, ok = fold(out); !ok {
		return false
	}
	if len(f.in[0])+len(f.in[1])+len(f.out) == 0 {
		return false
	}
	mm.folds = &f
	return true
}

// keepsLastAxis reports whether the folds, applied in order, leave the
// last axis last: whether their perms are all given and compose to one
// that does.
func keepsLastAxis(folds []transposeFold) bool {
	if len(folds) == 0 {
		return true
	}
	r := len(folds[0].perm)
	c, ok := composePerms(folds, r)
	return ok && r >= 2 && c[r-1] == r-1
}

// stridedOperand is a MatMul operand (or its output) read or written in
// place: the matrix of each batch index starts at the sum of the index's
// coordinates times batch (one stride per batch axis of the operand),
// and its rows are ld apart.
type stridedOperand struct {
	shape []int // the operand's shape, as MatMul sees it
	batch []int
	ld    int
}

// composePerms returns the one permutation that the folds, applied in
// order to a value of rank r, make, and false when one of them does not
// fit rank r (the Transpose operator then reports it).
func composePerms(folds []transposeFold, r int) ([]int, bool) {
	c := make([]int, r)
	for i := range c {
		c[i] = i
	}
	for _, f := range folds {
		p, err := transposePerm(f.op, r, f.perm)
		if err != nil {
			return nil, false
		}
		next := make([]int, r)
		for i := range next {
			next[i] = c[p[i]]
		}
		c = next
	}
	return c, true
}

// rowMajorStrides returns the element strides of a row-major shape.
func rowMajorStrides(shape []int) []int {
	st := make([]int, len(shape))
	step := 1
	for i := len(shape) - 1; i >= 0; i-- {
		st[i] = step
		step *= shape[i]
	}
	return st
}

// stridedInput returns how a MatMul reads x transposed by perm in place,
// and false when it cannot (x of rank < 2, or perm moving x's last axis).
func stridedInput(shape, perm []int) (stridedOperand, bool) {
	r := len(shape)
	if r < 2 {
		return stridedOperand{}, false
	}
	xs := rowMajorStrides(shape)
	o := stridedOperand{shape: make([]int, r), batch: make([]int, r-2)}
	for i, p := range perm {
		o.shape[i] = shape[p]
		if i < r-2 {
			o.batch[i] = xs[p]
		}
	}
	if perm[r-1] != r-1 {
		return stridedOperand{}, false
	}
	o.ld = xs[perm[r-2]]
	o.ld = max(o.ld, 1)
	return o, true
}

// matMulFolded is matMulNode for a node with folded Transposes in a run
// that fuses: a and b are the values before the folded Transposes.
func matMulFolded(opt *Options, n *Node, a, b *tensor.Tensor) ([]tensor.Value, error) {
	f, op := n.folds, n.op()
	var xs [2]*tensor.Tensor
	var strided [2]*stridedOperand
	for k, x := range []*tensor.Tensor{a, b} {
		xs[k] = x
		if len(f.in[k]) == 0 {
			continue
		}
		if c, ok := composePerms(f.in[k], x.Rank()); ok {
			if s, ok := stridedInput(x.Shape(), c); ok {
				strided[k] = &s
				continue
			}
		}
		// Not read in place: the Transposes run as their nodes would.
		for _, t := range f.in[k] {
			var err error
			if xs[k], err = transpose(opt, t.op, xs[k], t.perm); err != nil {
				return nil, err
			}
		}
	}
	y, err := matMulStrided(opt, op, n, xs, strided)
	if err != nil {
		return nil, err
	}
	n.applyBias(opt, y)
	if err := n.applyEpilogue(opt, y); err != nil {
		return nil, err
	}
	return values(y), nil
}

// matMulStrided is matMul with the operands strided[k] (when not nil) read
// in place from x[k], and the product written transposed by the node's
// output folds, in place when they keep its last axis last.
func matMulStrided(opt *Options, op opRef, n *Node, x [2]*tensor.Tensor, strided [2]*stridedOperand) (*tensor.Tensor, error) {
	opt = opt.orDefault()
	a, b := x[0], x[1]
	for k, name := range []string{"A", "B"} {
		if err := checkInput(op, name, x[k]); err != nil {
			return nil, err
		}
	}
	dt := a.DataType()
	if err := matMulTypes.check(op, "A", dt); err != nil {
		return nil, err
	}
	if b.DataType() != dt {
		return nil, op.errorf("type", "A is %v and B %v: both are of type T", dt, b.DataType())
	}
	shapeOf := func(k int) []int {
		if strided[k] != nil {
			return strided[k].shape
		}
		return x[k].Shape()
	}
	s, err := matmulShapes(op, shapeOf(0), shapeOf(1))
	if err != nil {
		return nil, err
	}
	// The output: written in place transposed when the folds allow it.
	outShape, outPerm := s.out, []int(nil)
	folds := n.folds.out
	if len(folds) > 0 && len(s.out) == len(s.batch)+2 {
		if c, ok := composePerms(folds, len(s.out)); ok && c[len(c)-1] == len(c)-1 {
			outPerm, folds = c, nil
			outShape = make([]int, len(c))
			for i, p := range c {
				outShape[i] = s.out[p]
			}
		}
	}
	y, err := opt.newOverwritten(op, dt, outShape)
	if err != nil {
		return nil, err
	}
	if y.Len() > 0 {
		var pb *weightPack
		if strided[1] == nil {
			pb = n.packedInput(1, b)
		}
		switch productTypeOf(dt) {
		case tensor.Float:
			err = matMulStridedAs[float32](opt, op, &s, x, strided, y, outPerm, pb)
		case tensor.Double:
			err = matMulStridedAs[float64](opt, op, &s, x, strided, y, outPerm, pb)
		case tensor.Int32:
			err = matMulStridedAs[int32](opt, op, &s, x, strided, y, outPerm, nil)
		case tensor.Int64:
			err = matMulStridedAs[int64](opt, op, &s, x, strided, y, outPerm, nil)
		case tensor.Uint32:
			err = matMulStridedAs[uint32](opt, op, &s, x, strided, y, outPerm, nil)
		case tensor.Uint64:
			err = matMulStridedAs[uint64](opt, op, &s, x, strided, y, outPerm, nil)
		}
		if err != nil {
			return nil, err
		}
	}
	// Output folds not written in place run as their nodes would.
	for _, t := range folds {
		if y, err = transpose(opt, t.op, y, t.perm); err != nil {
			return nil, err
		}
	}
	return y, nil
}

// matMulStridedAs runs the products of s in T, reading operand k through
// strided[k] (contiguous when nil) and writing y, the product transposed by
// outPerm (none when nil).
func matMulStridedAs[T gemm.Number](opt *Options, op opRef, s *matmulShape, x [2]*tensor.Tensor, strided [2]*stridedOperand, y *tensor.Tensor, outPerm []int, pb *weightPack) error {
	var data [2][]T
	for k, name := range []string{"A", "B"} {
		var err error
		if data[k], err = productInput[T](opt, op, name, x[k]); err != nil {
			return err
		}
	}
	yv, store, err := productOutput[T](opt, op, y)
	if err != nil {
		return err
	}
	m, n, k := s.m, s.n, s.k
	r := len(s.batch)
	// Each operand's element stride per axis of the broadcast batch (0
	// where it broadcasts) and its row stride.
	type view struct {
		batch []int
		ld    int
	}
	operand := func(i, cols int) view {
		v := view{batch: make([]int, r), ld: cols}
		var shape, bs []int
		if st := strided[i]; st != nil {
			shape, bs, v.ld = st.shape, st.batch, st.ld
		} else {
			shape = x[i].Shape()
			if len(shape) >= 2 {
				bs = rowMajorStrides(shape)[:len(shape)-2]
			}
		}
		nb := max(len(shape)-2, 0)
		for ax := range nb {
			if shape[ax] != 1 {
				v.batch[r-nb+ax] = bs[ax]
			}
		}
		return v
	}
	av, bv := operand(0, k), operand(1, n)
	yb := make([]int, r)
	ld := n
	if outPerm != nil {
		ys := rowMajorStrides(y.Shape())
		inv := make([]int, len(outPerm))
		for i, p := range outPerm {
			inv[p] = i
		}
		// outPerm keeps the last axis: the logical output's axis a is
		// y's axis inv[a].
		ld = ys[inv[len(outPerm)-2]]
		for ax := range r {
			yb[ax] = ys[inv[ax]]
		}
	} else {
		yb = rowMajorStrides(append(append([]int{}, s.batch...), m*n))[:r]
	}
	offsets := func(i int) (ao, bo, yo int) {
		for ax := r - 1; ax >= 0 && i > 0; ax-- {
			d := s.batch[ax]
			c := i % d
			i /= d
			ao += c * av.batch[ax]
			bo += c * bv.batch[ax]
			yo += c * yb[ax]
		}
		return ao, bo, yo
	}
	mm := gemmFor[T]()
	pp := packedFor[T](pb)
	usePacked := pp != nil && len(x[1].Shape()) == 2
	err = s.eachProduct(opt, op, func(cfg gemm.Config, i, _, _ int) error {
		ao, bo, yo := offsets(i)
		if usePacked {
			return pp(cfg, false, m, n, k, 1, data[0][ao:], av.ld, 0, yv[yo:], ld)
		}
		return mm(cfg, false, false, m, n, k, 1, data[0][ao:], av.ld, data[1][bo:], bv.ld, 0, yv[yo:], ld)
	})
	if err != nil {
		return err
	}
	return store()
}

// FoldsInput reports whether MatMul node n folded the Transposes before
// its input k (FoldTransposes leaves some unfolded).
func (n *Node) FoldsInput(k int) bool {
	return n != nil && n.folds != nil && k >= 0 && k < 2 && len(n.folds.in[k]) > 0
}
