// Einsum sums products of elements of its inputs over the indices an
// Einstein summation equation names: "ij,jk->ik" is a matrix product,
// "ii->i" a diagonal, "bij,bjk->bik" a batched product, "i,i" an inner
// product. Without "->" (implicit mode) the output's indices are those
// that appear once, in alphabetical order, after the ellipsis's axes.
//
// Version 12; every integer type, float16, float and double. The rules, in
// order:
//
//	[type]     the inputs are all of one type the version allows
//	[equation] letters, at most one "..." per term, commas between as many
//	           terms as inputs, at most one "->"; the output names each
//	           index once, only indices the inputs name
//	[rank]     a term names as many axes as its input has (the ellipsis
//	           standing for the rest)
//	[shape]    an index has one size wherever it appears; the axes of the
//	           ellipses broadcast (numpy rules)
//
// The kernel never loops over terms: each input is first reduced to what
// the rest needs (a repeated index taken as a diagonal by one strided
// copy; an index no other input or the output names summed away by a
// product with a vector of ones), then the inputs are contracted left to
// right, each pair permuted (one copy each, skipped when already in
// order) into a batch of matrix products [batch, M, K]·[batch, K, N] run
// by the gemm engine, and the result is permuted into the output's order.
// Every intermediate is charged to the run. float16 is computed in float32
// and rounded once; the integers multiply and sum in their own type,
// wrapping as numpy's einsum does. Float results keep the bound
// reference.Agree states for sums of products.

package ops

import (
	"sort"
	"strings"

	"github.com/onnxshape/onnxshape/ops/internal/convert"
	"github.com/onnxshape/onnxshape/ops/internal/movement"

	"github.com/onnxshape/onnxshape/ops/internal/gemm"
	"github.com/onnxshape/onnxshape/tensor"
)

var einsumTypes = versionTypes{12: numberTypes}

func init() {
	register("Einsum", []int{12}, [2]int{1, -1}, [2]int{1, 1}, einsumNode)
	declareAttrs("Einsum", AttrSpec{Name: "equation", Type: AttrString})
}

// EinsumOptions are the attributes of Einsum.
type EinsumOptions struct {
	// Equation is the summation, as "ij,jk->ik" (attribute equation,
	// required).
	Equation string
}

// Einsum returns the Einstein summation of inputs that o.Equation names
// (ONNX Einsum, version 12).
func Einsum(inputs []*tensor.Tensor, o EinsumOptions, opts ...Option) (*tensor.Tensor, error) {
	op := opRef{"Einsum", 12}
	opt, err := callOptions(op, opts)
	if err != nil {
		return nil, err
	}
	return einsum(opt, op, o.Equation, inputs)
}

func einsumNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	xs := make([]*tensor.Tensor, len(in))
	for i := range in {
		var err error
		if xs[i], err = n.requiredInput(in, i, "Inputs"); err != nil {
			return nil, err
		}
	}
	a, ok, err := n.attr("equation", AttrString)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, n.op().errorf("equation", "the equation attribute is required")
	}
	y, err := einsum(opt, n.op(), a.String, xs)
	if err != nil {
		return nil, err
	}
	return values(y), nil
}

// ellipsisLabel is the label of the ellipsis's first axis; letters are
// labelled by their code (below 128).
const ellipsisLabel = 128

// einsumPlan is a parsed equation: the label of each axis of each input,
// the output's labels, and every label's size.
type einsumPlan struct {
	terms [][]int
	out   []int
	size  map[int]int
}

