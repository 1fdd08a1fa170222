//go:build !amd64 || purego

package reduce

import "testing"

// forEachExpKernel runs f once: there is only the scalar loop.
func forEachExpKernel(t *testing.T, f func(t *testing.T)) { t.Run("scalar", f) }
