package ops

// Elementwise chains, the kernels' side of graph/fusetransformer.go. A
// transformer's exports spell GELU out node by node: with Erf,
// x * 0.5 * (1 + erf(x / sqrt 2)), five nodes; in the tanh form,
// 0.5x(1 + tanh(sqrt(2/pi)(x + 0.044715x^3))), eight; often after the
// Add of a Linear layer's bias. Run one by one, each node reads and writes
// the whole activation. A Chain runs such a region of float32 nodes that
// read one computed value X (besides constants) as one pass: each block of
// 512 elements of X goes through every node's operation while it is in
// the cache, in the nodes' order, each operation the node's own float32
// loop (IEEE sums, products and quotients, Pow's PowConst32,
// mathf's Tanh, Erf and Sigmoid), so the result has the bits of the nodes
// run one by one (TestChainBits, graph/fusetransformer_test.go).
//
// What a chain takes: Add, Sub, Mul and Div (from version 7) of two
// values or of a value and a float32 constant that is a single element or
// a row along the last axis (a bias); Pow (from 7) by a single constant
// exponent that PowConst32 has a loop for; Tanh, Sigmoid, Sqrt,
// Reciprocal (from 6) and Erf; Clip with constant bounds (its float32
// kernel, clamp.Float32), Relu and HardSigmoid (mathf.HardSigmoidsTo):
// HardSwish spelled out, x * Clip(x + 3, 0, 6) / 6, as the exports of
// opsets before 14 write it; ReduceMean over the last axis alone with
// keepdims (a LayerNorm's or an RMSNorm's mean, spelled out).
// What it does not take at run time (a base that is not float32, a
// constant of higher rank than X, a row that is not X's last axis, a
// ReduceMean's axis that is not X's last) it reports as not handled, and
// the graph runs the nodes one by one.
//
// A chain with a ReduceMean runs X row by row (a row: X's last axis) in
// groups of rows: a register holds either a row's elements or one value
// per row (a mean and what is computed from it alone), which broadcasts
// along its row as the unfused [..., 1] does. The mean is the
// ReduceMean operator's own row sum (ops/internal/reduce, each row its own
// accumulator whatever the rows around it), so a decomposed LayerNorm
// (ReduceMean, Sub, Pow 2, ReduceMean, Add eps, Sqrt, Div, Mul, Add) or
// RMSNorm (Pow 2, ReduceMean, Add eps, Sqrt, Reciprocal or Div, Mul) is
// one pass over X with every intermediate rounded to float32 where the
// unfused nodes round it: the same bits (graph/fusetransformer_test.go).

import (
	"fmt"
	"math"
	"strings"
	"sync"

	"github.com/onnxshape/onnxshape/ops/internal/clamp"
	"github.com/onnxshape/onnxshape/ops/internal/elementwise"
	"github.com/onnxshape/onnxshape/ops/internal/mathf"
	"github.com/onnxshape/onnxshape/ops/internal/reduce"
	"github.com/onnxshape/onnxshape/tensor"
)

// ChainArg is one input of a node of a chain: the chain's input X (Value
// 0), the output of the chain's node k (Value k+1), a constant (Const),
// or an optional input left out (Value ChainAbsent).
type ChainArg struct {
	Value int
	Const *tensor.Tensor
}

// ChainAbsent is the Value of an optional input left out (Clip's bounds).
const ChainAbsent = -1

// Chain is a region of elementwise nodes run as one pass (see above).
type Chain struct {
	instrs []chainInstr
	sink   *Node
	names  string
	rank   int // the highest rank of a constant
	row    int // the length of the row constants (0: none)
	// axes are the chain's ReduceMean axes as written (each must be X's
	// last at run time); a chain with one runs by rows.
	axes []int
}

type chainOp uint8

const (
	chainAdd chainOp = iota
	chainSub
	chainMul
	chainDiv
	chainPow
	chainTanh
	chainSigmoid
	chainErf
	chainSqrt
	chainReciprocal
	chainClip
	chainRelu
	chainHardSigmoid
	chainMean
)

