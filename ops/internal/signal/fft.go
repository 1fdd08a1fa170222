// Package signal is the Fourier engine of DFT and STFT, and the cosine-sum
// windows of HannWindow, HammingWindow and BlackmanWindow (CosineSum): a Plan transforms
// complex sequences of one length n, by an iterative radix-2 FFT when n is
// a power of two and by Bluestein's chirp-z algorithm (three power-of-two
// FFTs of length m >= 2n-1) otherwise, in float64, with twiddles computed
// directly (math.Sincos of 2πk/m, never by recurrence).
//
// ops checks the lengths, charges a plan's tables (PlanFloats) and each
// worker's scratch (ScratchFloats) to the run before it builds anything,
// and scales inverse transforms itself. The engine never writes into
// memory it was not handed, allocates only in NewPlan (what PlanFloats
// counts), never looks at a context (a transform is one line, bounded by
// the caps ops applied) and never imports ops.
package signal

import (
	"math"
	"math/bits"
)

// Plan holds the tables of transforms of length n.
type Plan struct {
	n, m   int       // m: the power-of-two FFT length used (n, or Bluestein's)
	cos    []float64 // cos(2πk/m), k < m/2
	sin    []float64 // sin(2πk/m)
	chirpR []float64 // Bluestein: w[k] = exp(-iπk²/n), k < n
	chirpI []float64
	kernR  []float64 // the FFT of the conjugate chirp, zero-padded to m
	kernI  []float64
}

// fftLength returns the power-of-two length a transform of length n uses.
func fftLength(n int) int {
	if n&(n-1) == 0 {
		return n
	}
	return 1 << bits.Len(uint(2*n-2))
}

// PlanFloats returns the float64s NewPlan(n) allocates, so that the caller
// can charge them first; n must be at least 1 and at most 1<<40.
func PlanFloats(n int) int {
	m := fftLength(n)
	if m == n {
		return m
	}
	return m + 2*n + 2*m
}

// ScratchFloats returns the float64s one Transform of length n needs.
func ScratchFloats(n int) int {
	m := fftLength(n)
	if m == n {
		return 0
	}
	return 2 * m
}

// NewPlan returns the plan of transforms of length n >= 1.
func NewPlan(n int) *Plan {
	p := &Plan{n: n, m: fftLength(n)}
	p.cos, p.sin = make([]float64, p.m/2), make([]float64, p.m/2)
	for k := range p.cos {
		p.sin[k], p.cos[k] = math.Sincos(2 * math.Pi * float64(k) / float64(p.m))
	}
	if p.m == n {
		return p
	}
	p.chirpR, p.chirpI = make([]float64, n), make([]float64, n)
	p.kernR, p.kernI = make([]float64, p.m), make([]float64, p.m)
	for k := range n {
		// k² mod 2n keeps the angle exact for long sequences.
		q := (uint64(k) * uint64(k)) % uint64(2*n)
		s, c := math.Sincos(math.Pi * float64(q) / float64(n))
		p.chirpR[k], p.chirpI[k] = c, -s
		p.kernR[k], p.kernI[k] = c, s
		if k > 0 {
			p.kernR[p.m-k], p.kernI[p.m-k] = c, s
		}
	}
	p.radix2(p.kernR, p.kernI, false)
	return p
}

// Len returns the plan's length.
func (p *Plan) Len() int { return p.n }

// Transform replaces (re, im), each of length n, by its discrete Fourier
// transform, sum_k x[k] exp(∓2πi jk/n) (the sign + when inverse; no
// scaling). scratch holds at least ScratchFloats(n) float64s.
func (p *Plan) Transform(re, im []float64, inverse bool, scratch []float64) {
	if p.m == p.n {
		p.radix2(re[:p.n], im[:p.n], inverse)
		return
	}
	// Bluestein: X[j] = w[j] * sum_k (x[k] w[k]) conj(w[j-k]), the
	// convolution done by FFTs of length m. An inverse transform is the
	// forward one of the conjugate, conjugated.
	n, m := p.n, p.m
	ar, ai := scratch[:m], scratch[m:2*m]
	for k := range n {
		xr, xi := re[k], im[k]
		if inverse {
			xi = -xi
		}
		cr, ci := p.chirpR[k], p.chirpI[k]
		ar[k], ai[k] = xr*cr-xi*ci, xr*ci+xi*cr
	}
	clear(ar[n:])
	clear(ai[n:])
	p.radix2(ar, ai, false)
	for k := range m {
		xr, xi := ar[k], ai[k]
		kr, ki := p.kernR[k], p.kernI[k]
		ar[k], ai[k] = xr*kr-xi*ki, xr*ki+xi*kr
	}
	p.radix2(ar, ai, true)
	scale := 1 / float64(m)
	for k := range n {
		xr, xi := ar[k]*scale, ai[k]*scale
		cr, ci := p.chirpR[k], p.chirpI[k]
		yr, yi := xr*cr-xi*ci, xr*ci+xi*cr
		if inverse {
			yi = -yi
		}
		re[k], im[k] = yr, yi
	}
}

// radix2 transforms (re, im) of the plan's length m in place:
// decimation in time after a bit-reversal permutation.
func (p *Plan) radix2(re, im []float64, inverse bool) {
	m := len(re)
	if m <= 1 {
		return
	}
	shift := bits.UintSize - bits.Len(uint(m-1))
	for i := range m {
		j := int(bits.Reverse(uint(i)) >> shift)
		if j > i {
			re[i], re[j] = re[j], re[i]
			im[i], im[j] = im[j], im[i]
		}
	}
	for size := 2; size <= m; size <<= 1 {
		half, stride := size/2, p.m/size
		for start := 0; start < m; start += size {
			for k := range half {
				wr, wi := p.cos[k*stride], -p.sin[k*stride]
				if inverse {
					wi = -wi
				}
				a, b := start+k, start+k+half
				tr := re[b]*wr - im[b]*wi
				ti := re[b]*wi + im[b]*wr
				re[b], im[b] = re[a]-tr, im[a]-ti
				re[a], im[a] = re[a]+tr, im[a]+ti
			}
		}
	}
}
