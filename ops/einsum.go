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
	"slices"
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
	return einsum(opt, op, nil, o.Equation, inputs)
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
	y, err := einsum(opt, n.op(), n, a.String, xs)
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
	shapes [][]int // the inputs' shapes
	terms  [][]int
	out    []int
	size   map[int]int
	shape  []int // the output's shape
	sched  einsumSchedule
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
	plan := &einsumPlan{shapes: shapes, terms: make([][]int, len(terms)), size: map[int]int{}}
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

// einsumKept is what an Einsum node keeps from its last run (Node.kept):
// the plan for the equation and the inputs' shapes, never modified once
// stored. Parsing and scheduling a small product took longer than the
// product.
type einsumKept struct {
	eq     string
	shapes [][]int
	plan   *einsumPlan
}

// lastEinsum is the plan n kept for eq and inputs of the shapes xs, nil for
// none (or no node).
func (n *Node) lastEinsum(eq string, xs []*tensor.Tensor) *einsumPlan {
	if n == nil {
		return nil
	}
	k, _ := n.kept.Load().(*einsumKept)
	if k == nil || k.eq != eq || len(k.shapes) != len(xs) {
		return nil
	}
	for i, x := range xs {
		if !tensor.SameShape(k.shapes[i], x.Shape()) {
			return nil
		}
	}
	return k.plan
}