// chainOperand is a register (reg >= 0), a scalar (reg == -1) or a row
// constant (reg == -2); red marks a register of one value per row.
type chainOperand struct {
	reg    int
	scalar float32
	row    []float32
	red    bool
}

// full reports whether the operand is a register of whole rows.
func (o chainOperand) full() bool { return o.reg >= 0 && !o.red }

type chainInstr struct {
	op   chainOp
	a, b chainOperand
	pow  elementwise.UnarySpan[float32, float32]
	red  bool // the result is one value per row
	// p, q are Clip's bounds, HardSigmoid's alpha and beta.
	p, q float32
}

// NewChain makes the chain of nodes (in an order that runs them) whose
// inputs are args; it reports false when a node or a constant is not one a
// chain takes.
func NewChain(nodes []*Node, args [][]ChainArg) (*Chain, bool) {
	if len(nodes) == 0 || len(nodes) != len(args) {
		return nil, false
	}
	c := &Chain{sink: nodes[len(nodes)-1]}
	var names []string
	for k, n := range nodes {
		if n == nil || n.Domain != "" || n.fusion != nil {
			return nil, false
		}
		names = append(names, fmt.Sprintf("%s %q", n.OpType, n.Name))
		in := args[k]
		operand := func(a ChainArg) (chainOperand, bool) {
			if a.Const == nil {
				if a.Value < 0 || a.Value > k {
					return chainOperand{}, false
				}
				return chainOperand{reg: a.Value, red: a.Value > 0 && c.instrs[a.Value-1].red}, true
			}
			t := a.Const
			if t.DataType() != tensor.Float || t.Len() == 0 {
				return chainOperand{}, false
			}
			c.rank = max(c.rank, t.Rank())
			v, _ := tensor.Data[float32](t)
			if t.Len() == 1 {
				return chainOperand{reg: -1, scalar: v[0]}, true
			}
			if t.Shape()[t.Rank()-1] != t.Len() || (c.row != 0 && c.row != t.Len()) {
				return chainOperand{}, false
			}
			c.row = t.Len()
			return chainOperand{reg: -2, row: v}, true
		}
		var ins chainInstr
		ok := true
		switch n.OpType {
		case "Add", "Sub", "Mul", "Div":
			if n.Version < 7 || len(in) != 2 || (in[0].Const != nil && in[1].Const != nil) {
				return nil, false
			}
			ins.op = map[string]chainOp{"Add": chainAdd, "Sub": chainSub, "Mul": chainMul, "Div": chainDiv}[n.OpType]
			var oka, okb bool
			ins.a, oka = operand(in[0])
			ins.b, okb = operand(in[1])
			ok = oka && okb
			// A value per row broadcasts along rows, never against a
			// row constant; the result is one per row unless a whole
			// row is an operand.
			if (ins.a.red && ins.b.reg == -2) || (ins.b.red && ins.a.reg == -2) {
				return nil, false
			}
			ins.red = (ins.a.red || ins.b.red) && !ins.a.full() && !ins.b.full()
		case "Pow":
			if n.Version < 7 || len(in) != 2 || in[0].Const != nil || in[1].Const == nil || in[1].Const.Len() != 1 || in[1].Const.Rank() > 1 {
				return nil, false
			}
			e, err := in[1].Const.Float64s()
			if err != nil || len(e) != 1 {
				return nil, false
			}
			if ins.pow = elementwise.PowConst32(e[0]); ins.pow == nil {
				return nil, false
			}
			ins.op = chainPow
			ins.a, ok = operand(in[0])
			ins.red = ins.a.red
		case "Tanh", "Sigmoid", "Erf", "Sqrt", "Reciprocal":
			if len(in) != 1 || in[0].Const != nil || (n.OpType != "Erf" && n.Version < 6) {
				return nil, false
			}
			ins.op = map[string]chainOp{"Tanh": chainTanh, "Sigmoid": chainSigmoid, "Erf": chainErf, "Sqrt": chainSqrt, "Reciprocal": chainReciprocal}[n.OpType]
			ins.a, ok = operand(in[0])
			ins.red = ins.a.red
		case "Clip":
			if len(in) < 1 || len(in) > 3 || in[0].Const != nil || (n.Version < 11 && len(in) != 1) {
				return nil, false
			}
			var okb bool
			if ins.p, ins.q, okb = chainClipBounds(n, in); !okb {
				return nil, false
			}
			ins.op = chainClip
			ins.a, ok = operand(in[0])
			ins.red = ins.a.red
		case "Relu", "HardSigmoid":
			if len(in) != 1 || in[0].Const != nil {
				return nil, false
			}
			ins.op = chainRelu
			if n.OpType == "HardSigmoid" {
				var err1, err2 error
				ins.p, err1 = n.Float("alpha", 0.2)
				ins.q, err2 = n.Float("beta", 0.5)
				if err1 != nil || err2 != nil {
					return nil, false
				}
				ins.op = chainHardSigmoid
			}
			ins.a, ok = operand(in[0])
			ins.red = ins.a.red
		case "ReduceMean":
			axis, okAxis := chainMeanAxis(n, in)
			if !okAxis || in[0].Const != nil {
				return nil, false
			}
			ins.op = chainMean
			ins.a, ok = operand(in[0])
			ok = ok && ins.a.full()
			ins.red = true
			c.axes = append(c.axes, axis)
		default:
			return nil, false
		}
		if !ok {
			return nil, false
		}
		c.instrs = append(c.instrs, ins)
	}
	if c.instrs[len(c.instrs)-1].red {
		return nil, false // the sink's output is X's shape
	}
	c.names = strings.Join(names, ", ")
	return c, true
}

