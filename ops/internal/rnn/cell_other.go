//go:build !amd64 || purego

package rnn

func lstmStateVec(c, g, f, i []float32) int { return 0 }

func mulVec(o, a, b []float32) int { return 0 }