// einsum computes the summation eq of xs. n, when not nil, is the node: it
// keeps the plan of its last run (einsumKept) for the next run on inputs of
// the same shapes.
func einsum(opt *Options, op opRef, n *Node, eq string, xs []*tensor.Tensor) (*tensor.Tensor, error) {
	opt = opt.orDefault()
	if len(xs) == 0 {
		return nil, op.errorf("input", "Einsum takes at least one input")
	}
	for _, x := range xs {
		if err := checkInput(op, "Inputs", x); err != nil {
			return nil, err
		}
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
	plan := n.lastEinsum(eq, xs)
	if plan == nil {
		shapes := make([][]int, len(xs))
		for i, x := range xs {
			shapes[i] = slices.Clone(x.Shape())
		}
		var err error
		if plan, err = einsumParse(op, eq, shapes); err != nil {
			return nil, err
		}
		plan.schedule()
		if n != nil {
			n.kept.Store(&einsumKept{eq: eq, shapes: shapes, plan: plan})
		}
	}
	y, err := opt.newOverwritten(op, dt, plan.shape)
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

// The schedule: every step's labels, shapes, permutations and product
// sizes follow from the equation and the inputs' shapes alone, so they are
// worked out once (schedule) and a run only allocates the intermediates
// and moves data.
//
// Each input is first reduced to what the rest needs (einsumInput: a
// repeated index taken as a diagonal, then the indices no other input nor
// the output names summed away); then the inputs are contracted left to
// right (einsumContract), the indices only the result still names summed
// (final), and the result is permuted into the output's order (permute).

// einsumArrange puts an operand's axes in the order a step needs: a copy
// by plan, or nothing when they are in that order already.
type einsumArrange struct {
	copy  bool
	plan  movement.Plan
	shape []int // the arranged shape
}

// einsumInput is what happens to one input before the contractions.
type einsumInput struct {
	// diagonal, when set, takes each repeated label once by a strided copy
	// of shape diagonalShape (diagonalPlan); ellipsis axes broadcast from
	// size 1 are dropped without a copy.
	diagonal      bool
	diagonalPlan  movement.Plan
	diagonalShape []int
	reduce        einsumReduce
}

// einsumReduce sums an operand over the labels no later step needs: the
// operand arranged as a matrix [rows, cols] (kept labels, then summed)
// times a vector of ones. skip: nothing to sum.
type einsumReduce struct {
	skip       bool
	arrange    einsumArrange
	rows, cols int
	shape      []int // the result's shape
}

// einsumContract is the product of the result so far (x) and the next
// input (y), summed over the labels both name and no later step needs: x
// arranged as [batch, M, K] (or [batch, K, M], transA, when that is its
// order already), y as [batch, K, N] (or [batch, N, K], transB), through a
// batch of the engine's products; the result's labels are batch, then x's
// own, then y's own.
type einsumContract struct {
	a, b           einsumArrange
	transA, transB bool
	product        matmulShape
	shape          []int // the result's shape
}

// einsumSchedule is the plan's sequence of steps.
type einsumSchedule struct {
	inputs    []einsumInput
	contracts []einsumContract // contracts[j] joins input j+1
	final     einsumReduce
	permute   movement.Plan
	// inOrder: the result's axes are the output's, permute is a plain copy,
	// and the last step that computes may write the output itself.
	inOrder bool
}

// schedule works out p.sched and p.shape.
func (p *einsumPlan) schedule() {
	p.shape = p.outputShape()
	s := &p.sched
	s.inputs = make([]einsumInput, len(p.terms))
	labels := make([][]int, len(p.terms)) // each input's labels after its diagonal
	for i, term := range p.terms {
		labels[i] = p.scheduleDiagonal(&s.inputs[i], term, p.shapes[i])
	}
	// keep returns the labels the output or any input from `from` on names.
	keep := func(from int) map[int]bool {
		k := map[int]bool{}
		for _, l := range p.out {
			k[l] = true
		}
		for _, ls := range labels[from:] {
			for _, l := range ls {
				k[l] = true
			}
		}
		return k
	}
	// An input's own reduction keeps what the output or any other input
	// names.
	reduced := make([][]int, len(labels))
	for i := range labels {
		k := keep(len(labels))
		for j, ls := range labels {
			if j != i {
				for _, l := range ls {
					k[l] = true
				}
			}
		}
		reduced[i] = p.scheduleReduce(&s.inputs[i].reduce, labels[i], k)
	}
	cur := reduced[0]
	s.contracts = make([]einsumContract, len(labels)-1)
	for j := 1; j < len(labels); j++ {
		cur = p.scheduleContract(&s.contracts[j-1], cur, reduced[j], keep(j+1))
	}
	cur = p.scheduleReduce(&s.final, cur, keep(len(labels)))
	// Permute into the output's order; output axes cur lacks have size 1.
	var perm []int
	for _, l := range p.out {
		for ax, m := range cur {
			if m == l {
				perm = append(perm, ax)
			}
		}
	}
	s.inOrder = true
	for i, ax := range perm {
		s.inOrder = s.inOrder && ax == i
	}
	pl := movement.PermutePlan(p.sizes(cur), perm)
	pl.Shape = p.shape
	full := make([]int, len(p.out))
	k := 0
	for i, l := range p.out {
		if k < len(perm) && cur[perm[k]] == l {
			full[i] = pl.SrcStrides[k]
			k++
		}
	}
	pl.SrcStrides = full
	pl.DstStrides = movement.ContiguousStrides(pl.Shape)
	s.permute = pl
}

// sizes is the shape of an operand with labels ls.
func (p *einsumPlan) sizes(ls []int) []int {
	d := make([]int, len(ls))
	for i, l := range ls {
		d[i] = p.size[l]
	}
	return d
}

// scheduleDiagonal plans in for an input of shape whose axes are labelled
// term and returns the labels after: each repeated label once (the
// diagonal, by one strided copy) and the ellipsis axes it broadcasts (size
// 1 where the label is larger) dropped, which needs no copy.
func (p *einsumPlan) scheduleDiagonal(in *einsumInput, term, shape []int) []int {
	strides := movement.ContiguousStrides(shape)
	var labels, dims, src []int
	for ax, l := range term {
		if shape[ax] == 1 && p.size[l] != 1 {
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
			in.diagonal = true
			continue
		}
		labels = append(labels, l)
		dims = append(dims, shape[ax])
		src = append(src, strides[ax])
	}
	if in.diagonal {
		in.diagonalShape = dims
		in.diagonalPlan = movement.Plan{Shape: dims, SrcStrides: src, DstStrides: movement.ContiguousStrides(dims)}
	}
	return labels
}

// scheduleArrange plans a to put the axes of an operand labelled from in
// the order of labels (a copy only when that is not already its order).
func (p *einsumPlan) scheduleArrange(a *einsumArrange, from, labels []int) {
	perm := make([]int, len(labels))
	identity := true
	for i, l := range labels {
		for ax, m := range from {
			if m == l {
				perm[i] = ax
			}
		}
		identity = identity && perm[i] == i
	}
	a.shape = p.sizes(labels)
	if !identity {
		a.copy = true
		a.plan = movement.PermutePlan(p.sizes(from), perm)
	}
}

// scheduleReduce plans r for an operand labelled from, summed over the
// labels keep lacks, and returns the labels after.
func (p *einsumPlan) scheduleReduce(r *einsumReduce, from []int, keep map[int]bool) []int {
	var kept, summed []int
	r.rows, r.cols = 1, 1
	for _, l := range from {
		if keep[l] {
			kept = append(kept, l)
			r.rows *= p.size[l]
		} else {
			summed = append(summed, l)
			r.cols *= p.size[l]
		}
	}
	if len(summed) == 0 {
		r.skip = true
		return from
	}
	p.scheduleArrange(&r.arrange, from, append(slices.Clone(kept), summed...))
	r.shape = p.sizes(kept)
	return kept
}

// scheduleContract plans c for the product of operands labelled x and y,
// summed over the labels both name and keep lacks, and returns the labels
// of the result.
func (p *einsumPlan) scheduleContract(c *einsumContract, x, y []int, keep map[int]bool) []int {
	var batch, sum, xOwn, yOwn []int
	for _, l := range x {
		switch {
		case !slices.Contains(y, l):
			xOwn = append(xOwn, l)
		case keep[l]:
			batch = append(batch, l)
		default:
			sum = append(sum, l)
		}
	}
	for _, l := range y {
		if !slices.Contains(x, l) {
			yOwn = append(yOwn, l)
		}
	}
	size := func(ls []int) int {
		n := 1
		for _, l := range ls {
			n *= p.size[l]
		}
		return n
	}
	nb, m, k, n := size(batch), size(xOwn), size(sum), size(yOwn)
	xOrder, yOrder := slices.Concat(batch, xOwn, sum), slices.Concat(batch, sum, yOwn)
	if alt := slices.Concat(batch, sum, xOwn); slices.Equal(alt, x) && !slices.Equal(xOrder, x) {
		xOrder, c.transA = alt, true
	}
	if alt := slices.Concat(batch, yOwn, sum); slices.Equal(alt, y) && !slices.Equal(yOrder, y) {
		yOrder, c.transB = alt, true
	}
	p.scheduleArrange(&c.a, x, xOrder)
	p.scheduleArrange(&c.b, y, yOrder)
	labels := slices.Concat(batch, xOwn, yOwn)
	c.shape = p.sizes(labels)
	c.product = matmulShape{m: m, k: k, n: n, batch: []int{nb}, aIndex: []int{1}, bIndex: []int{1}, count: nb}
	return labels
}

// einsumRun is one run of the kernel.
type einsumRun struct {
	opt  *Options
	op   opRef
	plan *einsumPlan
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

// arrange returns t arranged as a says: t itself or a copy.
func (e *einsumRun) arrange(t *tensor.Tensor, a *einsumArrange) (*tensor.Tensor, error) {
	if !a.copy {
		return t, nil
	}
	return e.copyInto(t, a.shape, a.plan)
}

// The operands of a run are contiguous tensors of the computing type
// whose shapes the schedule knows: their own shapes are not read.

func einsumAs[T gemm.Number](e *einsumRun, xs []*tensor.Tensor, y *tensor.Tensor) error {
	s := &e.plan.sched
	ct := productTypeOf(y.DataType())
	// into is the output when the last step that computes may write it.
	var into *tensor.Tensor
	if ct == y.DataType() && s.inOrder {
		into = y
	}
	last := func(isLast bool) *tensor.Tensor {
		if isLast {
			return into
		}
		return nil
	}
	input := func(i int, dst *tensor.Tensor) (*tensor.Tensor, error) {
		x, in := xs[i], &s.inputs[i]
		t := x
		if ct != x.DataType() {
			var err error
			if t, err = e.scratch(ct, x.Shape()); err != nil {
				return nil, err
			}
			if err := convert.Into(t, x, 0, x.Len(), convert.DefaultCast); err != nil {
				return nil, e.op.wrap("type", err, "input %d", i)
			}
		}
		if in.diagonal {
			var err error
			if t, err = e.copyInto(t, in.diagonalShape, in.diagonalPlan); err != nil {
				return nil, err
			}
		}
		return reduceOperand[T](e, t, &in.reduce, dst)
	}
	cur, err := input(0, last(len(s.contracts) == 0 && s.final.skip))
	if err != nil {
		return err
	}
	for j := range s.contracts {
		next, err := input(j+1, nil)
		if err != nil {
			return err
		}
		if cur, err = contract[T](e, cur, next, &s.contracts[j], last(j == len(s.contracts)-1 && s.final.skip)); err != nil {
			return err
		}
	}
	if cur, err = reduceOperand[T](e, cur, &s.final, into); err != nil {
		return err
	}
	if cur == y {
		return nil
	}
	dst := y
	if ct != y.DataType() {
		if dst, err = e.scratch(ct, e.plan.shape); err != nil {
			return err
		}
	}
	if err := s.permute.Run(e.opt.moves(), dst, cur); err != nil {
		return e.op.stopped(err)
	}
	if dst != y {
		if err := convert.StoreFloatsPolled(e.opt.orDefault().env.Ctx, y, elems[float32](dst)[:dst.Len()]); err != nil {
			return e.op.stopped(err)
		}
	}
	return nil
}

// reduceOperand sums t as r says into dst (nil: a new intermediate); t
// itself when there is nothing to sum.
func reduceOperand[T gemm.Number](e *einsumRun, t *tensor.Tensor, r *einsumReduce, dst *tensor.Tensor) (*tensor.Tensor, error) {
	if r.skip {
		return t, nil
	}
	a, err := e.arrange(t, &r.arrange)
	if err != nil {
		return nil, err
	}
	out := dst
	if out == nil {
		if out, err = e.scratch(a.DataType(), r.shape); err != nil {
			return nil, err
		}
	}
	ones, err := e.scratch(a.DataType(), []int{r.cols})
	if err != nil {
		return nil, err
	}
	ov := elems[T](ones)[:r.cols]
	for i := range ov {
		ov[i] = 1
	}
	rows, cols := r.rows, r.cols
	s := matmulShape{m: rows, k: cols, n: 1, count: 1}
	av, cv := elems[T](a)[:a.Len()], elems[T](out)[:out.Len()]
	mm := gemmFor[T]()
	err = s.eachProduct(e.opt, e.op, func(cfg gemm.Config, _, _, _ int) error {
		return mm(cfg, false, false, rows, 1, cols, 1, av, cols, ov, 1, 0, cv, 1)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// contract returns the product of x and y as c says, into dst (nil: a new
// intermediate).
func contract[T gemm.Number](e *einsumRun, x, y *tensor.Tensor, c *einsumContract, dst *tensor.Tensor) (*tensor.Tensor, error) {
	a, err := e.arrange(x, &c.a)
	if err != nil {
		return nil, err
	}
	b, err := e.arrange(y, &c.b)
	if err != nil {
		return nil, err
	}
	out := dst
	if out == nil {
		if out, err = e.scratch(a.DataType(), c.shape); err != nil {
			return nil, err
		}
	}
	if out.Len() == 0 {
		return out, nil
	}
	m, k, n := c.product.m, c.product.k, c.product.n
	transA, transB := c.transA, c.transB
	lda, ldb := k, n
	if transA {
		lda = m
	}
	if transB {
		ldb = k
	}
	av, bv, cv := elems[T](a)[:a.Len()], elems[T](b)[:b.Len()], elems[T](out)[:out.Len()]
	mm := gemmFor[T]()
	err = c.product.eachProduct(e.opt, e.op, func(cfg gemm.Config, i, ai, bi int) error {
		return mm(cfg, transA, transB, m, n, k, 1, av[ai*m*k:(ai+1)*m*k], lda, bv[bi*k*n:(bi+1)*k*n], ldb, 0, cv[i*m*n:(i+1)*m*n], n)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
