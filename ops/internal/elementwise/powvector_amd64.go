//go:build amd64 && !purego

package elementwise

//go:noescape
func powCubeAVX(o, a *float32, n int, nan float32)

// powCubeVector runs powCube's bulk, a multiple of 8 elements, with AVX
// and returns how many it did.
func powCubeVector(o, a []float32) int {
	n := len(o) &^ 7
	if !haveAVX || n == 0 {
		return 0
	}
	powCubeAVX(&o[0], &a[0], n, nan32())
	return n
}

//go:noescape
func powSquareAVX(o, a *float32, n int, nan float32)

// powSquareVector runs powSquare's bulk, a multiple of 8 elements, with
// AVX and returns how many it did.
func powSquareVector(o, a []float32) int {
	n := len(o) &^ 7
	if !haveAVX || n == 0 {
		return 0
	}
	powSquareAVX(&o[0], &a[0], n, nan32())
	return n
}
