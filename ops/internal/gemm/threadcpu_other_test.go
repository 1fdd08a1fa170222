//go:build !linux

package gemm

func threadCPU() float64 { return cpuSeconds() }
