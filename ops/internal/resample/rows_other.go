//go:build !amd64 || purego

package resample

import "unsafe"

// combineTwoRowsF32 leaves resizeCombineTwoRows's work to its Go loop where
// there is no assembly kernel.
func combineTwoRowsF32(d0, d1, r0, r1, w []float32) int { return 0 }

// combineRowsF32 leaves resizeCombineRows's work to its Go loops where there
// is no assembly kernel.
func combineRowsF32(d []float32, rows [][]float32, w []float32) int { return 0 }

// twoTapPairsF32 leaves the pairs to the Go loop where there is no assembly
// kernel.
func twoTapPairsF32(dp, sp unsafe.Pointer, n int, w *[4]float32) int { return 0 }

// fourTapsStep2F32 leaves the outputs to the Go loop where there is no
// assembly kernel.
func fourTapsStep2F32(dp, sp unsafe.Pointer, n int, w *[4]float32) int { return 0 }
