//go:build amd64 && !purego

package conv

import (
	"golang.org/x/sys/cpu"

	"github.com/onnxshape/onnxshape/ops/internal/gemm"
)

// kernelTaps32 is package gemm's kernel32AVX512 (A in place, a tile of
// rows <= 12 by the columns of mask, at most 32) with row p of B read at b
// + offs[p] bytes: the same instructions in the same order, so the same
// bits. C = sum, or sum + beta*C when beta is not zero; then with bias
// not nil each row r's bias[r] added, and with clamp not nil every element
// limited to [clamp[0], clamp[1]] as package clamp does. See
// scripts/gen-convtaps-asm.py.
//
//go:noescape
func kernelTaps32(rows, k int, a *float32, lda int, b *float32, offs *int64, c *float32, ldc int, mask uint64, beta float32, bias *float32, clamp *[2]float32)

// haveTapsKernel reports whether kernelTaps32 runs here and is the kernel
// package gemm's float32 products use (panels of 32 columns: AVX-512).
func haveTapsKernel() bool { return cpu.X86.HasAVX512F && gemm.NR32() == 32 }
