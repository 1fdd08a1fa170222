//go:build !unix

package graph_test

func cpuSeconds() float64 { return 0 }
