// Package linalg holds the linear algebra of the operators that factor
// matrices: the determinants of Det. It computes in float64 on its caller's
// buffers and allocates nothing; it never writes into an input.
package linalg

import "math"

// LUDeterminant factors the m×m row-major matrix a in place (LU with
// partial pivoting: in each column the first row of largest magnitude at
// or below the diagonal is swapped up, each swap changing the sign) and
// returns its determinant, the signed product of the pivots, 0 at the
// first zero pivot. The operations and their order are the reference's
// (reference/det.go): only the columns right of the pivot are swapped and
// updated, the ones left of it being read no more.
func LUDeterminant(a []float64, m int) float64 {
	a = a[:m*m]
	d := 1.0
	for j := range m {
		row := a[j*m : j*m+m]
		p, best := j, math.Abs(row[j])
		for i := j + 1; i < m; i++ {
			if v := math.Abs(a[i*m+j]); v > best {
				p, best = i, v
			}
		}
		pivot := a[p*m+j]
		if pivot == 0 {
			return 0
		}
		if p != j {
			other := a[p*m+j+1 : p*m+m]
			mine := row[j+1:]
			for c, v := range other {
				other[c], mine[c] = mine[c], v
			}
			a[p*m+j] = row[j]
			row[j] = pivot
			d = -d
		}
		right := row[j+1:]
		for i := j + 1; i < m; i++ {
			r := a[i*m+j : i*m+m]
			f := r[0] / pivot
			r = r[1:]
			r = r[:len(right)]
			for c, v := range right {
				r[c] -= f * v
			}
		}
		d *= pivot
	}
	return d
}

// Det8 sets dst[k] to the determinant of the k-th row-major 8×8 matrix of
// src (a []float32 or []float64 of 64*len(dst) elements), as LUDeterminant
// computes it, and reports whether it did: false when the machine has no
// vector form, dst left as it was.
func Det8[F float32 | float64](dst []float64, src []F) bool {
	if len(dst) == 0 || len(src) < 64*len(dst) {
		return len(dst) == 0
	}
	return det8(dst, src)
}
