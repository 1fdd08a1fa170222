//go:build amd64 && !purego

package conv

//go:noescape
func interleave4AVX(d, s0, s1, s2, s3 *byte, n int)

// interleave4 writes d[4o+t] = s_t[o] for o in [0, len(s0)): sixteen
// columns a step with AVX (byte and word unpacks), then eight, the rest
// in Go.
func interleave4(d, s0, s1, s2, s3 []byte) {
	n := len(s0)
	v := n &^ 7
	if v > 0 && haveAVX2 {
		_, _, _, _ = s1[v-1], s2[v-1], s3[v-1], d[4*v-1]
		interleave4AVX(&d[0], &s0[0], &s1[0], &s2[0], &s3[0], v)
	} else {
		v = 0
	}
	if v < n {
		interleave4Go(d[4*v:], s0[v:], s1[v:n], s2[v:n], s3[v:n])
	}
}
