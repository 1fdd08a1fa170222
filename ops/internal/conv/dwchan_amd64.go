//go:build amd64 && !purego

package conv

import "golang.org/x/sys/cpu"

// dwChanIn16 transposes nc (1-16) rows of n float32s, plane bytes apart
// from x on, into t: t[16k + c] = row c's element k, zero for c >= nc. It
// reads only the rows' n elements.
//
//go:noescape
func dwChanIn16(t *float32, x *float32, plane int, nc int, n int)

// dwChanOut16 is dwChanIn16's inverse: row c < nc of y (plane bytes
// apart) gets y[k] = t[16k + c] for k < n; nothing else is written.
//
//go:noescape
func dwChanOut16(y *float32, t *float32, plane int, nc int, n int)

// dwChanRuns sums the runs of a dwChanPlan (its runs, nruns of them, and
// its taps) into the output tile y from the input tile x, the weights ws
// (a vector per tap) and the bias vector, and limits each sum to [lo, hi]
// as package clamp does (-Inf and +Inf: no limit).
//
//go:noescape
func dwChanRuns(y *float32, x *float32, ws *float32, bias *float32, runs *int, nruns int, taps *int, lo float32, hi float32)

// haveChanKernel reports whether the channel-blocked kernels run here.
func haveChanKernel() bool { return rowKernel == "avx512" && cpu.X86.HasBMI2 }
