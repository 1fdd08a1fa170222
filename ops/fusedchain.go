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
// exponent that PowConst32 has a loop for; Tanh, Sigmoid (from 6) and Erf.
// What it does not take at run time (a base that is not float32, a
// constant of higher rank than X, a row that is not X's last axis) it
// reports as not handled, and the graph runs the nodes one by one.

import (
	"fmt"
	"strings"

	"github.com/onnxshape/onnxshape/ops/internal/elementwise"
	"github.com/onnxshape/onnxshape/ops/internal/mathf"
	"github.com/onnxshape/onnxshape/tensor"
)

// ChainArg is one input of a node of a chain: the chain's input X (Value
// 0), the output of the chain's node k (Value k+1), or a constant (Const).
type ChainArg struct {
	Value int
	Const *tensor.Tensor
}

// Chain is a region of elementwise nodes run as one pass (see above).
type Chain struct {
	instrs []chainInstr
	sink   *Node
	names  string
	rank   int // the highest rank of a constant
	row    int // the length of the row constants (0: none)
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
)

// chainOperand is a register (reg >= 0), a scalar (reg == -1) or a row
// constant (reg == -2).
type chainOperand struct {
	reg    int
	scalar float32
	row    []float32
}

type chainInstr struct {
	op   chainOp
	a, b chainOperand
	pow  elementwise.UnarySpan[float32, float32]
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
				return chainOperand{reg: a.Value}, a.Value >= 0 && a.Value <= k
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
		case "Tanh", "Sigmoid", "Erf":
			if len(in) != 1 || in[0].Const != nil || (n.OpType != "Erf" && n.Version < 6) {
				return nil, false
			}
			ins.op = map[string]chainOp{"Tanh": chainTanh, "Sigmoid": chainSigmoid, "Erf": chainErf}[n.OpType]
			ins.a, ok = operand(in[0])
		default:
			return nil, false
		}
		if !ok {
			return nil, false
		}
		c.instrs = append(c.instrs, ins)
	}
	c.names = strings.Join(names, ", ")
	return c, true
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
	err = parallelRange(opt, units, len(xs)*len(c.instrs), func(lo, hi int) error {
		buf := make([]float32, regs*chainBlock)
		reg := make([][]float32, regs+1)
		for u := lo; u < hi; u++ {
			if (u-lo)%64 == 63 {
				if err := opt.Context().Err(); err != nil {
					return err
				}
			}
			row, col := u/perRow, u%perRow*chainBlock
			n := min(chainBlock, width-col)
			at := row*width + col
			reg[0] = xs[at : at+n]
			for k, ins := range c.instrs {
				d := os[at : at+n]
				if k < len(c.instrs)-1 {
					d = buf[k*chainBlock : k*chainBlock+n]
				}
				reg[k+1] = d
				ins.run(d, reg, col)
			}
		}
		return nil
	})
	if err != nil {
		return nil, true, fail(op.wrap("cancelled", err, "run stopped"))
	}
	return out, true, nil
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
