package rnn

import "github.com/onnxshape/onnxshape/ops/internal/gemm"

// Recurrent weights packed once. Every step multiplies the state by R^T
// (Hidden x Gates*Hidden); through gemm.Float32 that copies R^T into the
// micro-kernel's panels at every step, as much copying as the product of
// a small batch. A model's constant R is packed once at load instead
// (PackR, kept by the node beside the transposed copy, charged to the
// model), and the steps' products read the panels (gemm.Float32Packed,
// the same sums, bit for bit). The panels are cut where the steps'
// products are: the whole of R^T for LSTM and RNN, the z and r gates'
// columns and the h gate's apart for GRU (whose whole-width product then
// runs as the two, the same bits: a product's columns never mix).

// PackedR is R^T of every direction packed as the steps' products read it.
type PackedR struct {
	h, gh int
	// dirs[d] are direction d's blocks of columns.
	dirs [][]rBlock
}

// rBlock is columns [col, col+n) of one direction's R^T in panels.
type rBlock struct {
	col, n int
	p32    *gemm.PackedB32
	p64    *gemm.PackedB64
}

// Bytes is the memory the panels hold.
func (p *PackedR) Bytes() int64 {
	if p == nil {
		return 0
	}
	var n int64
	for _, d := range p.dirs {
		for _, b := range d {
			if b.p32 != nil {
				n += b.p32.Bytes()
			}
			if b.p64 != nil {
				n += b.p64.Bytes()
			}
		}
	}
	return n
}

// PackR packs rt (TransposeR's layout: per direction, R^T of hidden rows
// by gh columns) for cell's steps, charging cfg.Charge for each block
// before it is allocated.
func PackR[T float32 | float64](cfg gemm.Config, cell Cell, rt []T, dirs, gh, hidden int) (*PackedR, error) {
	cols := [][2]int{{0, gh}}
	if cell == GRU {
		cols = [][2]int{{0, 2 * hidden}, {2 * hidden, hidden}}
	}
	p := &PackedR{h: hidden, gh: gh, dirs: make([][]rBlock, dirs)}
	for d := range dirs {
		r := rt[d*hidden*gh:][:hidden*gh]
		for _, c := range cols {
			b := rBlock{col: c[0], n: c[1]}
			var err error
			switch r := any(r).(type) {
			case []float32:
				b.p32, err = gemm.PackB32(cfg, false, hidden, c[1], r[c[0]:], gh)
			case []float64:
				b.p64, err = gemm.PackB64(cfg, false, hidden, c[1], r[c[0]:], gh)
			}
			if err != nil {
				return nil, err
			}
			p.dirs[d] = append(p.dirs[d], b)
		}
	}
	return p, nil
}

// mulR is C = A * (columns [col, col+n) of R^T) + beta*C for direction
// r.d: through the packed panels when r holds blocks that cover exactly
// those columns, else through gemm over r.rt.
func (r *runner[T]) mulR(cfg gemm.Config, m, col, n int, a []T, lda int, beta T, c []T, ldc int) error {
	H, gh := r.s.Hidden, r.s.Cell.Gates()*r.s.Hidden
	if blocks := r.packedBlocks(col, n); blocks != nil {
		for _, b := range blocks {
			var err error
			switch a := any(a).(type) {
			case []float32:
				err = gemm.Float32Packed(cfg, false, m, b.n, H, 1, a, lda, b.p32, float32(beta), any(c).([]float32)[b.col-col:], ldc)
			case []float64:
				err = gemm.Float64Packed(cfg, false, m, b.n, H, 1, a, lda, b.p64, float64(beta), any(c).([]float64)[b.col-col:], ldc)
			}
			if err != nil {
				return err
			}
		}
		return nil
	}
	return gemmBeta(cfg, m, n, H, a, lda, r.rt[col:], gh, beta, c, ldc)
}

// packedBlocks returns the blocks of r's direction that tile columns
// [col, col+n) in T, nil when they do not.
func (r *runner[T]) packedBlocks(col, n int) []rBlock {
	p := r.packed
	if p == nil || p.h != r.s.Hidden || p.gh != r.s.Cell.Gates()*r.s.Hidden || r.d >= len(p.dirs) {
		return nil
	}
	var z T
	_, is32 := any(z).(float32)
	blocks := p.dirs[r.d]
	for i, b := range blocks {
		if b.col != col {
			continue
		}
		end := col
		for j := i; j < len(blocks); j++ {
			if blocks[j].col != end || (is32 && blocks[j].p32 == nil) || (!is32 && blocks[j].p64 == nil) {
				return nil
			}
			end += blocks[j].n
			if end == col+n {
				return blocks[i : j+1]
			}
		}
		return nil
	}
	return nil
}
