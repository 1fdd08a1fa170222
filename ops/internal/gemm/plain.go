package gemm

// The plain kernels: one dot product per element of C, in the order of p.
// They are the portable baseline the blocked kernels are tested against.

func float32Plain(cfg Config, transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) error {
	return plain(cfg, transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

func plain[T float32 | float64](cfg Config, transA, transB bool, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) error {
	for i := range m {
		if i%64 == 0 {
			if err := cfg.err(); err != nil {
				return err
			}
		}
		for j := range n {
			var s T
			for p := range k {
				var av, bv T
				if transA {
					av = a[p*lda+i]
				} else {
					av = a[i*lda+p]
				}
				if transB {
					bv = b[j*ldb+p]
				} else {
					bv = b[p*ldb+j]
				}
				s += av * bv
			}
			s *= alpha
			if beta != 0 {
				s += beta * c[i*ldc+j]
			}
			c[i*ldc+j] = s
		}
	}
	return nil
}

func int8At(v []byte, i int, signed bool) int32 {
	if signed {
		return int32(int8(v[i]))
	}
	return int32(v[i])
}

func zeroAt(z []int32, i int) int32 {
	switch len(z) {
	case 0:
		return 0
	case 1:
		return z[0]
	}
	return z[i]
}

func integerPlain(cfg Config, m, n, k int, a []byte, aSigned bool, lda int, aZero []int32, b []byte, bSigned bool, ldb int, bZero []int32, c []int32, ldc int) error {
	for i := range m {
		if i%64 == 0 {
			if err := cfg.err(); err != nil {
				return err
			}
		}
		za := zeroAt(aZero, i)
		for j := range n {
			zb := zeroAt(bZero, j)
			var s int32
			for p := range k {
				s += (int8At(a, i*lda+p, aSigned) - za) * (int8At(b, p*ldb+j, bSigned) - zb)
			}
			c[i*ldc+j] = s
		}
	}
	return nil
}
