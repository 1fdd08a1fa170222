//go:build !amd64 || purego

package ops

// copyBytes is copy where there is no assembly kernel.
func copyBytes(dst, src []byte) int { return copy(dst, src) }

// haveStreamStores: no streaming stores where there is no assembly.
const haveStreamStores = false

// storeFence has nothing to order where there are no streaming stores.
func storeFence() {}

// gatherRows has no vector form here: the caller copies row by row.
func gatherRows(dst, src []byte, idx []int64, rowBytes int, stream bool) bool { return false }

// gatherRowsAvailable reports whether gatherRows has its vector form here.
func gatherRowsAvailable() bool { return false }
