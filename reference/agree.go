package reference

import (
	"fmt"
	"math"
	"strings"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// Agree reports whether the outputs of the fast engine (package ops) and of
// the reference engine for node n on inputs in agree: bit for bit, except
// where the evaluation order of floating-point arithmetic legitimately
// differs. That is only the linear and cubic modes of Resize and Upsample,
// whose fast kernel computes float, float16 and bfloat16 in float32 and
// sums axis by axis; there each element must lie within
//
//	(r+1) * 4 * eps * G^r * M
//
// of the reference, r being the rank, M the largest finite |x| of the input,
// G the filter's gain (1 for linear, 2 for cubic: the sum of the absolute
// weights is below it) and eps the unit roundoff of the narrower of the
// computing and the output type (2^-24 for float, 2^-11 for float16, 2^-8 for
// bfloat16, 2^-53 for double); for the integer types, within 1, since a
// value half-way between two integers may be rounded either way. NaN must
// meet NaN and an infinity the same infinity.
//
// The float sums of products of MatMul, Gemm and Einsum are the other
// place: the fast engine sums in float32 (float, float16, bfloat16) or
// float64 in an order of its own (blocked, pairwise contractions), the
// reference in float64 in the order of the definition, rounded once. Each
// element must lie within
//
//	(K + 2*I + 2) * u * S + 2 * e * |ref|
//
// of the reference, K being the number of products summed into one
// element (Einsum: the product of the sizes of the summed indices), I the
// number of inputs, S the element computed on the absolute values of the
// inputs and of alpha and beta (the sum of the magnitudes of its terms),
// u the unit roundoff of the computing type (2^-24 for float32, 2^-53 for
// float64) and e that of the output type.
//
// The outputs of BatchNormalization, whose fast kernel computes an affine
// map x*a + b per channel in float64, lie within 8 * eps * M of the
// reference (batchnormbound.go states M); the other normalizations agree
// bit for bit.
//
// The recurrent operators LSTM, GRU and RNN are another exception: the
// fast engine computes float, float16 and bfloat16 in float32 (its
// sigmoid, tanh and exponential within 3 units in the last place,
// ops/internal/mathf) and sums the products in its own order, the
// reference in float64. There each element must lie within
//
//	(4*u + 16*c*(I + H + 4)*T) * S
//
// of the reference, u being the unit roundoff of the output type (as
// above), c that of the computing type (2^-24 for float32, 2^-53 for
// double), I the input size, H the hidden size, T the sequence length
// (a rounding error of one step is carried into the next through H) and
// S the largest of 1 and the output's largest |element|. It is an
// engineering bound, not a proof: the random tests (TestEnginesAgree...)
// and the node tests hold the engines to it.
//
// Attention's bound is stated with attentionBound, FlexAttention's with
// flexAttentionBound (agree_attention.go), that of DFT and STFT (FFT
// against the definition) with signalBound (agree_signal.go).
func Agree(n *ops.Node, in []tensor.Value, fast, ref []tensor.Value) error {
	if len(fast) != len(ref) {
		return fmt.Errorf("%d outputs from the fast engine, %d from the reference", len(fast), len(ref))
	}
	for k := range fast {
		if err := agreeValue(n, in, fast[k], ref[k]); err != nil {
			return fmt.Errorf("output %d: %w", k, err)
		}
	}
	return nil
}

func agreeValue(n *ops.Node, in []tensor.Value, fast, ref tensor.Value) error {
	switch r := ref.(type) {
	case *tensor.Tensor:
		f, ok := fast.(*tensor.Tensor)
		if !ok || f == nil || r == nil {
			return fmt.Errorf("fast %s, reference %s", describe(fast), describe(ref))
		}
		return agreeTensor(n, in, f, r)
	case *tensor.Sequence:
		f, ok := fast.(*tensor.Sequence)
		if !ok || f == nil || r == nil || f.ElemType != r.ElemType || len(f.Items) != len(r.Items) {
			return fmt.Errorf("fast %s, reference %s", describe(fast), describe(ref))
		}
		for i := range r.Items {
			if err := agreeTensor(n, in, f.Items[i], r.Items[i]); err != nil {
				return fmt.Errorf("item %d: %w", i, err)
			}
		}
		return nil
	case *tensor.Optional:
		f, ok := fast.(*tensor.Optional)
		if !ok || f == nil || r == nil || (f.Value == nil) != (r.Value == nil) {
			return fmt.Errorf("fast %s, reference %s", describe(fast), describe(ref))
		}
		if r.Value == nil {
			return nil
		}
		return agreeValue(n, in, f.Value, r.Value)
	case *tensor.Map:
		f, ok := fast.(*tensor.Map)
		if !ok || f == nil || r == nil {
			return fmt.Errorf("fast %s, reference %s", describe(fast), describe(ref))
		}
		return agreeMap(f, r)
	case *tensor.MapSequence:
		f, ok := fast.(*tensor.MapSequence)
		if !ok || f == nil || r == nil || f.KeyType != r.KeyType || f.ValueType != r.ValueType || len(f.Items) != len(r.Items) {
			return fmt.Errorf("fast %s, reference %s", describe(fast), describe(ref))
		}
		for i := range r.Items {
			if err := agreeMap(f.Items[i], r.Items[i]); err != nil {
				return fmt.Errorf("item %d: %w", i, err)
			}
		}
		return nil
	}
	return fmt.Errorf("fast %s, reference %s", describe(fast), describe(ref))
}

// agreeMap holds two maps to the same entries in the same order, exactly:
// the map operators only move and convert values.
func agreeMap(fast, ref *tensor.Map) error {
	if fast.Check() != nil || ref.Check() != nil {
		return fmt.Errorf("fast %s, reference %s", fast.Describe(), ref.Describe())
	}
	if !fast.Keys.Equal(ref.Keys) {
		return fmt.Errorf("the keys differ: fast %s, reference %s", fast.Describe(), ref.Describe())
	}
	if !fast.Values.Equal(ref.Values) && !equalButNaNPayloads(fast.Values, ref.Values) {
		return fmt.Errorf("the values differ at entry %v", firstDifference(fast.Values, ref.Values))
	}
	return nil
}

func describe(v tensor.Value) string {
	if v == nil {
		return "no value"
	}
	return v.Describe()
}

func agreeTensor(n *ops.Node, in []tensor.Value, fast, ref *tensor.Tensor) error {
	if fast.DataType() != ref.DataType() || !tensor.SameShape(fast.Shape(), ref.Shape()) {
		return fmt.Errorf("fast %s, reference %s", fast.Describe(), ref.Describe())
	}
	if fast.Equal(ref) || equalButNaNPayloads(fast, ref) {
		return nil
	}
	f, err1 := fast.Float64s()
	r, err2 := ref.Float64s()
	if err1 != nil || err2 != nil {
		return fmt.Errorf("the engines differ at element %v", firstDifference(fast, ref))
	}
	if signalNotFinite(n, in) {
		return nil // outside the range where signalBound holds
	}
	bound, ok := productBound(n, in, ref.DataType(), r)
	if !ok {
		if sb, rel, ok := signalBound(n, in, ref.DataType()); ok {
			bound = func(i int) float64 { return sb(i) + rel[0]*math.Abs(r[i]) }
		}
	}
	if bound == nil {
		b, ok := resizeBound(n, in, ref.DataType())
		if !ok {
			b, ok = convBound(n, in, ref.DataType())
		}
		if !ok {
			b, ok = batchNormBound(n, in, ref.DataType())
		}
		if !ok {
			b, ok = recurrentBound(n, in, ref)
		}
		if !ok {
			b, ok = attentionBound(n, in, ref.DataType())
		}
		if !ok {
			b, ok = flexAttentionBound(n, in, ref.DataType())
		}
		if !ok {
			return fmt.Errorf("the engines differ (bit for bit) at element %v", firstDifference(fast, ref))
		}
		if math.IsInf(b, 1) {
			return nil // outside the range where the bound holds (convBound)
		}
		bound = func(int) float64 { return b }
	}
	for i := range r {
		a, b := f[i], r[i]
		switch {
		case a == b:
		case math.IsNaN(a) && math.IsNaN(b):
		case math.IsNaN(a) || math.IsNaN(b) || math.IsInf(a, 0) || math.IsInf(b, 0):
			return fmt.Errorf("element %v: fast %v, reference %v", unravel(i, ref.Shape()), a, b)
		case math.Abs(a-b) > bound(i):
			return fmt.Errorf("element %v: fast %v, reference %v, more than the bound %g apart", unravel(i, ref.Shape()), a, b, bound(i))
		}
	}
	return nil
}

// resizeBound returns the bound Agree states for a linear or cubic Resize
// or Upsample with output type dt, and false for any other node.
func resizeBound(n *ops.Node, in []tensor.Value, dt tensor.DataType) (float64, bool) {
	if (n.OpType != "Resize" && n.OpType != "Upsample") || len(in) == 0 {
		return 0, false
	}
	mode, _ := n.Str("mode", "nearest")
	gain := 1.0
	switch mode {
	case "linear":
	case "cubic":
		gain = 2
	default:
		return 0, false
	}
	if dt.IsInteger() {
		return 1, true
	}
	x, ok := in[0].(*tensor.Tensor)
	if !ok || x == nil {
		return 0, false
	}
	values, err := x.Float64s()
	if err != nil {
		return 0, false
	}
	m := 0.0
	for _, v := range values {
		if !math.IsInf(v, 0) && !math.IsNaN(v) {
			m = max(m, math.Abs(v))
		}
	}
	var eps float64
	switch dt {
	case tensor.Float:
		eps = 0x1p-24
	case tensor.Float16:
		eps = 0x1p-11
	case tensor.BFloat16:
		eps = 0x1p-8
	case tensor.Double:
		eps = 0x1p-53
	default:
		return 0, false
	}
	r := float64(x.Rank())
	return (r + 1) * 4 * eps * math.Pow(gain, r) * m, true
}

// convBound returns the bound Agree states for the float outputs of Conv,
// ConvTranspose, DeformConv and Col2Im, whose fast engine sums in an order
// of its own (float, float16 and bfloat16 in float32; the reference sums
// in float64 and rounds once). Each element must lie within
//
//	2 * (k+8) * eps * (k*M + B)
//
// of the reference: k the terms of one output element (C/group times the
// kernel's taps for Conv and ConvTranspose, that times 4 bilinear
// neighbours for DeformConv, the block's taps for Col2Im), M the largest
// product of input magnitudes (max|X| * max|W|, times max|mask| for
// DeformConv; max|input| for Col2Im), B the largest |B|, and eps the unit
// roundoff of the narrower of the computing and the output type: twice the
// classic bound k*eps*sum|terms| of a recursive sum, with room for the
// rounding of the products and of the bilinear weights. Where k*M passes
// half the computing type's largest finite value (a partial sum may
// overflow in one order and not in the other), or an input holds a NaN
// or an infinity (the fast engine multiplies the padding as zeros, so
// 0*Inf gives NaN where the reference skips the tap), the values are not
// compared: the bound is +Inf. Integer outputs are exact.
func convBound(n *ops.Node, in []tensor.Value, dt tensor.DataType) (float64, bool) {
	var eps, huge float64
	switch dt {
	case tensor.Float:
		eps, huge = 0x1p-24, math.MaxFloat32
	case tensor.Float16:
		eps, huge = 0x1p-11, math.MaxFloat32
	case tensor.BFloat16:
		eps, huge = 0x1p-8, math.MaxFloat32
	case tensor.Double:
		eps, huge = 0x1p-53, math.MaxFloat64
	default:
		return 0, false
	}
	tensorAt := func(i int) *tensor.Tensor {
		if i < len(in) {
			if t, ok := in[i].(*tensor.Tensor); ok {
				return t
			}
		}
		return nil
	}
	finite := true
	maxAbs := func(t *tensor.Tensor) float64 {
		if t == nil {
			return 0
		}
		v, err := t.Float64s()
		if err != nil {
			finite = false
			return 0
		}
		m := 0.0
		for _, x := range v {
			if math.IsInf(x, 0) || math.IsNaN(x) {
				finite = false
			}
			m = max(m, math.Abs(x))
		}
		return m
	}
	x, w := tensorAt(0), tensorAt(1)
	if x == nil {
		return 0, false
	}
	var k, m, b float64
	switch n.OpType {
	case "Conv", "ConvTranspose", "DeformConv":
		if w == nil || w.Rank() < 2 || w.Len() == 0 {
			return 0, false
		}
		ws := w.Shape()
		if n.OpType == "ConvTranspose" {
			k = float64(w.Len()) / float64(ws[1])
		} else {
			k = float64(w.Len()) / float64(ws[0])
		}
		m = maxAbs(x) * maxAbs(w)
		bi := 2
		if n.OpType == "DeformConv" {
			k *= 4
			bi = 3
			maxAbs(tensorAt(2))
			m *= max(1, maxAbs(tensorAt(4)))
		}
		b = maxAbs(tensorAt(bi))
	case "Col2Im":
		bs := tensorAt(2)
		if bs == nil {
			return 0, false
		}
		v, err := bs.Float64s()
		if err != nil {
			return 0, false
		}
		k = 1
		for _, d := range v {
			k *= d
		}
		m = maxAbs(x)
	default:
		return 0, false
	}
	if !finite || k*m+b > huge/2 {
		return math.Inf(1), true
	}
	return 2 * (k + 8) * eps * (k*m + b), true
}

// recurrentBound returns the bound Agree states for an output ref of LSTM,
// GRU or RNN, and false for any other node.
func recurrentBound(n *ops.Node, in []tensor.Value, ref *tensor.Tensor) (float64, bool) {
	if (n.OpType != "LSTM" && n.OpType != "GRU" && n.OpType != "RNN") || len(in) < 3 {
		return 0, false
	}
	x, ok1 := in[0].(*tensor.Tensor)
	r, ok2 := in[2].(*tensor.Tensor)
	if !ok1 || !ok2 || x == nil || r == nil || x.Rank() != 3 || r.Rank() != 3 {
		return 0, false
	}
	layout, _ := n.Int("layout", 0)
	steps := x.Shape()[0]
	if layout == 1 {
		steps = x.Shape()[1]
	}
	var u, c float64
	switch ref.DataType() {
	case tensor.Float:
		u, c = 0x1p-24, 0x1p-24
	case tensor.Float16:
		u, c = 0x1p-11, 0x1p-24
	case tensor.BFloat16:
		u, c = 0x1p-8, 0x1p-24
	case tensor.Double:
		u, c = 0x1p-53, 0x1p-53
	default:
		return 0, false
	}
	values, err := ref.Float64s()
	if err != nil {
		return 0, false
	}
	s := 1.0
	for _, v := range values {
		if !math.IsInf(v, 0) && !math.IsNaN(v) {
			s = max(s, math.Abs(v))
		}
	}
	size := float64(x.Shape()[2] + r.Shape()[2] + 4)
	return (4*u + 16*c*size*float64(max(steps, 1))) * s, true
}

// firstDifference returns the multi-index of the first element at which
// two tensors of one type and shape differ, bit for bit.
func firstDifference(a, b *tensor.Tensor) []int {
	if a.DataType() == tensor.String {
		for i, s := range a.Strings() {
			if s != b.Strings()[i] {
				return unravel(i, a.Shape())
			}
		}
		return nil
	}
	size := a.DataType().Size()
	ab, bb := a.Bytes(), b.Bytes()
	for i := 0; i*size < len(ab); i++ {
		if string(ab[i*size:(i+1)*size]) != string(bb[i*size:(i+1)*size]) {
			return unravel(i, a.Shape())
		}
	}
	return nil
}

// equalButNaNPayloads reports whether two float tensors hold the same
// values, a NaN meeting any NaN: neither ONNX nor IEEE 754 fixes the
// payload of a NaN an operation returns (x86 and ARM differ), and the two
// engines compute 16-bit floats along different paths.
func equalButNaNPayloads(fast, ref *tensor.Tensor) bool {
	if !fast.DataType().IsFloat() {
		return false
	}
	f, err1 := fast.Float64s()
	r, err2 := ref.Float64s()
	if err1 != nil || err2 != nil {
		return false
	}
	for i := range r {
		a, b := f[i], r[i]
		if !(math.IsNaN(a) && math.IsNaN(b)) && (a != b || math.Signbit(a) != math.Signbit(b)) {
			return false
		}
	}
	return true
}

// productBound returns the bound Agree states for the float outputs of
// MatMul, Gemm and Einsum, element by element, and false for any other
// node; ref is the reference's output.
func productBound(n *ops.Node, in []tensor.Value, dt tensor.DataType, ref []float64) (func(int) float64, bool) {
	var k float64
	switch n.OpType {
	case "MatMul", "Gemm", "Einsum":
	default:
		return nil, false
	}
	var u, e float64
	switch dt {
	case tensor.Float:
		u, e = 0x1p-24, 0x1p-24
	case tensor.Float16:
		u, e = 0x1p-24, 0x1p-11
	case tensor.BFloat16:
		u, e = 0x1p-24, 0x1p-8
	case tensor.Double:
		u, e = 0x1p-53, 0x1p-53
	default:
		return nil, false
	}
	abs := make([]tensor.Value, len(in))
	var shapes [][]int
	for i, v := range in {
		t, ok := v.(*tensor.Tensor)
		if !ok || t == nil {
			continue
		}
		f, err := t.Float64s()
		if err != nil {
			return nil, false
		}
		for j := range f {
			f[j] = math.Abs(f[j])
		}
		abs[i] = tensor.MustFromSlice(f, t.Shape()...)
		shapes = append(shapes, t.Shape())
	}
	m := *n
	switch n.OpType {
	case "MatMul":
		if len(shapes) < 1 || len(shapes[0]) < 1 {
			return nil, false
		}
		k = float64(shapes[0][len(shapes[0])-1])
	case "Gemm":
		if len(shapes) < 1 || len(shapes[0]) != 2 {
			return nil, false
		}
		k = float64(shapes[0][1])
		if ta, _ := n.Int("transA", 0); ta != 0 {
			k = float64(shapes[0][0])
		}
		m.Attrs = map[string]ops.Attribute{}
		for name, a := range n.Attrs {
			if name == "alpha" || name == "beta" {
				a.Float = float32(math.Abs(float64(a.Float)))
			}
			m.Attrs[name] = a
		}
	case "Einsum":
		eq, _ := n.Str("equation", "")
		var ok bool
		if k, ok = einsumTerms(eq, shapes); !ok {
			return nil, false
		}
	}
	kernel, ok := Kernel("", m.OpType, m.Version)
	if !ok {
		return nil, false
	}
	out, err := kernel(&ops.Options{}, &m, abs)
	if err != nil || len(out) != 1 {
		return nil, false
	}
	st, ok := out[0].(*tensor.Tensor)
	if !ok {
		return nil, false
	}
	s, err := st.Float64s()
	if err != nil || len(s) != len(ref) {
		return nil, false
	}
	factor := (k + 2*float64(len(shapes)) + 2) * u
	return func(i int) float64 { return factor*s[i] + 2*e*math.Abs(ref[i]) }, true
}

// einsumTerms returns the number of products Einsum sums into one output
// element: the product of the sizes of the indices the output lacks
// (the ellipsis's axes counted as indices of their own).
func einsumTerms(eq string, shapes [][]int) (float64, bool) {
	eq = strings.ReplaceAll(eq, " ", "")
	lhs, out, explicit := strings.Cut(eq, "->")
	terms := strings.Split(lhs, ",")
	if len(terms) != len(shapes) {
		return 0, false
	}
	size := map[rune]int{}
	for t, term := range terms {
		letters := strings.Replace(term, "...", "", 1)
		ell := len(shapes[t]) - len([]rune(letters))
		if ell < 0 {
			return 0, false
		}
		ax := 0
		for i := 0; i < len(term); {
			if strings.HasPrefix(term[i:], "...") {
				ax += ell
				i += 3
				continue
			}
			if ax >= len(shapes[t]) {
				return 0, false
			}
			size[rune(term[i])] = max(size[rune(term[i])], shapes[t][ax])
			ax++
			i++
		}
	}
	k := 1.0
	for c, d := range size {
		if explicit && !strings.ContainsRune(out, c) {
			k *= float64(d)
		}
		if !explicit && strings.Count(lhs, string(c)) > 1 {
			k *= float64(d)
		}
	}
	if explicit && !strings.Contains(out, "...") && strings.Contains(lhs, "...") {
		// Summed ellipsis axes: bounded by the largest input's size.
		big := 1
		for _, s := range shapes {
			n := 1
			for _, d := range s {
				n *= d
			}
			big = max(big, n)
		}
		k *= float64(big)
	}
	return k, true
}
