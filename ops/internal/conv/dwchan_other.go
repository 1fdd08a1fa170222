//go:build !amd64 || purego

package conv

// haveChanKernel is false: no channel-blocked kernels here, so planChan
// makes no plan and these are never called.
func haveChanKernel() bool { return false }

func dwChanIn16(t *float32, x *float32, plane int, nc int, n int)  {}
func dwChanOut16(y *float32, t *float32, plane int, nc int, n int) {}
func dwChanRuns(y *float32, x *float32, ws *float32, bias *float32, runs *int, nruns int, taps *int, lo float32, hi float32) {
}
