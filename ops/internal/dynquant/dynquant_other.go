//go:build !amd64 || purego

package dynquant

// rangeVector has no vector form here: Range's loop scans it all.
func rangeVector(x []float32, lo, hi *float32) int { return 0 }

// quantizeVector has no vector form here: quantizeGo does it all.
func quantizeVector(y []byte, x []float32, scale, zero float32) int { return 0 }
