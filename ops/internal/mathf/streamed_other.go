//go:build !amd64 || purego

package mathf

// Without the AVX-512 loops the streamed forms are the plain ones.
type ntKernel struct{}

var kernelExpsNT, kernelSigmoidsNT, kernelTanhsNT, kernelErfsNT, kernelSoftsignsNT ntKernel

func streamedTo(o, a []float32, plain func(o, a []float32), _ ntKernel) { plain(o, a) }
