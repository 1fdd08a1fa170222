//go:build !amd64 || purego

package reduce

import "testing"

// forEachSumKernel runs f: rowSumsF32 has one kernel here.
func forEachSumKernel(t *testing.T, f func(*testing.T)) { t.Run("Go", f) }
