//go:build !unix

package memlimit

// rlimitAS is 0 where the system has no address-space limit to read.
func rlimitAS() uint64 { return 0 }
