package ops

import (
	"github.com/onnxshape/onnxshape/ops/internal/gemm"
	"github.com/onnxshape/onnxshape/ops/internal/rnn"
	"github.com/onnxshape/onnxshape/tensor"
)

// Prepacked weights. A matrix product copies its B operand into the
// panels its micro-kernel reads (ops/internal/gemm); when B is a constant
// of the model (a MatMul's or Gemm's weights, MatMulInteger's or
// QLinearMatMul's int8 weights), that copy is the same at every run. The
// model runner hands PackConstants a node's constant inputs once, at
// load; the node keeps the packed copies, charged to the model's memory,
// and its kernel uses them at every run whose input is that very tensor
// (the initializer, never a caller's override), skipping the copy and its
// scratch. Conv needs none: its weights are the product's A operand,
// which the engine reads in place. The recurrent cells (LSTM, GRU, RNN)
// keep W and R transposed, as their products read them
// (ops/internal/rnn.Inputs.WT and RT).

// weightPack is one input of a node packed for the GEMM engine.
type weightPack struct {
	src *tensor.Tensor // the constant it was packed from
	f32 *gemm.PackedB32
	f64 *gemm.PackedB64
	i8  *gemm.PackedB8
	// t32 and t64 are a recurrent cell's W or R transposed.
	t32 []float32
	t64 []float64
}

// nodePacks are a node's packed constant inputs, by input index.
type nodePacks map[int]*weightPack

// packedInput returns input i's packed copy when the node holds one made
// from t itself, else nil.
func (n *Node) packedInput(i int, t *tensor.Tensor) *weightPack {
	if n == nil || n.packs == nil {
		return nil
	}
	if p := n.packs[i]; p != nil && p.src == t {
		return p
	}
	return nil
}

// packer packs one constant input of a node (nil: nothing to pack).
type packer func(n *Node, t *tensor.Tensor, cfg gemm.Config) (*weightPack, error)

// packers are the operators whose constant weights are packed, by the
// input they are.
var packers = map[string]map[int]packer{
	"MatMul":        {1: packMatMulB},
	"Gemm":          {1: packGemmB},
	"MatMulInteger": {1: packIntegerB},
	"QLinearMatMul": {3: packIntegerB},
	"LSTM":          {1: packRecurrentW, 2: packRecurrentR},
	"GRU":           {1: packRecurrentW, 2: packRecurrentR},
	"RNN":           {1: packRecurrentW, 2: packRecurrentR},
}

// PackConstants packs, once, those of node n's constant inputs that its
// kernel multiplies as the B operand of a matrix product. consts holds
// input i when it is a constant of the model (an initializer), nil
// otherwise. charge is told the bytes of each packed copy before it is
// allocated; its refusal is returned and leaves the input unpacked (the
// kernel then packs it at every run, as without a constant). PackConstants returns the
// bytes the node now holds. It must be called before the node's first
// run, never while the node runs: the model runner calls it at load.
// Nodes of the default domain only.
func PackConstants(n *Node, consts []tensor.Value, charge func(bytes int64) error) (int64, error) {
	if n == nil || n.Domain != "" {
		return 0, nil
	}
	var total int64
	for i, pack := range packers[n.OpType] {
		if i >= len(consts) {
			continue
		}
		b, ok := consts[i].(*tensor.Tensor)
		if !ok || b == nil || b.Len() == 0 {
			continue
		}
		p, err := pack(n, b, gemm.Config{Charge: charge})
		if err != nil {
			return total, err
		}
		if p == nil {
			continue
		}
		p.src = b
		if n.packs == nil {
			n.packs = nodePacks{}
		}
		n.packs[i] = p
		total += p.bytes()
	}
	return total, nil
}

func (p *weightPack) bytes() int64 {
	switch {
	case p.f32 != nil:
		return p.f32.Bytes()
	case p.f64 != nil:
		return p.f64.Bytes()
	case p.i8 != nil:
		return p.i8.Bytes()
	}
	return 4*int64(len(p.t32)) + 8*int64(len(p.t64))
}

// packRecurrentW and packRecurrentR transpose a recurrent cell's W
// ([dirs, gates*hidden, input]) or R ([dirs, gates*hidden, hidden]) of
// float or double, as rnn.TransposeW and TransposeR do at every run
// otherwise. The kernel uses them only when the shapes it checks agree.
func packRecurrentW(_ *Node, w *tensor.Tensor, cfg gemm.Config) (*weightPack, error) {
	return packRecurrent(w, cfg, false)
}

func packRecurrentR(_ *Node, r *tensor.Tensor, cfg gemm.Config) (*weightPack, error) {
	return packRecurrent(r, cfg, true)
}

