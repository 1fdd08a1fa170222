//go:build !amd64 || purego

package mathf

func rotateVec(y1, y2, a, b, cos, sin []float32) int { return 0 }

// rotateRowsVec has no vector loop here.
func rotateRowsVec(y, x, cos, sin []float32, rows, head, half int) bool { return false }
