//go:build !amd64 || purego

package conv

// interleave4 writes d[4o+t] = s_t[o] for o in [0, len(s0)).
func interleave4(d, s0, s1, s2, s3 []byte) { interleave4Go(d, s0, s1, s2, s3) }