// einsumParse checks the equation against the inputs' shapes.
func einsumParse(op opRef, eq string, shapes [][]int) (*einsumPlan, error) {
	eq = strings.ReplaceAll(eq, " ", "")
	lhs, rhs, explicit := strings.Cut(eq, "->")
	if strings.Contains(rhs, "->") {
		return nil, op.errorf("equation", "%q has more than one \"->\"", eq)
	}
	terms := strings.Split(lhs, ",")
	parse := func(term string) (letters []int, ellipsisAt int, err error) {
		ellipsisAt = -1
		for i := 0; i < len(term); {
			c := term[i]
			switch {
			case strings.HasPrefix(term[i:], "..."):
				if ellipsisAt >= 0 {
					return nil, 0, op.errorf("equation", "term %q of %q has more than one ellipsis", term, eq)
				}
				ellipsisAt = len(letters)
				i += 3
				continue
			case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z':
				letters = append(letters, int(c))
			default:
				return nil, 0, op.errorf("equation", "term %q of %q holds %q, which is neither a letter nor an ellipsis", term, eq, c)
			}
			i++
		}
		return letters, ellipsisAt, nil
	}
	type parsed struct {
		letters    []int
		ellipsisAt int
	}
	in := make([]parsed, len(terms))
	for t, term := range terms {
		l, e, err := parse(term)
		if err != nil {
			return nil, err
		}
		in[t] = parsed{l, e}
	}
	var outLetters []int
	outEllipsis := -1
	if explicit {
		var err error
		if outLetters, outEllipsis, err = parse(rhs); err != nil {
			return nil, err
		}
		seen := map[int]bool{}
		for _, c := range outLetters {
			if seen[c] {
				return nil, op.errorf("equation", "the output of %q names %q twice", eq, rune(c))
			}
			seen[c] = true
			found := false
			for _, p := range in {
				for _, d := range p.letters {
					found = found || d == c
				}
			}
			if !found {
				return nil, op.errorf("equation", "the output of %q names %q, which no input names", eq, rune(c))
			}
		}
	}
	if len(terms) != len(shapes) {
		return nil, op.errorf("equation", "%q has %d terms for %d inputs", eq, len(terms), len(shapes))
	}
	// The ellipsis's axes, right-aligned across the inputs.
	ell := 0
	for t, p := range in {
		r := len(shapes[t])
		switch {
		case p.ellipsisAt < 0 && len(p.letters) != r:
			return nil, op.errorf("rank", "term %q names %d axes of input %d, of rank %d", terms[t], len(p.letters), t, r)
		case p.ellipsisAt >= 0 && len(p.letters) > r:
			return nil, op.errorf("rank", "term %q names %d axes and an ellipsis for input %d, of rank %d", terms[t], len(p.letters), t, r)
		}
		if p.ellipsisAt >= 0 {
			ell = max(ell, r-len(p.letters))
		}
	}
	plan := &einsumPlan{terms: make([][]int, len(terms)), size: map[int]int{}}
	for t, p := range in {
		s := shapes[t]
		labels := make([]int, 0, len(s))
		if p.ellipsisAt >= 0 {
			e := len(s) - len(p.letters)
			labels = append(labels, p.letters[:p.ellipsisAt]...)
			for j := range e {
				labels = append(labels, ellipsisLabel+ell-e+j)
			}
			labels = append(labels, p.letters[p.ellipsisAt:]...)
		} else {
			labels = append(labels, p.letters...)
		}
		for ax, l := range labels {
			d := s[ax]
			old, ok := plan.size[l]
			switch {
			case !ok || old == d:
				plan.size[l] = d
			case l >= ellipsisLabel && (old == 1 || d == 1):
				plan.size[l] = max(old, d)
				if old == 0 || d == 0 {
					plan.size[l] = 0
				}
			case l >= ellipsisLabel:
				return nil, op.errorf("shape", "the ellipsis axes of %q do not broadcast: %d against %d", eq, old, d)
			default:
				return nil, op.errorf("shape", "index %q of %q is %d in one place and %d in another (input %d of shape %v)", rune(l), eq, old, d, t, s)
			}
		}
		plan.terms[t] = labels
	}
	if explicit {
		for i, c := range outLetters {
			if i == outEllipsis {
				for j := range ell {
					plan.out = append(plan.out, ellipsisLabel+j)
				}
			}
			plan.out = append(plan.out, c)
		}
		if outEllipsis == len(outLetters) {
			for j := range ell {
				plan.out = append(plan.out, ellipsisLabel+j)
			}
		}
	} else {
		for j := range ell {
			plan.out = append(plan.out, ellipsisLabel+j)
		}
		count := map[int]int{}
		for _, p := range in {
			for _, c := range p.letters {
				count[c]++
			}
		}
		var once []int
		for c, n := range count {
			if n == 1 {
				once = append(once, c)
			}
		}
		sort.Ints(once)
		plan.out = append(plan.out, once...)
	}
	return plan, nil
}

// outputShape is the shape of the output.
func (p *einsumPlan) outputShape() []int {
	s := make([]int, len(p.out))
	for i, l := range p.out {
		s[i] = p.size[l]
	}
	return s
}

