//go:build !unix

package conv

func cpuSeconds() float64 { return 0 }
