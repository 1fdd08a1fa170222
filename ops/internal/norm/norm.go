// Package norm is the engine of the normalization operators:
// BatchNormalization, InstanceNormalization, LayerNormalization,
// GroupNormalization, RMSNormalization, MeanVarianceNormalization,
// LpNormalization and LRN. It works on plain slices; package ops checks
// the nodes, reads and writes the tensors around it (float16 and bfloat16
// as float32) and charges the scratch it asks for (Scratch).
//
// A normalization is a set of slices of N elements each (Layout): the
// statistics of a slice (its mean and variance, its mean square, or its
// Lp norm) in one or two passes over it, then one pass that writes each
// element scaled and shifted (Normalize, LpNormalize). Slices are spread
// over the cores whole; a slice that is not contiguous (MeanVariance over
// axes that are not the last ones, BatchNormalization's training
// statistics over N and the spatial axes, LpNormalization along an inner
// axis) is gathered into a buffer first. BatchNormalization's inference is
// one per-channel affine map y = x*a + b over NCHW planes (Affine), and LRN
// a running window of squares across channels (LRN).
//
// Precision: every element is computed in float64, whatever the tensor's
// type, in the order the reference engine writes (reference/
// layernormalization.go and its siblings): sums in sixteen interleaved
// partial sums (reference/sumlanes.go), then the spec's expression one
// rounded operation at a time (conversions keep a compiler from fusing a
// product and a sum), rounded once to float32 or float64 at the end. A
// contiguous float32 slice with one scale and bias per slice, per run of
// a channel's elements or per element (Layer, RMS, Instance and Group
// normalizations) is read straight from
// the tensor, its sums in sixteen float64 lanes eight to an AVX-512
// register and its elements written eight or sixteen at a time
// (rowsf32.go, rows_amd64.s); with a scale and bias per element or none
// (Layer and RMS normalizations over the last axes, LpNormalization's
// rows) a part's rows go to one vector call, a row's tail under masks,
// since short rows paid more in calls than in arithmetic. So is a
// contiguous float32 slice of LpNormalization,
// a float32 slice made of runs of whole sixteens (MeanVarianceNormalization
// over N and the plane: each run adds into the same sixteen lanes) and
// BatchNormalization's float32 affine map: the same float64 operations,
// so the same bits. The
// two engines so give the same bits for every operator but
// BatchNormalization, whose affine map (a = scale/sqrt(var+eps), b = B -
// mean*a) rounds differently from the spec's (x-mean)/sqrt(var+eps)*scale+B:
// reference.Agree bounds that difference.
//
// It never writes into its inputs, never allocates outside the Scratch it
// states (one buffer of N float64 per part of the work, and LRN's row of
// sums), and looks at the context between parts through Parallel.
package norm

import (
	"math"

	"github.com/onnxshape/onnxshape/ops/internal/reduce"
)

// Float is the set of computing types of the tensors' elements.
type Float interface{ ~float32 | ~float64 }

// Parallel runs f over [0, n) in parts across the cores, looking at the
// run's context between parts (the reduction engine's, reduce.Parallel).
type Parallel = reduce.Parallel

// Layout says where the slices of a normalization lie in its input: slice
// s (0 <= s < Slices) holds N elements, element j at Start(s) + Offsets[j],
// or Start(s) + j*Step when Offsets is nil. A nil Start means s*N, a zero
// Step 1. With Run > 1 the slice is N/Run runs of Run contiguous elements
// and Offsets holds the start of each run: element j is at Start(s) +
// Offsets[j/Run] + j%Run (MeanVarianceNormalization over N and the
// spatial axes: one run per image plane).
type Layout struct {
	Slices, N int
	Start     func(s int) int
	Step      int
	Offsets   []int
	Run       int
}

// contiguous reports whether slice s is x[s*N : (s+1)*N].
func (l Layout) contiguous() bool { return l.Start == nil && l.Offsets == nil && l.Step <= 1 }

func (l Layout) start(s int) int {
	if l.Start == nil {
		return s * l.N
	}
	return l.Start(s)
}