func einsum(opt *Options, op opRef, eq string, xs []*tensor.Tensor) (*tensor.Tensor, error) {
	opt = opt.orDefault()
	if len(xs) == 0 {
		return nil, op.errorf("input", "Einsum takes at least one input")
	}
	shapes := make([][]int, len(xs))
	for i, x := range xs {
		if err := checkInput(op, "Inputs", x); err != nil {
			return nil, err
		}
		shapes[i] = x.Shape()
	}
	dt := xs[0].DataType()
	if err := einsumTypes.check(op, "Inputs", dt); err != nil {
		return nil, err
	}
	for i, x := range xs {
		if x.DataType() != dt {
			return nil, op.errorf("type", "input %d is %v, input 0 %v: all are of type T", i, x.DataType(), dt)
		}
	}
	plan, err := einsumParse(op, eq, shapes)
	if err != nil {
		return nil, err
	}
	y, err := opt.newOverwritten(op, dt, plan.outputShape())
	if err != nil {
		return nil, err
	}
	if y.Len() == 0 {
		return y, nil
	}
	e := &einsumRun{opt: opt, op: op, plan: plan}
	switch productTypeOf(dt) {
	case tensor.Float:
		err = einsumAs[float32](e, xs, y)
	case tensor.Double:
		err = einsumAs[float64](e, xs, y)
	case tensor.Int8:
		err = einsumAs[int8](e, xs, y)
	case tensor.Int16:
		err = einsumAs[int16](e, xs, y)
	case tensor.Int32:
		err = einsumAs[int32](e, xs, y)
	case tensor.Int64:
		err = einsumAs[int64](e, xs, y)
	case tensor.Uint8:
		err = einsumAs[uint8](e, xs, y)
	case tensor.Uint16:
		err = einsumAs[uint16](e, xs, y)
	case tensor.Uint32:
		err = einsumAs[uint32](e, xs, y)
	case tensor.Uint64:
		err = einsumAs[uint64](e, xs, y)
	}
	if err != nil {
		return nil, err
	}
	return y, nil
}

// einsumRun is one run of the kernel.
type einsumRun struct {
	opt  *Options
	op   opRef
	plan *einsumPlan
}

// einsumOperand is an input or an intermediate: a contiguous tensor of
// the computing type and the label of each of its axes.
type einsumOperand struct {
	t      *tensor.Tensor
	labels []int
}

// scratch allocates an intermediate of type dt and shape, charged first.
func (e *einsumRun) scratch(dt tensor.DataType, shape []int) (*tensor.Tensor, error) {
	n, err := tensor.NumElements(shape)
	if err != nil {
		return nil, e.op.wrap("size", err, "an intermediate of shape %v", shape)
	}
	if err := e.opt.scratch(e.op, "an intermediate of Einsum", n, dt.Size()); err != nil {
		return nil, err
	}
	t, err := tensor.New(dt, shape...)
	if err != nil {
		return nil, e.op.wrap("size", err, "an intermediate of shape %v", shape)
	}
	return t, nil
}

// copyInto runs plan from src into a new intermediate of shape.
func (e *einsumRun) copyInto(src *tensor.Tensor, shape []int, p movement.Plan) (*tensor.Tensor, error) {
	dst, err := e.scratch(src.DataType(), shape)
	if err != nil {
		return nil, err
	}
	if err := p.Run(e.opt.moves(), dst, src); err != nil {
		return nil, e.op.stopped(err)
	}
	return dst, nil
}

