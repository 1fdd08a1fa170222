// Package gemm is the matrix-product engine: C = alpha*op(A)*op(B) + beta*C
// for row-major float32, float64 and 8-bit integer matrices.
//
// MatMul, Gemm, Einsum, the convolutions (lowered to products), the
// recurrent cells and the quantized products all go through it, so that
// one core, tuned once, serves every operator that multiplies matrices.
//
// It never writes into A or B, never allocates scratch that grows with the
// input without charging Config.Charge first, and checks Config.Ctx between
// blocks of work.
package gemm

import (
	"context"
	"errors"
	"fmt"
)

// Config is what a product runs under: the run's context (nil for none),
// the cores it may use (0 or less: one) and the run's byte budget for
// scratch (nil: none).
type Config struct {
	Ctx     context.Context
	Threads int
	Charge  func(bytes int64) error
}

func (c Config) err() error {
	if c.Ctx == nil {
		return nil
	}
	return c.Ctx.Err()
}

// ErrShape is returned (wrapped) when the sizes, strides or slice lengths
// of a call do not describe matrices its slices hold.
var ErrShape = errors.New("gemm: matrices do not fit their slices")

// check verifies that a (rows×cols, row stride ld) fits in a slice of n
// elements.
func check(name string, rows, cols, ld, n int) error {
	if rows < 0 || cols < 0 {
		return fmt.Errorf("%w: %s is %dx%d", ErrShape, name, rows, cols)
	}
	if rows == 0 || cols == 0 {
		return nil
	}
	if ld < cols {
		return fmt.Errorf("%w: %s has row stride %d < %d columns", ErrShape, name, ld, cols)
	}
	if cols > n || rows-1 > (n-cols)/ld { // (rows-1)*ld+cols > n, without overflow
		return fmt.Errorf("%w: %s (%dx%d, stride %d) needs %d elements, has %d", ErrShape, name, rows, cols, ld, (rows-1)*ld+cols, n)
	}
	return nil
}

// dims checks the operands of C(m×n) = op(A)(m×k) * op(B)(k×n).
func dims(transA, transB bool, m, n, k, lda, na, ldb, nb, ldc, nc int) error {
	ar, ac := m, k
	if transA {
		ar, ac = k, m
	}
	br, bc := k, n
	if transB {
		br, bc = n, k
	}
	if err := check("A", ar, ac, lda, na); err != nil {
		return err
	}
	if err := check("B", br, bc, ldb, nb); err != nil {
		return err
	}
	return check("C", m, n, ldc, nc)
}

// Float32 computes C = alpha*op(A)*op(B) + beta*C, where op(A) is m×k (A
// is stored k×m when transA), op(B) is k×n (B is n×k when transB), all
// row-major with row strides lda, ldb and ldc. When beta is 0, C is not
// read (NaN in C does not propagate).
func Float32(cfg Config, transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) error {
	if err := dims(transA, transB, m, n, k, lda, len(a), ldb, len(b), ldc, len(c)); err != nil {
		return err
	}
	return blocked(cfg, k32, transA, transB, m, n, k, alpha, a, lda, b, ldb, nil, beta, c, ldc)
}

// Float64 is Float32 for float64 matrices.
func Float64(cfg Config, transA, transB bool, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) error {
	if err := dims(transA, transB, m, n, k, lda, len(a), ldb, len(b), ldc, len(c)); err != nil {
		return err
	}
	return blocked(cfg, k64, transA, transB, m, n, k, alpha, a, lda, b, ldb, nil, beta, c, ldc)
}

// Integer computes C[i][j] = sum over p of (A[i][p]-aZero[i]) *
// (B[p][j]-bZero[j]) in int32 (wrapping as int32 does), for A m×k and B
// k×n row-major 8-bit matrices, each signed (int8) or not (uint8) as
// aSigned and bSigned say. aZero has 1 element (per tensor) or m (per
// row); bZero 1 or n (per column); nil means 0.
func Integer(cfg Config, m, n, k int, a []byte, aSigned bool, lda int, aZero []int32, b []byte, bSigned bool, ldb int, bZero []int32, c []int32, ldc int) error {
	if err := dims(false, false, m, n, k, lda, len(a), ldb, len(b), ldc, len(c)); err != nil {
		return err
	}
	if len(aZero) > 1 && len(aZero) != m {
		return fmt.Errorf("%w: %d zero points for %d rows of A", ErrShape, len(aZero), m)
	}
	if len(bZero) > 1 && len(bZero) != n {
		return fmt.Errorf("%w: %d zero points for %d columns of B", ErrShape, len(bZero), n)
	}
	return integerBlocked(cfg, m, n, k, a, aSigned, lda, aZero, b, bSigned, ldb, bZero, c, ldc)
}

// PackedB32 is a k×n float32 matrix B copied once into the panels the
// micro-kernel reads, for products with constant weights (PackB32,
// Float32Packed): a model packs its weights at load and skips the copy at
// every run.
type PackedB32 struct {
	p *packed[float32]
}

// PackB32 copies op(B) (k×n; B is stored n×k when transB, row stride ldb)
// into panels, charging their bytes to cfg.Charge before allocating them.
func PackB32(cfg Config, transB bool, k, n int, b []float32, ldb int) (*PackedB32, error) {
	br, bc := k, n
	if transB {
		br, bc = n, k
	}
	if err := check("B", br, bc, ldb, len(b)); err != nil {
		return nil, err
	}
	p, err := pack(cfg, k32, transB, k, n, b, ldb)
	if err != nil {
		return nil, err
	}
	return &PackedB32{p}, nil
}

// Bytes is the memory the packed matrix holds.
func (p *PackedB32) Bytes() int64 { return int64(len(p.p.data)) * 4 }

// K and N are the sizes of op(B) as packed: k×n.
func (p *PackedB32) K() int { return p.p.k }

// N is the number of columns of op(B).
func (p *PackedB32) N() int { return p.p.n }

// Float32Packed is Float32 with op(B) already packed by PackB32; n and k
// must be the sizes it was packed with.
func Float32Packed(cfg Config, transA bool, m, n, k int, alpha float32, a []float32, lda int, pb *PackedB32, beta float32, c []float32, ldc int) error {
	if pb == nil {
		return fmt.Errorf("%w: no packed B", ErrShape)
	}
	if pb.p.k != k || pb.p.n != n {
		return fmt.Errorf("%w: B packed as %dx%d, product needs %dx%d", ErrShape, pb.K(), pb.N(), k, n)
	}
	ar, ac := m, k
	if transA {
		ar, ac = k, m
	}
	if err := check("A", ar, ac, lda, len(a)); err != nil {
		return err
	}
	if err := check("C", m, n, ldc, len(c)); err != nil {
		return err
	}
	return blocked(cfg, pb.p.kn, transA, false, m, n, k, alpha, a, lda, nil, 0, pb.p, beta, c, ldc)
}
