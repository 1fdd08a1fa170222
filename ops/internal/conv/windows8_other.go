//go:build !amd64 || purego

package conv

// vecWindows8 is false: no vector writer of 8-bit windows here.
var vecWindows8 = false

func windowQuads8(dst []byte, img []byte, offs []int32, segs []wseg) {
	panic("conv: windowQuads8 without AVX-512")
}
