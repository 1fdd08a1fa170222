//go:build !unix

package rnn

func cpuSeconds() float64 { return 0 }