// chainClipBounds returns Clip node n's bounds as its kernel has them
// (clipKernel): from the attributes before version 11 (absent: the
// float32 extremes), else from its constant inputs (absent: no bound);
// false for a bound that is computed or not one float32.
func chainClipBounds(n *Node, in []ChainArg) (lo, hi float32, ok bool) {
	if n.Version < 11 {
		a, err1 := n.Float("min", -math.MaxFloat32)
		b, err2 := n.Float("max", math.MaxFloat32)
		return a, b, err1 == nil && err2 == nil
	}
	lo, hi = float32(math.Inf(-1)), float32(math.Inf(1))
	for j, b := range []*float32{&lo, &hi} {
		if j+1 >= len(in) || (in[j+1].Const == nil && in[j+1].Value == ChainAbsent) {
			continue
		}
		t := in[j+1].Const
		if t == nil || t.DataType() != tensor.Float || t.Len() != 1 {
			return 0, 0, false
		}
		v, _ := tensor.Data[float32](t)
		*b = v[0]
	}
	return lo, hi, true
}

// chainMeanAxis returns the one axis that ReduceMean node n (inputs in)
// reduces, keeping it: from its axes attribute (before version 18) or its
// constant axes input.
func chainMeanAxis(n *Node, in []ChainArg) (int, bool) {
	keep, err := n.Int("keepdims", 1)
	if err != nil || keep != 1 {
		return 0, false
	}
	var axes []int64
	if n.Version < 18 {
		a, ok, err := n.Ints("axes")
		if err != nil || !ok || len(in) != 1 {
			return 0, false
		}
		axes = a
	} else {
		if len(in) != 2 || in[1].Const == nil || in[1].Const.DataType() != tensor.Int64 {
			return 0, false
		}
		axes, _ = tensor.Data[int64](in[1].Const)
	}
	if len(axes) != 1 || axes[0] < -64 || axes[0] > 64 || (axes[0] < 0 && n.Version < 11) {
		return 0, false
	}
	return int(axes[0]), true
}

// Nodes names the chain's nodes, for errors and traces.
func (c *Chain) Nodes() string { return c.names }