// off is element j's offset from its slice's start.
func (l Layout) off(j int) int {
	switch {
	case l.Offsets != nil && l.Run > 1:
		return l.Offsets[j/l.Run] + j%l.Run
	case l.Offsets != nil:
		return l.Offsets[j]
	case l.Step > 1:
		return j * l.Step
	}
	return j
}

// Param is a scale or a bias of a normalization: element j of slice s
// takes V[(s % Mod)*Stride + j/Div]. A nil V is absent: no scale (1), no
// bias (nothing added). Zero Mod, Stride or Div count as 1.
type Param struct {
	V                []float64
	Mod, Stride, Div int
}

func (p Param) index(s, j int) int {
	mod, stride, div := max(p.Mod, 1), max(p.Stride, 1), max(p.Div, 1)
	return (s%mod)*stride + j/div
}

// Stat is the statistic a normalization divides by.
type Stat int

const (
	// StdDev: y = (x - mean) * inv, inv = 1/sqrt(var + eps), var the
	// mean of the squared deviations (Batch, Instance, Layer and Group
	// normalizations).
	StdDev Stat = iota
	// RMS: y = x * inv, inv = 1/sqrt(mean(x*x) + eps) (RMSNormalization).
	RMS
	// StdDevPlusEps: y = (x - mean) / (sqrt(var) + eps)
	// (MeanVarianceNormalization, eps 1e-9 added to the deviation).
	StdDevPlusEps
)

// Stats receives the statistics of each slice, where its slices are not
// nil: the mean, the variance and the factor Moments returns.
type Stats struct{ Means, Variances, Factors []float64 }

// Scratch is the number of float64 elements a run of Normalize or
// LpNormalize over l may allocate across threads parts at once.
func Scratch(l Layout, threads int) int { return l.N * max(threads, 1) }

// sum is the sum of v in sixteen interleaved partial sums added by
// halves, the order of reference/sumlanes.go, its loop written out.
func sum(v []float64) float64 {
	var p [16]float64
	k := 0
	for ; k+16 <= len(v); k += 16 {
		w := v[k : k+16 : k+16]
		p[0] += w[0]
		p[1] += w[1]
		p[2] += w[2]
		p[3] += w[3]
		p[4] += w[4]
		p[5] += w[5]
		p[6] += w[6]
		p[7] += w[7]
		p[8] += w[8]
		p[9] += w[9]
		p[10] += w[10]
		p[11] += w[11]
		p[12] += w[12]
		p[13] += w[13]
		p[14] += w[14]
		p[15] += w[15]
	}
	for j := 0; k < len(v); j, k = j+1, k+1 {
		p[j] += v[k]
	}
	for half := 8; half >= 1; half /= 2 {
		for j := range half {
			p[j] += p[j+half]
		}
	}
	return p[0]
}

// sumAbs is sum of the |v[k]|, in the same order.
func sumAbs(v []float64) float64 {
	var p [16]float64
	k := 0
	for ; k+16 <= len(v); k += 16 {
		w := v[k : k+16 : k+16]
		for j := range 16 {
			p[j] += math.Abs(w[j])
		}
	}
	for j := 0; k < len(v); j, k = j+1, k+1 {
		p[j] += math.Abs(v[k])
	}
	for half := 8; half >= 1; half /= 2 {
		for j := range half {
			p[j] += p[j+half]
		}
	}
	return p[0]
}

// sumSquaresAbout is the sum, in the same order, of the terms float64(x-m) * float64(x-m).
func sumSquaresAbout(v []float64, m float64) float64 {
	var p [16]float64
	k := 0
	for ; k+16 <= len(v); k += 16 {
		w := v[k : k+16 : k+16]
		for j := range 16 {
			d := w[j] - m
			p[j] += float64(d * d)
		}
	}
	for j := 0; k < len(v); j, k = j+1, k+1 {
		d := v[k] - m
		p[j] += float64(d * d)
	}
	for half := 8; half >= 1; half /= 2 {
		for j := range half {
			p[j] += p[j+half]
		}
	}
	return p[0]
}

