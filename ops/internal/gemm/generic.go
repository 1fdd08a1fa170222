package gemm

// Number is every element type Generic multiplies: the integers (whose
// arithmetic wraps, as Go's and numpy's does) and the two floats.
type Number interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~float32 | ~float64
}

// Generic is Float32's product for the element types the tuned kernels do
// not cover (MatMul's, Gemm's and Einsum's integers), in T's own
// arithmetic: C = alpha*op(A)*op(B) + beta*C, same arguments, one dot
// product per element of C in the order of p. When beta is 0, C is not
// read. It runs on one core and looks at Config.Ctx every few hundred
// thousand multiply-adds; it allocates nothing.
func Generic[T Number](cfg Config, transA, transB bool, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) error {
	if err := dims(transA, transB, m, n, k, lda, len(a), ldb, len(b), ldc, len(c)); err != nil {
		return err
	}
	const poll = 1 << 18
	work := 0
	for i := range m {
		if work += n * max(k, 1); work >= poll {
			work = 0
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
