//go:build !amd64 || purego

package reduce

import "testing"

// forEachKernel runs f: there are only the Go loops here.
func forEachKernel(t *testing.T, f func(*testing.T)) { t.Run("Go", f) }
