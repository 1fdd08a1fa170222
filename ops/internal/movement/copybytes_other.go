//go:build !amd64 || purego

package movement

// CopyBytes is copy where there is no assembly kernel.
func CopyBytes(dst, src []byte) int { return copy(dst, src) }

// HaveStreamStores: no streaming stores where there is no assembly.
const HaveStreamStores = false

// StoreFence has nothing to order where there are no streaming stores.
func StoreFence() {}

// GatherRows has no vector form here: the caller copies row by row.
func GatherRows(dst, src []byte, idx []int64, rowBytes int, stream bool) bool { return false }

// GatherRowsAvailable reports whether GatherRows has its vector form here.
func GatherRowsAvailable() bool { return false }