// Moments returns the mean of a slice's elements v (0 for RMS), their
// variance (the mean of the squared deviations; the mean square for RMS)
// and the factor of the deviations: 1/sqrt(var+eps) for StdDev and RMS,
// sqrt(var)+eps (a divisor) for StdDevPlusEps.
func Moments(stat Stat, v []float64, eps float64) (mean, variance, factor float64) {
	n := float64(len(v))
	if stat == RMS {
		ms := sumSquaresAbout(v, 0) / n
		return 0, ms, 1 / math.Sqrt(ms+eps)
	}
	mean = sum(v) / n
	variance = sumSquaresAbout(v, mean) / n
	if stat == StdDevPlusEps {
		return mean, variance, math.Sqrt(variance) + eps
	}
	return mean, variance, 1 / math.Sqrt(variance+eps)
}

// Normalize writes y for every slice of x laid out as l: each element
// (x - mean) times (or, for StdDevPlusEps, divided by) the slice's factor,
// times its scale, plus its bias, each step rounded in float64 as the
// reference engine does. Slice s's statistics are stored at index s of
// st's slices that are not nil (LayerNormalization's Mean and InvStdDev,
// BatchNormalization's training statistics).
func Normalize[X, Y Float](stat Stat, eps float64, l Layout, x []X, y []Y, scale, bias Param, st Stats, par Parallel) error {
	if l.Slices == 0 {
		return nil
	}
	return par(l.Slices, l.Slices*max(l.N, 1)*3, func(lo, hi int) error {
		if normalizeRowsF32(stat, eps, l, lo, hi, x, y, scale, bias, st) {
			return nil
		}
		var buf []float64 // made at the first slice the float32 rows do not take
		for s := lo; s < hi; s++ {
			if normalizeSliceF32(stat, eps, l, s, x, y, scale, bias, st) || normalizeRunsF32(stat, eps, l, s, x, y, scale, bias, st) {
				continue
			}
			if buf == nil {
				buf = make([]float64, l.N)
			}
			base := l.start(s)
			if l.contiguous() {
				for j, v := range x[s*l.N : (s+1)*l.N] {
					buf[j] = float64(v)
				}
			} else {
				for j := range buf {
					buf[j] = float64(x[base+l.off(j)])
				}
			}
			mean, variance, f := Moments(stat, buf, eps)
			if st.Means != nil {
				st.Means[s] = mean
			}
			if st.Variances != nil {
				st.Variances[s] = variance
			}
			if st.Factors != nil {
				st.Factors[s] = f
			}
			if l.N == 0 {
				continue
			}
			// The common cases without a per-element parameter index.
			if l.contiguous() && stat != StdDevPlusEps && scale.constantIn(l.N) && bias.constantIn(l.N) {
				writeUniform(buf, y[s*l.N:(s+1)*l.N], mean, f, scale.at(s, 0), bias.at(s, 0), scale.V != nil, bias.V != nil)
				continue
			}
			if l.contiguous() && stat != StdDevPlusEps && scale.perElement(l.N) && bias.perElement(l.N) {
				writeRow(buf, y[s*l.N:(s+1)*l.N], mean, f, scale.V, bias.V)
				continue
			}
			for j, v := range buf {
				var r float64
				if stat == StdDevPlusEps {
					r = float64((v - mean) / f)
				} else {
					r = float64(float64(v-mean) * f)
				}
				if scale.V != nil {
					r = float64(r * scale.V[scale.index(s, j)])
				}
				if bias.V != nil {
					r += bias.V[bias.index(s, j)]
				}
				y[base+l.off(j)] = Y(r)
			}
		}
		return nil
	})
}

