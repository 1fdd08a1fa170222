//go:build !amd64 || purego

package quant

// quantizeVector and dequantizeVector have no vector form here: the Go
// loops do it all.
func quantizeVector[T Int8](o []T, x []float32, s float32, z, lo, hi int64) int { return 0 }

func dequantizeVector[T Int8](o []float32, x []T, s float32, z int32) int { return 0 }

func requantVector(out []byte, acc []int32, bias int32, mult, zero, lo, hi float64) int { return 0 }

func requantColsVector(out []byte, acc []int32, mults []float64, zero, lo, hi float64) int { return 0 }

func addVector[T Int8](p *AddParams, o, a, b []T) int { return 0 }

func maxIntoVector(dst, src []byte, signed bool) int { return 0 }

func maxWindowsVector(dst, src []byte, taps, dil, stride int, signed bool) int { return 0 }
