//go:build unix

package memlimit

import "syscall"

// rlimitAS is the process's address-space limit (RLIMIT_AS) in bytes; 0
// when it cannot be read.
func rlimitAS() uint64 {
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &rl); err != nil {
		return 0
	}
	return uint64(rl.Cur)
}
