//go:build !amd64 || purego

package reduce

import "testing"

// forEachExpKernel runs f: expShifted has one kernel here.
func forEachExpKernel(t *testing.T, f func(t *testing.T)) { t.Run("Go", f) }