func packRecurrent(t *tensor.Tensor, cfg gemm.Config, isR bool) (*weightPack, error) {
	s := t.Shape()
	if len(s) != 3 || (isR && s[1] < s[2]) {
		return nil, nil
	}
	dirs, gh, cols := s[0], s[1], s[2]
	if cfg.Charge != nil {
		if err := cfg.Charge(int64(t.Len()) * int64(t.DataType().Size())); err != nil {
			return nil, err
		}
	}
	switch t.DataType() {
	case tensor.Float:
		if isR {
			return &weightPack{t32: rnn.TransposeR(elems[float32](t), dirs, gh, cols)}, nil
		}
		return &weightPack{t32: rnn.TransposeW(elems[float32](t), dirs, gh, cols)}, nil
	case tensor.Double:
		if isR {
			return &weightPack{t64: rnn.TransposeR(elems[float64](t), dirs, gh, cols)}, nil
		}
		return &weightPack{t64: rnn.TransposeW(elems[float64](t), dirs, gh, cols)}, nil
	}
	return nil, nil
}

// transposedFor returns p's transposed copy in T, nil when it holds none.
func transposedFor[T float32 | float64](p *weightPack) []T {
	if p == nil {
		return nil
	}
	if v, ok := any(p.t32).([]T); ok && v != nil {
		return v
	}
	if v, ok := any(p.t64).([]T); ok && v != nil {
		return v
	}
	return nil
}

// packFloatB packs a 2-D float or double B (k×n, or n×k when transB).
func packFloatB(b *tensor.Tensor, transB bool, cfg gemm.Config) (*weightPack, error) {
	s := b.Shape()
	if len(s) != 2 {
		return nil, nil
	}
	k, n := s[0], s[1]
	if transB {
		k, n = n, k
	}
	switch b.DataType() {
	case tensor.Float:
		pb, err := gemm.PackB32(cfg, transB, k, n, elems[float32](b), s[1])
		if err != nil {
			return nil, err
		}
		return &weightPack{f32: pb}, nil
	case tensor.Double:
		pb, err := gemm.PackB64(cfg, transB, k, n, elems[float64](b), s[1])
		if err != nil {
			return nil, err
		}
		return &weightPack{f64: pb}, nil
	}
	return nil, nil
}

func packMatMulB(_ *Node, b *tensor.Tensor, cfg gemm.Config) (*weightPack, error) {
	return packFloatB(b, false, cfg)
}

func packGemmB(n *Node, b *tensor.Tensor, cfg gemm.Config) (*weightPack, error) {
	tb, err := n.Int("transB", 0)
	if err != nil {
		return nil, nil // the kernel reports it
	}
	return packFloatB(b, tb != 0, cfg)
}

// packIntegerB packs a 2-D int8 or uint8 B.
func packIntegerB(_ *Node, b *tensor.Tensor, cfg gemm.Config) (*weightPack, error) {
	s := b.Shape()
	if len(s) != 2 || !is8bit(b.DataType()) {
		return nil, nil
	}
	pb, err := gemm.PackB8(cfg, s[0], s[1], b.Bytes(), b.DataType() == tensor.Int8, s[1])
	if err != nil {
		return nil, err
	}
	return &weightPack{i8: pb}, nil
}

// packedProduct is gemm.Float32Packed or Float64Packed bound to a packed B.
type packedProduct[T gemm.Number] func(cfg gemm.Config, transA bool, m, n, k int, alpha T, a []T, lda int, beta T, c []T, ldc int) error

// packedFor returns the product with p's packed B in T, nil when p holds
// none of T.
func packedFor[T gemm.Number](p *weightPack) packedProduct[T] {
	if p == nil {
		return nil
	}
	var zero T
	switch any(zero).(type) {
	case float32:
		if p.f32 == nil {
			return nil
		}
		f := func(cfg gemm.Config, transA bool, m, n, k int, alpha float32, a []float32, lda int, beta float32, c []float32, ldc int) error {
			return gemm.Float32Packed(cfg, transA, m, n, k, alpha, a, lda, p.f32, beta, c, ldc)
		}
		return any(packedProduct[float32](f)).(packedProduct[T])
	case float64:
		if p.f64 == nil {
			return nil
		}
		f := func(cfg gemm.Config, transA bool, m, n, k int, alpha float64, a []float64, lda int, beta float64, c []float64, ldc int) error {
			return gemm.Float64Packed(cfg, transA, m, n, k, alpha, a, lda, p.f64, beta, c, ldc)
		}
		return any(packedProduct[float64](f)).(packedProduct[T])
	}
	return nil
}
