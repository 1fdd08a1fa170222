package norm

import "math"

// The float32 rows of Normalize: a contiguous slice of float32 written to
// float32 with one scale and bias per slice or per element (LayerNormalization,
// RMSNormalization, InstanceNormalization) is read straight from x, its
// sums in sixteen float64 lanes (eight to a vector register) and its
// elements written eight at a time, each operation the float64 one of
// Moments, writeRow and writeUniform: the same bits, without the float64
// copy of the slice.

// momentsF32 is Moments of the float64 values of x.
func momentsF32(stat Stat, x []float32, eps float64) (mean, variance, factor float64) {
	n := float64(len(x))
	if stat == RMS {
		ms := sumF32(x, 0, termSquare) / n
		return 0, ms, 1 / math.Sqrt(ms+eps)
	}
	mean = sumF32(x, 0, termPlain) / n
	variance = sumF32(x, mean, termSquare) / n
	if stat == StdDevPlusEps {
		return mean, variance, math.Sqrt(variance) + eps
	}
	return mean, variance, 1 / math.Sqrt(variance+eps)
}

// The terms of sumF32.
const (
	termPlain  = iota // float64(x)
	termSquare        // d*d, d = float64(x) - m
	termAbs           // |float64(x)|
)

// sumF32 is sum of the float64 values of x (termSquare: sumSquaresAbout
// m; termAbs: sumAbs).
func sumF32(x []float32, m float64, term int) float64 {
	var p [16]float64
	addLanesF32(x, m, term, &p)
	for half := 8; half >= 1; half /= 2 {
		for j := range half {
			p[j] += p[j+half]
		}
	}
	return p[0]
}

// normalizeRowF32 writes y from x as writeRow (perElement) or
// writeUniform does from x's float64 values; sc and b are nil when absent,
// else one value (uniform) or len(x) values.
func normalizeRowF32(x, y []float32, mean, f float64, sc, b []float64, perElement bool) {
	flags := 0
	if sc != nil {
		flags |= 1
	}
	if b != nil {
		flags |= 2
	}
	if perElement {
		flags |= 4
	}
	k := writeF32(x, y, mean, f, sc, b, flags)
	y = y[:len(x)]
	for j := k; j < len(x); j++ {
		r := float64(float64(x[j])-mean) * f
		if sc != nil {
			s := sc[0]
			if perElement {
				s = sc[j]
			}
			r = float64(r * s)
		}
		if b != nil {
			c := b[0]
			if perElement {
				c = b[j]
			}
			r += c
		}
		y[j] = float32(r)
	}
}

// lpNormalizeRowF32 is lpNormalizeRow of float32: the norm from x's
// float64 values, each element divided by it, eight at a time.
func lpNormalizeRowF32(p int, x, y []float32) {
	var norm float64
	if p == 1 {
		norm = sumF32(x, 0, termAbs)
	} else {
		norm = math.Sqrt(sumF32(x, 0, termSquare))
	}
	y = y[:len(x)]
	if norm == 0 {
		clear(y)
		return
	}
	k := writeF32(x, y, 0, norm, nil, nil, 8)
	for j := k; j < len(x); j++ {
		y[j] = float32(float64(x[j]) / norm)
	}
}

