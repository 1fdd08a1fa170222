//go:build amd64 && !purego

package linalg

import "golang.org/x/sys/cpu"

//go:generate python3 gen_det8.py

// haveDet8 picks the AVX-512 determinants (tests turn it off).
var haveDet8 = cpu.X86.HasAVX512F && cpu.X86.HasAVX512DQ

//go:noescape
func det8F32AVX512(dst *float64, src *float32, n int)

//go:noescape
func det8F64AVX512(dst *float64, src *float64, n int)

func det8[F float32 | float64](dst []float64, src []F) bool {
	if !haveDet8 {
		return false
	}
	switch s := any(src).(type) {
	case []float32:
		det8F32AVX512(&dst[0], &s[0], len(dst))
	case []float64:
		det8F64AVX512(&dst[0], &s[0], len(dst))
	}
	return true
}
