//go:build amd64 && !purego

package movement

//go:noescape
func pairs32AVX(dst, src *uint32, n int)

// pairs32 writes each element of src twice into dst (2*len(src) long),
// eight source elements a step with AVX, and returns how many source
// elements it did (a multiple of 8; 0 without AVX): the caller does the
// rest.
func pairs32(dst, src []uint32) int {
	n := len(src) &^ 7
	if !haveAVX || n == 0 || len(dst) < 2*n {
		return 0
	}
	pairs32AVX(&dst[0], &src[0], n)
	return n
}
