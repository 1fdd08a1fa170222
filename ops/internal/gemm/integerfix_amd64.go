//go:build amd64 && !purego

package gemm

//go:noescape
func zeroFixAVX2(row, zb, colB *int32, n int, t, za int32)

// zeroFixVector corrects the longest prefix of row that is a multiple of
// 8 columns and returns its length.
func zeroFixVector(row, zb, colB []int32, t, za int32) int {
	n := len(row) &^ 7
	if !haveAVX2 || n == 0 {
		return 0
	}
	_, _ = zb[n-1], colB[n-1]
	zeroFixAVX2(&row[0], &zb[0], &colB[0], n, t, za)
	return n
}