// normalizeSliceF32 is Normalize's step for slice s when x and y are
// float32 and the slice is contiguous with one scale and bias per slice
// or per element (rowsf32.go), and reports whether it took it.
func normalizeSliceF32[X, Y Float](stat Stat, eps float64, l Layout, s int, x []X, y []Y, scale, bias Param, st Stats) bool {
	xf, yf, ok := float32s(x, y)
	if !ok || !l.contiguous() || stat == StdDevPlusEps {
		return false
	}
	// chunk: the run of elements over which the scale and the bias are
	// one value each (the whole slice, or GroupNormalization-21's
	// channels of a group), or 0 when they are per element.
	chunk := 0
	switch {
	case scale.constantIn(l.N) && bias.constantIn(l.N):
		chunk = l.N
	case scale.perElement(l.N) && bias.perElement(l.N):
	default:
		chunk = sharedDiv(scale, bias)
		if chunk <= 1 || l.N%chunk != 0 {
			return false
		}
	}
	row := xf[s*l.N : (s+1)*l.N]
	mean, variance, f := momentsF32(stat, row, eps)
	if st.Means != nil {
		st.Means[s] = mean
	}
	if st.Variances != nil {
		st.Variances[s] = variance
	}
	if st.Factors != nil {
		st.Factors[s] = f
	}
	if l.N == 0 {
		return true
	}
	out := yf[s*l.N : (s+1)*l.N]
	if chunk == 0 {
		normalizeRowF32(row, out, mean, f, scale.V, bias.V, true)
		return true
	}
	var sc1, b1 [1]float64
	for k := 0; k < l.N; k += chunk {
		var sc, b []float64
		if scale.V != nil {
			sc1[0], sc = scale.at(s, k), sc1[:]
		}
		if bias.V != nil {
			b1[0], b = bias.at(s, k), b1[:]
		}
		normalizeRowF32(row[k:k+chunk], out[k:k+chunk], mean, f, sc, b, false)
	}
	return true
}

// sharedDiv is the Div of the parameters that are present when they have
// one (each then one value over runs of Div elements), else 0.
func sharedDiv(ps ...Param) int {
	d := 0
	for _, p := range ps {
		if p.V == nil {
			continue
		}
		if d != 0 && max(p.Div, 1) != d {
			return 0
		}
		d = max(p.Div, 1)
	}
	return d
}

// constantIn reports whether p takes one value over a slice of n elements.
func (p Param) constantIn(n int) bool { return p.V == nil || max(p.Div, 1) >= n }

// perElement reports whether p is V[j] for element j of every slice of n.
func (p Param) perElement(n int) bool {
	return p.V == nil || (max(p.Mod, 1) == 1 && max(p.Div, 1) == 1 && len(p.V) == n)
}

func (p Param) at(s, j int) float64 {
	if p.V == nil {
		return 0
	}
	return p.V[p.index(s, j)]
}

// writeUniform writes a contiguous slice whose scale and bias are one
// value each (InstanceNormalization, GroupNormalization-18, an absent
// parameter).
func writeUniform[Y Float](v []float64, y []Y, mean, f, sc, b float64, hasScale, hasBias bool) {
	y = y[:len(v)]
	switch {
	case hasScale && hasBias:
		for j, x := range v {
			y[j] = Y(float64(float64(float64(x-mean)*f)*sc) + b)
		}
	case hasScale:
		for j, x := range v {
			y[j] = Y(float64(float64(x-mean)*f) * sc)
		}
	case hasBias:
		for j, x := range v {
			y[j] = Y(float64(float64(x-mean)*f) + b)
		}
	default:
		for j, x := range v {
			y[j] = Y(float64(x-mean) * f)
		}
	}
}

// writeRow writes a contiguous slice whose scale and bias are given per
// element (LayerNormalization and RMSNormalization over the last axes).
func writeRow[Y Float](v []float64, y []Y, mean, f float64, sc, b []float64) {
	y = y[:len(v)]
	switch {
	case sc != nil && b != nil:
		sc, b = sc[:len(v)], b[:len(v)]
		for j, x := range v {
			y[j] = Y(float64(float64(float64(x-mean)*f)*sc[j]) + b[j])
		}
	case sc != nil:
		sc = sc[:len(v)]
		for j, x := range v {
			y[j] = Y(float64(float64(x-mean)*f) * sc[j])
		}
	case b != nil:
		b = b[:len(v)]
		for j, x := range v {
			y[j] = Y(float64(float64(x-mean)*f) + b[j])
		}
	default:
		for j, x := range v {
			y[j] = Y(float64(x-mean) * f)
		}
	}
}