// chainBlock is the number of elements a chain takes through its nodes at
// once: its registers stay in the first-level cache.
const chainBlock = 512

// Run runs the chain on x. It reports false, with nothing done, when it
// does not take x (see above); its errors name the chain's nodes.
func (c *Chain) Run(opt *Options, x *tensor.Tensor) (*tensor.Tensor, bool, error) {
	if x == nil || x.DataType() != tensor.Float || x.Rank() < c.rank {
		return nil, false, nil
	}
	if len(c.axes) > 0 {
		return c.runRows(opt, x)
	}
	width := max(x.Len(), 1)
	if c.row != 0 {
		if x.Rank() == 0 || x.Shape()[x.Rank()-1] != c.row {
			return nil, false, nil
		}
		width = c.row
	}
	opt = opt.orDefault()
	op := c.sink.op()
	fail := func(err error) error {
		return fmt.Errorf("fused %s: %w", c.names, err)
	}
	out, err := opt.newOverwritten(op, tensor.Float, x.Shape())
	if err != nil {
		return nil, true, fail(err)
	}
	regs := len(c.instrs)
	if err := opt.scratch(op, "the chain's registers", opt.threads()*regs*chainBlock, 4); err != nil {
		return nil, true, fail(err)
	}
	xs, _ := tensor.Data[float32](x)
	os, _ := tensor.Data[float32](out)
	if len(xs) == 0 {
		return out, true, nil
	}
	perRow := (width + chainBlock - 1) / chainBlock
	units := len(xs) / width * perRow
	run := chainBlocks{c: c, opt: opt, xs: xs, os: os, width: width, perRow: perRow}
	if serial, cerr := alone(opt, units, len(xs)*regs); serial {
		err = cerr
		if err == nil {
			err = run.units(0, units)
		}
	} else {
		p := new(chainBlocks) // the workers' copy
		*p = run
		err = parallelRange(opt, units, len(xs)*regs, p.units)
	}
	if err != nil {
		return nil, true, fail(op.wrap("cancelled", err, "run stopped"))
	}
	return out, true, nil
}

// chainBlocks is a chain's run over blocks (Chain.Run): xs's rows of
// width elements into os's, perRow blocks of at most chainBlock a row.
type chainBlocks struct {
	c             *Chain
	opt           *Options
	xs, os        []float32
	width, perRow int
}

// units runs the blocks [lo, hi).
func (r *chainBlocks) units(lo, hi int) error {
	c, xs, os, width, perRow := r.c, r.xs, r.os, r.width, r.perRow
	regs := len(c.instrs)
	bufp := chainBuffer(regs * chainBlock)
	defer chainBufs.Put(bufp)
	buf := *bufp
	var regArr [maxChainRegs + 1][]float32
	reg := regArr[:regs+1]
	if regs+1 > len(regArr) {
		reg = make([][]float32, regs+1)
	}
	for u := lo; u < hi; u++ {
		if (u-lo)%64 == 63 {
			if err := r.opt.Context().Err(); err != nil {
				return err
			}
		}
		row, col := u/perRow, u%perRow*chainBlock
		n := min(chainBlock, width-col)
		at := row*width + col
		reg[0] = xs[at : at+n]
		for k := range c.instrs {
			d := os[at : at+n]
			if k < len(c.instrs)-1 {
				d = buf[k*chainBlock : k*chainBlock+n]
			}
			reg[k+1] = d
			c.instrs[k].run(d, reg, col)
		}
	}
	return nil
}

// slice is the operand over the block at column col: a register's or the
// row's elements (nil for a scalar).
func (o chainOperand) slice(reg [][]float32, col, n int) []float32 {
	switch o.reg {
	case -1:
		return nil
	case -2:
		return o.row[col : col+n]
	}
	return reg[o.reg][:n]
}

