//go:build amd64 && !purego

package mathf

import "unsafe"

// The loops of pow_amd64.s (scripts/gen-pow-asm.py): o[i] = Pow(x[i],
// y[i]) for up to n elements (a multiple of 8), stopping before the first
// vector of 8 that holds a lane of Pow's other branches; they return how
// many elements they wrote.
//
//go:noescape
func powsAVX512(o, x, y unsafe.Pointer, n int, c *powTable) int

//go:noescape
func powsAVX2(o, x, y unsafe.Pointer, n int, c *powTable) int

// pows is Pows' loop: the vector loop (AVX-512, or AVX2) over the
// multiples of 8, Pow for a vector where it stops and for the rest.
func pows(o, x, y []float32) {
	m := 0
	for haveAVX2 {
		k := (len(o) - m) &^ 7
		if k == 0 {
			break
		}
		var d int
		if haveAVX512 {
			d = powsAVX512(unsafe.Pointer(&o[m]), unsafe.Pointer(&x[m]), unsafe.Pointer(&y[m]), k, powConsts)
		} else {
			d = powsAVX2(unsafe.Pointer(&o[m]), unsafe.Pointer(&x[m]), unsafe.Pointer(&y[m]), k, powConsts)
		}
		m += d
		if d < k {
			powsGo(o[m:m+8], x[m:m+8], y[m:m+8])
			m += 8
		}
	}
	powsGo(o[m:], x[m:], y[m:])
}
