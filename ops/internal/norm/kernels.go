package norm

import "math"

// LpNormalize writes y = x / norm for every slice of x laid out as l, the
// norm being the sum of |x| (p 1) or the square root of the sum of x*x
// (p 2), in sixteen partial sums. A slice whose norm is 0 gives 0, as the
// ONNX node tests of LpNormalization-22 expect.
func LpNormalize[A Float](p int, l Layout, x, y []A, par Parallel) error {
	if l.Slices == 0 {
		return nil
	}
	return par(l.Slices, l.Slices*max(l.N, 1)*2, func(lo, hi int) error {
		if xf, ok := any(x).([]float32); ok && l.contiguous() && l.N > 0 &&
			lpRowsF32(p, xf[lo*l.N:hi*l.N], any(y).([]float32)[lo*l.N:hi*l.N], hi-lo, l.N) {
			return nil // the rows in one vector call
		}
		var buf []float64 // made at the first slice the float32 rows do not take
		for s := lo; s < hi; s++ {
			if xf, ok := any(x).([]float32); ok && l.contiguous() {
				lpNormalizeRowF32(p, xf[s*l.N:(s+1)*l.N], any(y).([]float32)[s*l.N:(s+1)*l.N])
				continue
			}
			if buf == nil {
				buf = make([]float64, l.N)
			}
			if l.contiguous() {
				lpNormalizeRow(p, x[s*l.N:(s+1)*l.N], y[s*l.N:(s+1)*l.N], buf)
				continue
			}
			base := l.start(s)
			for j := range buf {
				buf[j] = float64(x[base+l.off(j)])
			}
			norm := lpNorm(p, buf)
			for j, v := range buf {
				if norm == 0 {
					y[base+l.off(j)] = 0
					continue
				}
				y[base+l.off(j)] = A(v / norm)
			}
		}
		return nil
	})
}

// Affine writes y[i] = x[i]*a[k] + b[k], k = (i/block) % len(a), in float64
// rounded to Y: BatchNormalization's inference, a and b per channel over
// planes of block elements (block 1 and a per element of a sample for the
// old versions' spatial 0).
func Affine[X, Y Float](x []X, y []Y, block int, a, b []float64, par Parallel) error {
	if len(x) == 0 || len(a) == 0 {
		return nil
	}
	block = max(block, 1)
	planes := len(x) / block
	xf, _ := any(x).([]float32)
	yf, _ := any(y).([]float32)
	return par(planes, len(x), func(lo, hi int) error {
		var b1 [1]float64
		for p := lo; p < hi; p++ {
			k := p % len(a)
			ak, bk := a[k], b[k]
			xs, ys := x[p*block:(p+1)*block], y[p*block:(p+1)*block]
			ys = ys[:len(xs)] // one bounds check for the loop
			i := 0
			if xf != nil && yf != nil {
				// (x - 0)*a + b, eight at a time: the same float64
				// product and sum, rounded once to float32.
				b1[0] = bk
				i = writeF32(xf[p*block:(p+1)*block], yf[p*block:(p+1)*block], 0, ak, nil, b1[:], 2)
			}
			for ; i < len(xs); i++ {
				ys[i] = Y(float64(xs[i])*ak + bk)
			}
		}
		return nil
	})
}

// LRN writes y = x / (bias + alpha/size * square_sum)^beta for x laid out
// as [batches, channels, spatial], square_sum the sum of x*x over the
// channels c - floor((size-1)/2) to c + ceil((size-1)/2) that exist, added
// in channel order from 0, and the power lrnPow's (square roots for beta
// 0.75, 0.5 and 1, the reference engine's reference/lrn.go). Each part
// sums into a row of spatial float64 (Scratch of LRNScratch).
func LRN[A Float](batches, channels, spatial, size int, alpha, beta, bias float64, x, y []A, par Parallel) error {
	planes := batches * channels
	if planes == 0 || spatial == 0 {
		return nil
	}
	lo, hi := (size-1)/2, (size-1+1)/2 // floor and ceil of (size-1)/2
	k := alpha / float64(size)
	return par(planes, planes*spatial*min(size, channels), func(from, to int) error {
		sums := make([]float64, spatial)
		for p := from; p < to; p++ {
			n, c := p/channels, p%channels
			clear(sums)
			for cc := max(0, c-lo); cc <= min(channels-1, c+hi); cc++ {
				row := x[(n*channels+cc)*spatial : (n*channels+cc+1)*spatial]
				sums := sums[:len(row)]
				for i, v := range row {
					f := float64(v)
					sums[i] += float64(f * f)
				}
			}
			xs, ys := x[p*spatial:(p+1)*spatial], y[p*spatial:(p+1)*spatial]
			ys, sums := ys[:len(xs)], sums[:len(xs)]
			switch beta {
			case 0.75:
				for i, v := range xs {
					d := bias + float64(k*sums[i])
					if d == 0 {
						ys[i] = A(float64(v) / 0)
						continue
					}
					r := math.Sqrt(d)
					ys[i] = A(float64(v) / float64(r*math.Sqrt(r)))
				}
			default:
				for i, v := range xs {
					ys[i] = A(float64(v) / lrnPow(bias+float64(k*sums[i]), beta))
				}
			}
		}
		return nil
	})
}

// LRNScratch is the number of float64 elements LRN may allocate across
// threads parts at once.
func LRNScratch(spatial, threads int) int { return spatial * max(threads, 1) }

// lpNorm is the norm of v: the sum of |v| (p 1) or the square root of the
// sum of v*v, in the lane order.
func lpNorm(p int, v []float64) float64 {
	if p == 1 {
		return sumAbs(v)
	}
	return math.Sqrt(sumSquaresAbout(v, 0))
}

// lpNormalizeRow is LpNormalize of one contiguous slice x into y, with buf
// (len(x) float64) as scratch: the same operations, without the index
// arithmetic or a call per element.
func lpNormalizeRow[A Float](p int, x, y []A, buf []float64) {
	buf = buf[:len(x)]
	for j, v := range x {
		buf[j] = float64(v)
	}
	norm := lpNorm(p, buf)
	y = y[:len(buf)]
	if norm == 0 {
		clear(y)
		return
	}
	for j, v := range buf {
		y[j] = A(v / norm)
	}
}

// lrnPow is d^beta as the reference engine's lrnPow (reference/lrn.go)
// computes it: sqrt(d)*sqrt(sqrt(d)) for beta 0.75, sqrt(d) for 0.5, d for
// 1 (+0 for a zero d under a square root), else math.Pow.
func lrnPow(d, beta float64) float64 {
	switch beta {
	case 0.75:
		if d == 0 {
			return 0 // math.Pow(-0, 0.75) is +0
		}
		r := math.Sqrt(d)
		return float64(r * math.Sqrt(r))
	case 0.5:
		if d == 0 {
			return 0
		}
		return math.Sqrt(d)
	case 1:
		return d
	}
	return math.Pow(d, beta)
}