// normalizeRunsF32 is Normalize's step for slice s when x and y are
// float32, the slice is made of runs of a multiple of sixteen contiguous
// elements (Layout.Run) and there is no scale or bias
// (MeanVarianceNormalization over N and the spatial axes), and reports
// whether it took it. Element j of the slice goes to partial sum j%16, and
// with runs of a multiple of sixteen that is element i%16 of each run: the
// runs add into the same sixteen lanes in the order Moments adds the
// gathered slice, and each element is written by the same float64
// operations, so the bits are Moments' and Normalize's.
func normalizeRunsF32[X, Y Float](stat Stat, eps float64, l Layout, s int, x []X, y []Y, scale, bias Param, st Stats) bool {
	if l.Offsets == nil || l.Run < 16 || l.Run%16 != 0 || scale.V != nil || bias.V != nil || l.N == 0 {
		return false
	}
	xf, yf, ok := float32s(x, y)
	if !ok {
		return false
	}
	base := l.start(s)
	lanes := func(m float64, term int) float64 {
		var p [16]float64
		for _, off := range l.Offsets {
			addLanesF32(xf[base+off:base+off+l.Run], m, term, &p)
		}
		for half := 8; half >= 1; half /= 2 {
			for j := range half {
				p[j] += p[j+half]
			}
		}
		return p[0]
	}
	n := float64(l.N)
	var mean, variance, f float64
	if stat == RMS {
		variance = lanes(0, termSquare) / n
		f = 1 / math.Sqrt(variance+eps)
	} else {
		mean = lanes(0, termPlain) / n
		variance = lanes(mean, termSquare) / n
		if stat == StdDevPlusEps {
			f = math.Sqrt(variance) + eps
		} else {
			f = 1 / math.Sqrt(variance+eps)
		}
	}
	if st.Means != nil {
		st.Means[s] = mean
	}
	if st.Variances != nil {
		st.Variances[s] = variance
	}
	if st.Factors != nil {
		st.Factors[s] = f
	}
	flags := 0
	if stat == StdDevPlusEps {
		flags = 8
	}
	for _, off := range l.Offsets {
		row, out := xf[base+off:base+off+l.Run], yf[base+off:base+off+l.Run]
		k := writeF32(row, out, mean, f, nil, nil, flags)
		for j := k; j < len(row); j++ {
			if stat == StdDevPlusEps {
				out[j] = float32(float64((float64(row[j]) - mean) / f))
			} else {
				out[j] = float32(float64(float64(row[j])-mean) * f)
			}
		}
	}
	return true
}

// addLanesF32 adds the terms of x (sumF32's) to p[k%16], k counted from
// x's first element, without folding the lanes.
func addLanesF32(x []float32, m float64, term int, p *[16]float64) {
	k := lanesF32(x, m, term, p)
	for ; k < len(x); k++ {
		switch term {
		case termSquare:
			d := float64(x[k]) - m
			p[k%16] += float64(d * d)
		case termAbs:
			p[k%16] += math.Abs(float64(x[k]))
		default:
			p[k%16] += float64(x[k])
		}
	}
}

// normalizeRowsF32 is Normalize's step for slices lo to hi in one call
// (rowsF32: the vector loop of momentsF32 and normalizeRowF32 over whole
// rows, a row's tail under a mask) when x and y are float32, the slices
// contiguous and the scale and bias per element or absent
// (LayerNormalization and RMSNormalization over the last axes: many short
// rows, where a call per row and per pass cost more than the row), and
// reports whether it took them.
func normalizeRowsF32[X, Y Float](stat Stat, eps float64, l Layout, lo, hi int, x []X, y []Y, scale, bias Param, st Stats) bool {
	if stat == StdDevPlusEps || l.N == 0 || hi <= lo || !l.contiguous() || !scale.perElement(l.N) || !bias.perElement(l.N) {
		return false
	}
	xf, yf, ok := float32s(x, y)
	if !ok {
		return false
	}
	var ptrs [3]*float64
	for i, v := range [][]float64{st.Means, st.Variances, st.Factors} {
		if v != nil {
			ptrs[i] = &v[lo:hi][0]
		}
	}
	return rowsF32(stat, eps, xf[lo*l.N:hi*l.N], yf[lo*l.N:hi*l.N], hi-lo, l.N, scale.V, bias.V, &ptrs)
}

// float32s returns x and y as float32 slices; ok is false unless both are.
func float32s[X, Y Float](x []X, y []Y) (xf, yf []float32, ok bool) {
	xf, okx := any(x).([]float32)
	yf, oky := any(y).([]float32)
	return xf, yf, okx && oky
}