func einsumAs[T gemm.Number](e *einsumRun, xs []*tensor.Tensor, y *tensor.Tensor) error {
	ct := productTypeOf(y.DataType())
	ops := make([]einsumOperand, len(xs))
	for i, x := range xs {
		t := x
		if ct != x.DataType() {
			var err error
			if t, err = e.scratch(ct, x.Shape()); err != nil {
				return err
			}
			if err := convert.Into(t, x, 0, x.Len(), convert.DefaultCast); err != nil {
				return e.op.wrap("type", err, "input %d", i)
			}
		}
		o, err := e.diagonal(einsumOperand{t: t, labels: e.plan.terms[i]})
		if err != nil {
			return err
		}
		ops[i] = o
	}
	// keep returns the labels the output or any operand but the ones
	// marked skip names.
	keep := func(skip ...int) map[int]bool {
		k := map[int]bool{}
		for _, l := range e.plan.out {
			k[l] = true
		}
		for i, o := range ops {
			if !contains(skip, i) {
				for _, l := range o.labels {
					k[l] = true
				}
			}
		}
		return k
	}
	cur, err := reduceOperand[T](e, ops[0], keep(0))
	if err != nil {
		return err
	}
	for j := 1; j < len(ops); j++ {
		next, err := reduceOperand[T](e, ops[j], keep(j))
		if err != nil {
			return err
		}
		skip := make([]int, j+1)
		for i := range skip {
			skip[i] = i
		}
		if cur, err = contract[T](e, cur, next, keep(skip...)); err != nil {
			return err
		}
	}
	skipAll := make([]int, len(ops))
	for i := range skipAll {
		skipAll[i] = i
	}
	if cur, err = reduceOperand[T](e, cur, keep(skipAll...)); err != nil {
		return err
	}
	// Permute into the output's order; output axes cur lacks have size 1.
	var perm []int
	for _, l := range e.plan.out {
		for ax, m := range cur.labels {
			if m == l {
				perm = append(perm, ax)
			}
		}
	}
	p := movement.PermutePlan(cur.t.Shape(), perm)
	p.Shape = e.plan.outputShape()
	full := make([]int, len(e.plan.out))
	k := 0
	for i, l := range e.plan.out {
		if k < len(perm) && cur.labels[perm[k]] == l {
			full[i] = p.SrcStrides[k]
			k++
		}
	}
	p.SrcStrides = full
	p.DstStrides = movement.ContiguousStrides(p.Shape)
	dst := y
	if ct != y.DataType() {
		if dst, err = e.scratch(ct, p.Shape); err != nil {
			return err
		}
	}
	if err := p.Run(e.opt.moves(), dst, cur.t); err != nil {
		return e.op.stopped(err)
	}
	if dst != y {
		if err := convert.StoreFloatsPolled(e.opt.orDefault().env.Ctx, y, elems[float32](dst)[:dst.Len()]); err != nil {
			return e.op.stopped(err)
		}
	}
	return nil
}

func contains(s []int, v int) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// diagonal returns o with each repeated label taken once (the diagonal,
// by one strided copy) and the ellipsis axes it broadcasts (size 1 where
// the label is larger) dropped.
func (e *einsumRun) diagonal(o einsumOperand) (einsumOperand, error) {
	shape := o.t.Shape()
	strides := movement.ContiguousStrides(shape)
	var labels, dims, src []int
	repeated := false
	for ax, l := range o.labels {
		if shape[ax] == 1 && e.plan.size[l] != 1 {
			continue // broadcast: the other operands give the label its size
		}
		at := -1
		for i, m := range labels {
			if m == l {
				at = i
			}
		}
		if at >= 0 {
			src[at] += strides[ax]
			repeated = true
			continue
		}
		labels = append(labels, l)
		dims = append(dims, shape[ax])
		src = append(src, strides[ax])
	}
	if !repeated {
		t, err := o.t.Reshape(dims...)
		if err != nil {
			return o, e.op.wrap("shape", err, "an input")
		}
		return einsumOperand{t: t, labels: labels}, nil
	}
	t, err := e.copyInto(o.t, dims, movement.Plan{Shape: dims, SrcStrides: src, DstStrides: movement.ContiguousStrides(dims)})
	if err != nil {
		return o, err
	}
	return einsumOperand{t: t, labels: labels}, nil
}

// arrange returns o's tensor with its axes in the order of labels (a copy
// only when that is not already its order).
func (e *einsumRun) arrange(o einsumOperand, labels []int) (*tensor.Tensor, error) {
	perm := make([]int, len(labels))
	identity := true
	for i, l := range labels {
		for ax, m := range o.labels {
			if m == l {
				perm[i] = ax
			}
		}
		identity = identity && perm[i] == i
	}
	if identity {
		return o.t, nil
	}
	shape := movement.Permuted(o.t.Shape(), perm)
	return e.copyInto(o.t, shape, movement.PermutePlan(o.t.Shape(), perm))
}

