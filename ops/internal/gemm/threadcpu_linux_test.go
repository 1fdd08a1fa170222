package gemm

import "golang.org/x/sys/unix"

// threadCPU is the calling thread's CPU time in seconds (lock the
// goroutine to its thread first).
func threadCPU() float64 {
	var ts unix.Timespec
	if unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts) != nil {
		return 0
	}
	return float64(ts.Sec) + float64(ts.Nsec)/1e9
}
