//go:build !amd64 || purego

package gemm

func init() { useGo() }

// useAsm is useGo where there is no assembly.
func useAsm() { useGo() }

// useAVX2 is useGo where there is no assembly.
func useAVX2() { useGo() }

// peakFMA has no FMA loop to run without assembly.
func peakFMA(n int) float64 { return 0 }