// reduceOperand sums o over the labels keep lacks: o arranged as a matrix
// [kept, summed] times a vector of ones.
func reduceOperand[T gemm.Number](e *einsumRun, o einsumOperand, keep map[int]bool) (einsumOperand, error) {
	var kept, summed []int
	rows, cols := 1, 1
	for _, l := range o.labels {
		if keep[l] {
			kept = append(kept, l)
			rows *= e.plan.size[l]
		} else {
			summed = append(summed, l)
			cols *= e.plan.size[l]
		}
	}
	if len(summed) == 0 {
		return o, nil
	}
	a, err := e.arrange(o, append(append([]int{}, kept...), summed...))
	if err != nil {
		return o, err
	}
	dims := make([]int, len(kept))
	for i, l := range kept {
		dims[i] = e.plan.size[l]
	}
	out, err := e.scratch(a.DataType(), dims)
	if err != nil {
		return o, err
	}
	ones, err := e.scratch(a.DataType(), []int{cols})
	if err != nil {
		return o, err
	}
	ov := elems[T](ones)[:cols]
	for i := range ov {
		ov[i] = 1
	}
	s := matmulShape{m: rows, k: cols, n: 1, count: 1}
	av, cv := elems[T](a)[:a.Len()], elems[T](out)[:out.Len()]
	mm := gemmFor[T]()
	err = s.eachProduct(e.opt, e.op, func(cfg gemm.Config, _, _, _ int) error {
		return mm(cfg, false, false, rows, 1, cols, 1, av, cols, ov, 1, 0, cv, 1)
	})
	if err != nil {
		return o, err
	}
	return einsumOperand{t: out, labels: kept}, nil
}

// contract returns the product of x and y summed over the labels both
// name and keep lacks: x arranged as [batch, M, K], y as [batch, K, N] (or
// [batch, N, K], transposed, when that is its order already), through a
// batch of the engine's products; the result's labels are batch, then x's
// own, then y's own.
func contract[T gemm.Number](e *einsumRun, x, y einsumOperand, keep map[int]bool) (einsumOperand, error) {
	var batch, sum, xOwn, yOwn []int
	for _, l := range x.labels {
		switch {
		case !contains(y.labels, l):
			xOwn = append(xOwn, l)
		case keep[l]:
			batch = append(batch, l)
		default:
			sum = append(sum, l)
		}
	}
	for _, l := range y.labels {
		if !contains(x.labels, l) {
			yOwn = append(yOwn, l)
		}
	}
	size := func(ls []int) int {
		n := 1
		for _, l := range ls {
			n *= e.plan.size[l]
		}
		return n
	}
	nb, m, k, n := size(batch), size(xOwn), size(sum), size(yOwn)
	cat := func(parts ...[]int) []int {
		var out []int
		for _, p := range parts {
			out = append(out, p...)
		}
		return out
	}
	transA, transB := false, false
	xOrder, yOrder := cat(batch, xOwn, sum), cat(batch, sum, yOwn)
	if alt := cat(batch, sum, xOwn); equalInts(alt, x.labels) && !equalInts(xOrder, x.labels) {
		xOrder, transA = alt, true
	}
	if alt := cat(batch, yOwn, sum); equalInts(alt, y.labels) && !equalInts(yOrder, y.labels) {
		yOrder, transB = alt, true
	}
	a, err := e.arrange(x, xOrder)
	if err != nil {
		return x, err
	}
	b, err := e.arrange(y, yOrder)
	if err != nil {
		return x, err
	}
	labels := cat(batch, xOwn, yOwn)
	dims := make([]int, len(labels))
	for i, l := range labels {
		dims[i] = e.plan.size[l]
	}
	out, err := e.scratch(a.DataType(), dims)
	if err != nil {
		return x, err
	}
	if out.Len() == 0 {
		return einsumOperand{t: out, labels: labels}, nil
	}
	lda, ldb := k, n
	if transA {
		lda = m
	}
	if transB {
		ldb = k
	}
	av, bv, cv := elems[T](a)[:a.Len()], elems[T](b)[:b.Len()], elems[T](out)[:out.Len()]
	s := matmulShape{m: m, k: k, n: n, batch: []int{nb}, aIndex: []int{1}, bIndex: []int{1}, count: nb}
	mm := gemmFor[T]()
	err = s.eachProduct(e.opt, e.op, func(cfg gemm.Config, i, ai, bi int) error {
		return mm(cfg, transA, transB, m, n, k, 1, av[ai*m*k:(ai+1)*m*k], lda, bv[bi*k*n:(bi+1)*k*n], ldb, 0, cv[i*m*n:(i+1)*m*n], n)
	})
	if err != nil {
		return x, err
	}
	return einsumOperand{t: out, labels: labels}, nil
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
