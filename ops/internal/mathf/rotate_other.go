//go:build !amd64 || purego

package mathf

func rotateVec(y1, y2, a, b, cos, sin []float32) int { return 0 }