// run computes the instruction's block d.
func (ins *chainInstr) run(d []float32, reg [][]float32, col int) {
	n := len(d)
	a := ins.a.slice(reg, col, n)
	switch ins.op {
	case chainPow:
		ins.pow(d, a)
		return
	case chainTanh:
		mathf.TanhsTo(d, a)
		return
	case chainSigmoid:
		mathf.SigmoidsTo(d, a)
		return
	case chainErf:
		mathf.ErfsTo(d, a)
		return
	case chainSqrt:
		elementwise.SqrtF32(d, a)
		return
	case chainReciprocal:
		elementwise.ReciprocalF32(d, a)
		return
	case chainClip: // Clip's float32 kernel (clipKernel)
		clamp.Float32(d, a[:n], ins.p, ins.q)
		return
	case chainRelu:
		elementwise.ReluF32(d, a)
		return
	case chainHardSigmoid:
		mathf.HardSigmoidsTo(d, a, ins.p, ins.q)
		return
	}
	b := ins.b.slice(reg, col, n)
	sp := &chainArith[ins.op]
	switch {
	case a != nil && b != nil:
		sp.Both(d, a, b)
	case b == nil:
		sp.Right(d, a, ins.b.scalar)
	default:
		sp.Left(d, ins.a.scalar, b)
	}
}

// chainArith are the float32 loops of Add, Sub, Mul and Div, by chainOp:
// the operators' own (add.go, sub.go, mul.go, div.go), with their AVX
// loops for the bulk, so that a chain computes the same IEEE operations.
var chainArith = [...]binarySpans[float32, float32, float32]{
	chainAdd: elementwise.Vectorized("Add", addSpans[float32]()),
	chainSub: elementwise.Vectorized("Sub", subSpans[float32]()),
	chainMul: elementwise.Vectorized("Mul", mulSpans[float32]()),
	chainDiv: elementwise.Vectorized("Div", floatDivSpans[float32]()),
}

// chainBufs holds the registers of finished chains' workers for the next
// (what a run charges for them, opt.scratch, is charged at every run).
var chainBufs sync.Pool

// chainBuffer returns registers of n float32 from chainBufs or new ones.
func chainBuffer(n int) *[]float32 {
	if p, ok := chainBufs.Get().(*[]float32); ok && cap(*p) >= n {
		*p = (*p)[:n]
		return p
	}
	b := make([]float32, n)
	return &b
}

// chainRowGroup is the number of elements of X a chain that runs by rows
// takes through its nodes at once (whole rows, at least one).
const chainRowGroup = 2048

// runRows runs a chain with a ReduceMean (see above) on x, a float32
// tensor of at least the constants' rank.
func (c *Chain) runRows(opt *Options, x *tensor.Tensor) (*tensor.Tensor, bool, error) {
	shape := x.Shape()
	rank := len(shape)
	if rank == 0 || x.Len() == 0 {
		return nil, false, nil
	}
	width := shape[rank-1]
	if c.row != 0 && c.row != width {
		return nil, false, nil
	}
	for _, a := range c.axes {
		if a < 0 {
			a += rank
		}
		if a != rank-1 {
			return nil, false, nil
		}
	}
	last := make([]bool, rank)
	last[rank-1] = true
	if l := reduce.NewLayout(shape, last); l.General || l.Inner != 1 || l.N != width {
		return nil, false, nil
	}
	opt = opt.orDefault()
	op := c.sink.op()
	fail := func(err error) error {
		return fmt.Errorf("fused %s: %w", c.names, err)
	}
	out, err := opt.newOverwritten(op, tensor.Float, shape)
	if err != nil {
		return nil, true, fail(err)
	}
	rows := x.Len() / width
	group := min(max(1, chainRowGroup/width), rows)
	regs := len(c.instrs)
	if err := opt.scratch(op, "the chain's registers", mulCounts(opt.threads(), mulCounts(regs, group*width+group)), 4); err != nil {
		return nil, true, fail(err)
	}
	xs, _ := tensor.Data[float32](x)
	os, _ := tensor.Data[float32](out)
	units := (rows + group - 1) / group
	run := chainRows{c: c, opt: opt, xs: xs, os: os, rows: rows, group: group, width: width}
	if serial, cerr := alone(opt, units, len(xs)*regs); serial {
		err = cerr
		if err == nil {
			err = run.units(0, units)
		}
	} else {
		p := new(chainRows) // the workers' copy
		*p = run
		err = parallelRange(opt, units, len(xs)*regs, p.units)
	}
	if err != nil {
		return nil, true, fail(op.wrap("cancelled", err, "run stopped"))
	}
	return out, true, nil
}

// chainRows is a chain's run over rows (Chain.runRows): xs's rows into
// os's, in units of group rows.
type chainRows struct {
	c                  *Chain
	opt                *Options
	xs, os             []float32
	rows, group, width int
}

// maxChainRegs is the most registers a chain's run keeps on the stack.
const maxChainRegs = 16

// units runs the units [lo, hi) of group rows.
func (r *chainRows) units(lo, hi int) error {
	c, group, width, rows := r.c, r.group, r.width, r.rows
	xs, os := r.xs, r.os
	regs := len(c.instrs)
	bufp := chainBuffer(regs*group*width + regs*group)
	defer chainBufs.Put(bufp)
	buf, red := (*bufp)[:regs*group*width], (*bufp)[regs*group*width:]
	var regArr [maxChainRegs + 1][]float32
	reg := regArr[:regs+1]
	if regs+1 > len(regArr) {
		reg = make([][]float32, regs+1)
	}
	for u := lo; u < hi; u++ {
		if (u-lo)%16 == 15 {
			if err := r.opt.Context().Err(); err != nil {
				return err
			}
		}
		r0 := u * group
		g := min(group, rows-r0)
		reg[0] = xs[r0*width : (r0+g)*width]
		for k := range c.instrs {
			ins := &c.instrs[k]
			var d []float32
			switch {
			case ins.red:
				d = red[k*group : k*group+g]
			case k == regs-1:
				d = os[r0*width : (r0+g)*width]
			default:
				d = buf[k*group*width : (k*group+g)*width]
			}
			reg[k+1] = d
			ins.runRows(d, reg, g, width)
		}
	}
	return nil
}

// runRows computes the instruction's result d over g rows of width
// elements: whole rows, or one value per row when ins.red.
func (ins *chainInstr) runRows(d []float32, reg [][]float32, g, width int) {
	if ins.op == chainMean {
		// The ReduceMean operator's own rows (reduce.Run's, through RowMeans).
		reduce.RowMeans(reg[ins.a.reg], width, d)
		return
	}
	if ins.op >= chainPow && ins.op <= chainHardSigmoid || ins.red {
		// A unary operation, or values per row and scalars only: every
		// operand is as long as d, or a scalar.
		ins.run(d, reg, 0)
		return
	}
	if !ins.a.red && !ins.b.red && ins.a.reg != -2 && ins.b.reg != -2 {
		ins.run(d, reg, 0) // whole rows and scalars
		return
	}
	// Row by row: a value per row or a row constant broadcast along it.
	sp := &chainArith[ins.op]
	for r := range g {
		a, as := ins.a.rowOf(reg, r, width)
		b, bs := ins.b.rowOf(reg, r, width)
		o := d[r*width : (r+1)*width]
		switch {
		case a != nil && b != nil:
			sp.Both(o, a, b)
		case b == nil:
			sp.Right(o, a, bs)
		default:
			sp.Left(o, as, b)
		}
	}
}

// rowOf is the operand over row r: its elements, or nil and the scalar
// that broadcasts along the row.
func (o chainOperand) rowOf(reg [][]float32, r, width int) ([]float32, float32) {
	switch {
	case o.reg == -1:
		return nil, o.scalar
	case o.reg == -2:
		return o.row, 0
	case o.red:
		return nil, reg[o.reg][r]
	}
	return reg[o.reg][r*width : (r+1)*width], 0
}
