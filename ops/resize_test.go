package ops

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"github.com/onnxshape/onnxshape/internal/runenv"
	"github.com/onnxshape/onnxshape/ops/internal/convert"
	"github.com/x448/float16"

	"github.com/onnxshape/onnxshape/tensor"
)

// The oracle below is a literal Go transcription of the ONNX reference
// implementation (onnx/reference/ops/op_resize.py): one output element at a
// time, 1-D interpolations nested from the outermost axis, neighbours found
// by sorting the edge-padded axis by distance. It shares no code with the
// kernel, whose per-axis plans and separable passes it checks. The one
// deliberate differences are the kernel's, which follows the specification
// for an output of length 1: pytorch_half_pixel maps it to 0 (the reference
// uses -0.5), align_corners and tf_crop_and_resize test the integer length.

type refCoeffs func(ratio, scale float64) []float64

func refNearestCoeffs(mode string) refCoeffs {
	return func(ratio, _ float64) []float64 {
		if ratio == math.Trunc(ratio) {
			return []float64{0, 1}
		}
		b := func(v bool) float64 {
			if v {
				return 1
			}
			return 0
		}
		switch mode {
		case "round_prefer_floor":
			return []float64{b(ratio <= 0.5), b(ratio > 0.5)}
		case "round_prefer_ceil":
			return []float64{b(ratio < 0.5), b(ratio >= 0.5)}
		case "floor":
			return []float64{1, 0}
		}
		return []float64{0, 1}
	}
}

func refLinearCoeffs(antialias bool) refCoeffs {
	return func(ratio, scale float64) []float64 {
		if !antialias {
			return []float64{1 - ratio, ratio}
		}
		scale = min(scale, 1)
		start := int(math.Floor(-1/scale) + 1)
		footprint := 2 - 2*start
		c := make([]float64, footprint)
		var sum float64
		for i := range c {
			arg := (float64(start+i) - ratio) * scale
			c[i] = math.Max(0, math.Min(1, 1-math.Abs(arg)))
			sum += c[i]
		}
		for i := range c {
			c[i] /= sum
		}
		return c
	}
}

func refCubicCoeffs(A float64, antialias bool) refCoeffs {
	return func(ratio, scale float64) []float64 {
		if !antialias {
			return []float64{
				((A*(ratio+1)-5*A)*(ratio+1)+8*A)*(ratio+1) - 4*A,
				((A+2)*ratio-(A+3))*ratio*ratio + 1,
				((A+2)*(1-ratio)-(A+3))*(1-ratio)*(1-ratio) + 1,
				((A*((1-ratio)+1)-5*A)*((1-ratio)+1)+8*A)*((1-ratio)+1) - 4*A,
			}
		}
		scale = min(scale, 1)
		f := func(x float64) float64 {
			x = math.Abs(x)
			switch {
			case x <= 1:
				return (A+2)*x*x*x - (A+3)*x*x + 1
			case x < 2:
				return A*x*x*x - 5*A*x*x + 8*A*x - 4*A
			}
			return 0
		}
		iStart := int(math.Floor(-2/scale) + 1)
		iEnd := 2 - iStart
		var c []float64
		var sum float64
		for i := iStart; i < iEnd; i++ {
			c = append(c, f(scale*(float64(i)-ratio)))
			sum += c[len(c)-1]
		}
		for i := range c {
			c[i] /= sum
		}
		return c
	}
}

type refParams struct {
	coord         string
	coeffs        refCoeffs
	exclude       bool
	extrapolation float64
}

func refInterp1D(data []float64, scale float64, outInt, x int, roi []float64, p refParams) float64 {
	inW := len(data)
	outW := scale * float64(inW)
	xf := float64(x)
	var xo float64
	switch p.coord {
	case "align_corners":
		if outInt == 1 { // the reference tests outW
			xo = 0
		} else {
			xo = xf * float64(inW-1) / (outW - 1)
		}
	case "asymmetric":
		xo = xf / scale
	case "tf_crop_and_resize":
		if outInt == 1 { // the specification; the reference tests outW
			xo = (roi[1] - roi[0]) * float64(inW-1) / 2
		} else {
			xo = xf * (roi[1] - roi[0]) * float64(inW-1) / (outW - 1)
		}
		xo += roi[0] * float64(inW-1)
		if xo < 0 || xo > float64(inW-1) {
			return p.extrapolation
		}
	case "pytorch_half_pixel":
		if outInt == 1 {
			xo = 0 // the specification; the reference writes -0.5
		} else {
			xo = (xf+0.5)/scale - 0.5
		}
	case "half_pixel":
		xo = (xf+0.5)/scale - 0.5
	case "half_pixel_symmetric":
		adjustment := float64(outInt) / outW
		center := float64(inW) / 2
		offset := center * (1 - adjustment)
		xo = offset + (xf+0.5)/scale - 0.5
	}
	xoInt := math.Floor(xo)
	ratio := xo - xoInt
	if xo == xoInt {
		ratio = 1
	}
	coeffs := p.coeffs(ratio, scale)
	n := len(coeffs)
	// _get_neighbor: edge-pad by ceil(n/2), take the n nearest indices.
	pw := (n + 1) / 2
	padded := make([]float64, inW+2*pw)
	for i := range padded {
		padded[i] = data[min(max(i-pw, 0), inW-1)]
	}
	xp := xo + float64(pw)
	idx := make([]int, len(padded))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool {
		da, db := math.Abs(xp-float64(idx[a])), math.Abs(xp-float64(idx[b]))
		if da != db {
			return da < db
		}
		return idx[a] < idx[b]
	})
	idx = idx[:n]
	sort.Ints(idx)
	if p.exclude {
		var sum float64
		for i, j := range idx {
			if j-pw < 0 || j-pw >= inW {
				coeffs[i] = 0
			}
			sum += coeffs[i]
		}
		for i := range coeffs {
			coeffs[i] /= sum
		}
	}
	var v float64
	for i, j := range idx {
		v += coeffs[i] * padded[j]
	}
	return v
}

// refInterpND is _interpolate_nd_with_x: data of shape, point x.
func refInterpND(data []float64, shape []int, scales []float64, out []int, x []int, roi []float64, p refParams) float64 {
	n := len(shape)
	if n == 1 {
		return refInterp1D(data, scales[0], out[0], x[0], roi, p)
	}
	inner := len(data) / shape[0]
	var innerRoi []float64
	if roi != nil {
		innerRoi = append(append([]float64{}, roi[1:n]...), roi[n+1:]...)
	}
	res := make([]float64, shape[0])
	for i := range res {
		res[i] = refInterpND(data[i*inner:(i+1)*inner], shape[1:], scales[1:], out[1:], x[1:], innerRoi, p)
	}
	var r []float64
	if roi != nil {
		r = []float64{roi[0], roi[n]}
	}
	return refInterp1D(res, scales[0], out[0], x[0], r, p)
}

// refResize resizes every axis of data (rank >= 1); roi spans every axis.
func refResize(data []float64, shape []int, scales []float64, out []int, roi []float64, p refParams) []float64 {
	n, _ := tensor.NumElements(out)
	y := make([]float64, n)
	for i := range y {
		y[i] = refInterpND(data, shape, scales, out, multiIndex(i, out), roi, p)
	}
	return y
}

// Random resizes of rank 1 to 3 in double, every mode, coordinate rule,
// nearest rule, antialias and exclude_outside, scales or sizes, some with
// axes: the kernel must agree with the reference transcription.
func TestResizeAgainstReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	modes := []string{"nearest", "linear", "cubic"}
	coords := resizeCoordModes
	nearests := []string{"round_prefer_floor", "round_prefer_ceil", "floor", "ceil"}
	scaleChoices := []float64{0.5, 2, 3, 0.6, 1.7, 1, 0.37, 2.5, 0.8}
	for iter := 0; iter < 1500; iter++ {
		r := 1 + rng.IntN(3)
		shape := randomShape(rng, r, 1, 5)
		n, _ := tensor.NumElements(shape)
		data := make([]float64, n)
		for i := range data {
			data[i] = math.Round(rng.Float64()*200-100) / 4
		}
		x := tensor.MustFromSlice(data, shape...)
		p := resizeParams{
			mode:          modes[rng.IntN(3)],
			coord:         coords[rng.IntN(len(coords))],
			nearest:       nearests[rng.IntN(4)],
			cubicA:        []float64{-0.75, -0.5}[rng.IntN(2)],
			extrapolation: 10,
			keepAspect:    "stretch",
		}
		if p.mode != "nearest" {
			p.antialias = rng.IntN(2) == 0
			p.exclude = rng.IntN(3) == 0
		}
		// axes: all, or a random subset in random order.
		axes := rng.Perm(r)
		if rng.IntN(2) == 0 {
			axes = axes[:1+rng.IntN(r)]
			p.axes = axes
		} else {
			axes = []int{}
			for k := range r {
				axes = append(axes, k)
			}
		}
		full := make([]float64, r)       // the scale per axis, as the reference sees it
		out := append([]int{}, shape...) // the output shape
		for k := range full {
			full[k] = 1
		}
		if rng.IntN(2) == 0 {
			for _, k := range axes {
				s := float64(float32(scaleChoices[rng.IntN(len(scaleChoices))]))
				p.scales = append(p.scales, s)
				full[k] = s
				out[k] = int(math.Floor(float64(float32(shape[k]) * float32(s))))
			}
		} else {
			for _, k := range axes {
				s := 1 + rng.IntN(7)
				p.sizes = append(p.sizes, s)
				full[k] = float64(s) / float64(shape[k])
				out[k] = s
			}
		}
		roiFull := make([]float64, 2*r)
		for k := range r {
			roiFull[r+k] = 1
		}
		if p.coord == "tf_crop_and_resize" {
			for _, k := range axes {
				a, b := rng.Float64()*0.6-0.1, rng.Float64()*0.6+0.5
				p.roi = append(p.roi, a)
				roiFull[k], roiFull[r+k] = a, b
			}
			for _, k := range axes {
				p.roi = append(p.roi, roiFull[r+k])
			}
		}
		y, err := resize(nil, opRef{"Resize", 19}, nil, x, p)
		if err != nil {
			t.Fatalf("%+v on %v: %v", p, shape, err)
		}
		rp := refParams{coord: p.coord, exclude: p.exclude, extrapolation: p.extrapolation}
		switch p.mode {
		case "nearest":
			rp.coeffs = refNearestCoeffs(p.nearest)
		case "linear":
			rp.coeffs = refLinearCoeffs(p.antialias)
		default:
			rp.coeffs = refCubicCoeffs(p.cubicA, p.antialias)
		}
		var want []float64
		if nOut, _ := tensor.NumElements(out); nOut > 0 {
			want = refResize(data, shape, full, out, roiFull, rp)
		}
		got, _ := tensor.ToSlice[float64](y)
		if !slices.Equal(y.Shape(), out) {
			t.Fatalf("%+v on %v: shape %v, want %v", p, shape, y.Shape(), out)
		}
		for i := range got {
			if math.Abs(got[i]-want[i]) > 1e-9*(1+math.Abs(want[i])) {
				t.Fatalf("%+v on %v (data %v): element %d is %v, want %v\n got  %v\n want %v", p, shape, data, i, got[i], want[i], got, want)
			}
		}
	}
}

// The float32 kernel (float, float16, bfloat16) agrees with the double one.
func TestResizeFloat32Path(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	for iter := 0; iter < 200; iter++ {
		shape := randomShape(rng, 3, 1, 6)
		n, _ := tensor.NumElements(shape)
		d64 := make([]float64, n)
		d32 := make([]float32, n)
		for i := range d64 {
			d32[i] = float32(rng.Float64()*10 - 5)
			d64[i] = float64(d32[i])
		}
		o := ResizeOptions{Mode: []string{"linear", "cubic"}[rng.IntN(2)], Antialias: rng.IntN(2) == 0,
			Scales: []float32{1, 0.6, 2.5}}
		y32, err := Resize(tensor.MustFromSlice(d32, shape...), o)
		if err != nil {
			t.Fatal(err)
		}
		y64, err := Resize(tensor.MustFromSlice(d64, shape...), o)
		if err != nil {
			t.Fatal(err)
		}
		g, _ := y32.Float64s()
		w, _ := y64.Float64s()
		for i := range g {
			if math.Abs(g[i]-w[i]) > 1e-5*(1+math.Abs(w[i])) {
				t.Fatalf("element %d: float32 path %v, double %v", i, g[i], w[i])
			}
		}
	}
}

// A NaN in the roi of tf_crop_and_resize makes NaN coordinates, whose
// integer part Go leaves to the implementation (MinInt64 on amd64, which
// wraps when the first tap is before it): the fused kernel must still read
// only inside its rows, as the passes do. (go test -race checks the reads
// themselves: checkptr refuses a pointer outside the row.)
func TestResizeNaNRoi(t *testing.T) {
	nan := math.NaN()
	op := opRef{"Resize", 19}
	for _, mode := range []string{"linear", "cubic"} {
		for _, roi := range [][]float64{{0, nan, 1, 1}, {nan, 0, 1, 1}, {0, 0, nan, nan}} {
			x := iota32(5, 9)
			y, err := Resize(x, ResizeOptions{Mode: mode, CoordinateTransformationMode: "tf_crop_and_resize",
				Roi: roi, Scales: []float32{2, 2}})
			checkRule(t, err, "")
			if !slices.Equal(y.Shape(), []int{10, 18}) {
				t.Errorf("%s %v: shape %v", mode, roi, y.Shape())
			}
			p := resizeParams{mode: mode, coord: "tf_crop_and_resize", nearest: "floor", cubicA: -0.75,
				keepAspect: "stretch", roi: roi, scales: []float64{2, 2}}
			g, err := resizeCheck(op, x.Shape(), p)
			checkRule(t, err, "")
			a, err := planResizeAxis(&Options{}, op, p, g, 1, 9)
			checkRule(t, err, "")
			f := newResizeRowFilter[float32](a)
			lo, hi := f.Span()
			for o := lo; o < hi; o++ {
				if s := a.Start[o]; s < 0 || s > a.In-a.Taps {
					t.Fatalf("%s %v: output %d reads from %d, outside a row of %d", mode, roi, o, s, a.In)
				}
			}
		}
	}
}

// The float buffers of an integer resize count against the tensor limit,
// after the fused step and after a pass: uint8 computes in double, so the
// buffer takes eight times the output's bytes.
func TestResizeBufferLimit(t *testing.T) {
	// Output [8, 8, 8]: 512 bytes, its plans 256 bytes each, the buffer 4096.
	for _, c := range []struct {
		shape  []int
		scales []float64
	}{{[]int{8, 8, 4}, []float64{1, 1, 2}}, {[]int{4, 8, 8}, []float64{2, 1, 1}}} {
		p := resizeParams{mode: "linear", coord: "half_pixel", nearest: "floor", cubicA: -0.75, keepAspect: "stretch", scales: c.scales}
		_, err := resize(&Options{MaxTensorBytes: 1000}, opRef{"Resize", 19}, nil, tensor.MustNew(tensor.Uint8, c.shape...), p)
		checkRule(t, err, "size")
	}
}

// A cancelled run stops before the fused step and before a pass.
func TestResizeCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	x := iota32(2, 3, 4)
	for _, scales := range [][]float64{{1, 2, 2}, {2, 1, 1}} {
		p := resizeParams{mode: "linear", coord: "half_pixel", nearest: "floor", cubicA: -0.75, keepAspect: "stretch", scales: scales}
		if _, err := resize(&Options{env: runenv.Env{Ctx: ctx}}, opRef{"Resize", 19}, nil, x, p); !errors.Is(err, context.Canceled) {
			t.Errorf("scales %v: %v, want context.Canceled", scales, err)
		}
	}
}

// Resize-10 and Upsample use asymmetric coordinates; nearest takes the floor
// upsampling and the ceiling downsampling. The expected values are those of
// the ONNX documentation of Upsample and of the opset-10 Resize tests.
func TestResizeVersion10AndUpsample(t *testing.T) {
	x := tensor.MustFromSlice([]float32{1, 2, 3, 4}, 1, 1, 2, 2)
	upNearest := []float32{1, 1, 1, 2, 2, 2, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 3, 3, 3, 4, 4, 4}
	upLinear := []float32{1, 1.5, 2, 2, 2, 2.5, 3, 3, 3, 3.5, 4, 4, 3, 3.5, 4, 4}
	nearest := map[string]Attribute{"mode": strAttribute("nearest")}
	linear := map[string]Attribute{"mode": strAttribute("linear")}
	s123 := tensor.MustFromSlice([]float32{1, 1, 2, 3})
	s22 := tensor.MustFromSlice([]float32{1, 1, 2, 2})

	y, err := runNode(nil, "Resize", 10, nearest, x, s123)
	checkRule(t, err, "")
	checkFloats(t, y, []int{1, 1, 4, 6}, upNearest)
	y, err = runNode(nil, "Resize", 10, linear, x, s22)
	checkRule(t, err, "")
	checkFloats(t, y, []int{1, 1, 4, 4}, upLinear)
	// Downsampling by 0.6: [[1, 2, 3, 4], [5, 6, 7, 8]] gives [[1, 3]].
	x8 := tensor.MustFromSlice([]float32{1, 2, 3, 4, 5, 6, 7, 8}, 1, 1, 2, 4)
	y, err = runNode(nil, "Resize", 10, nearest, x8, tensor.MustFromSlice([]float32{1, 1, 0.6, 0.6}))
	checkRule(t, err, "")
	checkFloats(t, y, []int{1, 1, 1, 2}, []float32{1, 3})

	y, err = runNode(nil, "Upsample", 9, nearest, x, s123)
	checkRule(t, err, "")
	checkFloats(t, y, []int{1, 1, 4, 6}, upNearest)
	y, err = runNode(nil, "Upsample", 7, map[string]Attribute{"mode": strAttribute("linear"), "scales": {Type: AttrFloats, Floats: []float32{1, 1, 2, 2}}}, x)
	checkRule(t, err, "")
	checkFloats(t, y, []int{1, 1, 4, 4}, upLinear)
	y, err = Upsample(x, UpsampleOptions{Scales: []float32{1, 1, 2, 3}})
	checkRule(t, err, "")
	checkFloats(t, y, []int{1, 1, 4, 6}, upNearest)

	if s, err := upsampleShape(opRef{"Upsample", 9}, []int{1, 1, 2, 2}, "linear", []float64{1, 1, 2, 3.5}); err != nil || !slices.Equal(s, []int{1, 1, 4, 7}) {
		t.Errorf("upsampleShape: %v %v", s, err)
	}
	_, err = Upsample(x, UpsampleOptions{Scales: []float32{1, 1, 0.5, 1}})
	checkRule(t, err, "scales")
	_, err = Upsample(x, UpsampleOptions{Mode: "cubic", Scales: []float32{1, 1, 2, 2}})
	checkRule(t, err, "mode")
	_, err = runNode(nil, "Upsample", 10, nearest, x, s123)
	checkRule(t, err, "deprecated")
	_, err = runNode(nil, "Resize", 10, map[string]Attribute{"mode": strAttribute("cubic")}, x, s22)
	checkRule(t, err, "mode")
}

// Resize-11 with roi: tf_crop_and_resize, scales given as an empty tensor.
// The values are those of the ONNX documentation's crop-and-resize example.
func TestResize11Roi(t *testing.T) {
	data := make([]float32, 16)
	for i := range data {
		data[i] = float32(i + 1)
	}
	x := tensor.MustFromSlice(data, 1, 1, 4, 4)
	roi := tensor.MustFromSlice([]float32{0, 0, 0.4, 0.6, 1, 1, 0.6, 0.8})
	attrs := map[string]Attribute{
		"mode":                           strAttribute("linear"),
		"coordinate_transformation_mode": strAttribute("tf_crop_and_resize"),
	}
	want := []float32{7.6000004, 7.9, 8.2, 8.8, 9.1, 9.400001, 10.0, 10.3, 10.6}
	y, err := runNode(nil, "Resize", 11, attrs, x, roi, tensor.MustFromSlice([]float32{}), i64s(1, 1, 3, 3))
	checkRule(t, err, "")
	got, _ := tensor.ToSlice[float32](y)
	for i := range want {
		if math.Abs(float64(got[i]-want[i])) > 1e-5 {
			t.Fatalf("got %v, want %v", got, want)
		}
	}
	// Resize-11 requires the scales input, and knows tf_half_pixel_for_nn.
	_, err = runNode(nil, "Resize", 11, attrs, x, roi)
	checkRule(t, err, "input")
	y, err = runNode(nil, "Resize", 11, map[string]Attribute{"coordinate_transformation_mode": strAttribute("tf_half_pixel_for_nn")},
		tensor.MustFromSlice([]float32{1, 2}), tensor.MustFromSlice([]float32{}), tensor.MustFromSlice([]float32{2}))
	checkRule(t, err, "")
	checkFloats(t, y, []int{4}, []float32{1, 2, 2, 2})
	_, err = runNode(nil, "Resize", 13, map[string]Attribute{"coordinate_transformation_mode": strAttribute("tf_half_pixel_for_nn")},
		tensor.MustFromSlice([]float32{1, 2}), nil, tensor.MustFromSlice([]float32{2}))
	checkRule(t, err, "coordinate_transformation_mode")
	// Extrapolation in nearest mode fills with the value, for any type.
	y, err = Resize(tensor.MustFromSlice([]int8{1, 2, 3}), ResizeOptions{CoordinateTransformationMode: "tf_crop_and_resize",
		Roi: []float64{-0.5, 1.5}, Sizes: []int{5}, ExtrapolationValue: -7})
	checkRule(t, err, "")
	if got, _ := tensor.ToSlice[int8](y); !slices.Equal(got, []int8{-7, 1, 2, 3, -7}) {
		t.Errorf("int8 extrapolation: got %v", got)
	}
	_, err = Resize(tensor.MustFromSlice([]string{"a", "b"}), ResizeOptions{CoordinateTransformationMode: "tf_crop_and_resize",
		Roi: []float64{-1, 2}, Sizes: []int{3}})
	checkRule(t, err, "extrapolation_value")
}

// Integer types round half to even and saturate; float16 and bfloat16
// compute in float32 and round once; nearest moves any type.
func TestResizeTypes(t *testing.T) {
	y, err := Resize(tensor.MustFromSlice([]uint8{0, 255}), ResizeOptions{Mode: "linear", Scales: []float32{2}})
	checkRule(t, err, "")
	if got, _ := tensor.ToSlice[uint8](y); !slices.Equal(got, []uint8{0, 64, 191, 255}) {
		t.Errorf("uint8 linear: got %v", got)
	}
	// 2.5 rounds to 2 and 3.5 to 4.
	y, err = Resize(tensor.MustFromSlice([]int32{2, 3, 4}), ResizeOptions{Mode: "linear", CoordinateTransformationMode: "asymmetric", Scales: []float32{2}})
	checkRule(t, err, "")
	if got, _ := tensor.ToSlice[int32](y); !slices.Equal(got, []int32{2, 2, 3, 4, 4, 4}) {
		t.Errorf("int32 linear: got %v", got)
	}
	// Cubic overshoots: int8 saturates where double exceeds the range.
	in := []int8{-128, 127, 127, -128, -128}
	y, err = Resize(tensor.MustFromSlice(in), ResizeOptions{Mode: "cubic", Scales: []float32{3}})
	checkRule(t, err, "")
	d := make([]float64, len(in))
	for i, v := range in {
		d[i] = float64(v)
	}
	yd, _ := Resize(tensor.MustFromSlice(d), ResizeOptions{Mode: "cubic", Scales: []float32{3}})
	got, _ := tensor.ToSlice[int8](y)
	want, _ := tensor.ToSlice[float64](yd)
	saturated := false
	for i := range got {
		w := math.Max(-128, math.Min(127, math.RoundToEven(want[i])))
		saturated = saturated || w != math.RoundToEven(want[i])
		if float64(got[i]) != w {
			t.Fatalf("int8 cubic: element %d is %d, want %v (double %v)", i, got[i], w, want[i])
		}
	}
	if !saturated {
		t.Errorf("the int8 cubic case overshoots nowhere: make it harder")
	}
	h := tensor.MustFromSlice([]float16.Float16{float16.Fromfloat32(1), float16.Fromfloat32(2)})
	y, err = Resize(h, ResizeOptions{Mode: "linear", Scales: []float32{2}})
	checkRule(t, err, "")
	if got, _ := tensor.ToSlice[float16.Float16](y); got[0].Float32() != 1 || got[1].Float32() != 1.25 || got[2].Float32() != 1.75 || got[3].Float32() != 2 {
		t.Errorf("float16 linear: got %v", got)
	}
	b := tensor.MustFromSlice([]tensor.BF16{tensor.BF16FromFloat32(1), tensor.BF16FromFloat32(2)})
	y, err = Resize(b, ResizeOptions{Mode: "linear", Scales: []float32{2}})
	checkRule(t, err, "")
	if got, _ := tensor.ToSlice[tensor.BF16](y); got[1].Float32() != 1.25 || got[2].Float32() != 1.75 {
		t.Errorf("bfloat16 linear: got %v", got)
	}
	s := tensor.MustFromSlice([]string{"a", "b", "c", "d"}, 2, 2)
	y, err = Resize(s, ResizeOptions{Scales: []float32{1, 1.5}})
	checkRule(t, err, "")
	if got := y.Strings(); !slices.Equal(got, []string{"a", "a", "b", "c", "c", "d"}) {
		t.Errorf("string nearest: got %q", got)
	}
	_, err = Resize(s, ResizeOptions{Mode: "linear", Scales: []float32{1, 2}})
	checkRule(t, err, "type")
	_, err = Resize(tensor.MustFromSlice([]tensor.F8E4M3FN{1, 2}), ResizeOptions{Mode: "cubic", Scales: []float32{2}})
	checkRule(t, err, "type")
	y, err = Resize(tensor.MustFromSlice([]tensor.F8E4M3FN{1, 2}), ResizeOptions{Scales: []float32{2}})
	if got, _ := tensor.ToSlice[tensor.F8E4M3FN](y); err != nil || !slices.Equal(got, []tensor.F8E4M3FN{1, 1, 2, 2}) {
		t.Errorf("float8 nearest: got %v %v", got, err)
	}
}

// 1-D and 5-D inputs; nearest by integer factors (the copyPlan fast path)
// and by others (the index tables) agree with an element-by-element gather.
func TestResizeRanks(t *testing.T) {
	y, err := Resize(tensor.MustFromSlice([]float32{1, 2, 3}), ResizeOptions{Mode: "linear", Scales: []float32{2}})
	checkRule(t, err, "")
	checkFloats(t, y, []int{6}, []float32{1, 1.25, 1.75, 2.25, 2.75, 3})

	x := iota32(2, 1, 3, 2, 2)
	for _, scales := range [][]float32{{1, 1, 2, 2, 2}, {1, 2, 1, 3, 1}, {1, 1, 1.5, 2.5, 0.5}} {
		y, err := Resize(x, ResizeOptions{Scales: scales, CoordinateTransformationMode: "asymmetric", NearestMode: "floor"})
		checkRule(t, err, "")
		out := y.Shape()
		n, _ := tensor.NumElements(out)
		from := make([]int, n)
		for i := range from {
			idx := multiIndex(i, out)
			for k := range idx {
				idx[k] = int(math.Floor(float64(idx[k]) / float64(scales[k])))
			}
			from[i] = flatIndex(idx, x.Shape())
		}
		if want := gather(x, out, from); !y.Equal(want) {
			t.Errorf("5-D nearest by %v:\n got  %v\n want %v", scales, y, want)
		}
	}
	// A resize that changes nothing is a view.
	y, err = Resize(x, ResizeOptions{Mode: "cubic", Scales: []float32{1, 1, 1, 1, 1}})
	if err != nil || !y.Equal(x) || !y.SharesStorage(x) {
		t.Errorf("identity resize: %v %v", y, err)
	}
	// 5-D linear, every axis, against the reference transcription.
	d := make([]float64, 2*3*2*2*3)
	for i := range d {
		d[i] = float64(i*7%11) - 3
	}
	shape := []int{2, 3, 2, 2, 3}
	x64 := tensor.MustFromSlice(d, shape...)
	scales := []float32{1.5, 0.7, 2, 1, 0.5}
	y, err = Resize(x64, ResizeOptions{Mode: "linear", Antialias: true, Scales: scales})
	checkRule(t, err, "")
	full := make([]float64, 5)
	out := make([]int, 5)
	for k, s := range scales {
		full[k] = float64(s)
		out[k] = int(math.Floor(float64(shape[k]) * float64(s)))
	}
	want := refResize(d, shape, full, out, nil, refParams{coord: "half_pixel", coeffs: refLinearCoeffs(true)})
	got, _ := tensor.ToSlice[float64](y)
	for i := range got {
		if math.Abs(got[i]-want[i]) > 1e-9 {
			t.Fatalf("5-D linear antialias: element %d is %v, want %v", i, got[i], want[i])
		}
	}
}

// Downsampling with antialias by non-integer factors, in float32 as a model
// would run it, against the reference transcription.
func TestResizeAntialiasNonInteger(t *testing.T) {
	shape := []int{1, 1, 7, 9}
	d := make([]float32, 63)
	d64 := make([]float64, 63)
	for i := range d {
		d[i] = float32(i%8) * 1.5
		d64[i] = float64(d[i])
	}
	for _, mode := range []string{"linear", "cubic"} {
		for _, s := range []float32{0.37, 0.6, 0.75} {
			y, err := Resize(tensor.MustFromSlice(d, shape...), ResizeOptions{Mode: mode, Antialias: true, Scales: []float32{1, 1, s, s}})
			checkRule(t, err, "")
			full := []float64{1, 1, float64(s), float64(s)}
			out := []int{1, 1, int(7 * float64(s)), int(9 * float64(s))}
			co := refLinearCoeffs(true)
			if mode == "cubic" {
				co = refCubicCoeffs(-0.75, true)
			}
			want := refResize(d64, shape, full, out, nil, refParams{coord: "half_pixel", coeffs: co})
			got, _ := y.Float64s()
			if !slices.Equal(y.Shape(), out) {
				t.Fatalf("%s %v: shape %v, want %v", mode, s, y.Shape(), out)
			}
			for i := range got {
				if math.Abs(got[i]-want[i]) > 1e-5*(1+math.Abs(want[i])) {
					t.Fatalf("%s antialias %v: element %d is %v, want %v", mode, s, i, got[i], want[i])
				}
			}
		}
	}
}

func TestResizeConstraints(t *testing.T) {
	x := tensor.MustNew(tensor.Float, 2, 3)
	cases := []struct {
		name string
		o    ResizeOptions
		rule string
	}{
		{"neither scales nor sizes", ResizeOptions{}, "scales"},
		{"both", ResizeOptions{Scales: []float32{1, 1}, Sizes: []int{2, 3}}, "scales"},
		{"scales length", ResizeOptions{Scales: []float32{2}}, "scales"},
		{"zero scale", ResizeOptions{Scales: []float32{1, 0}}, "scales"},
		{"NaN scale", ResizeOptions{Scales: []float32{1, float32(math.NaN())}}, "scales"},
		{"infinite scale", ResizeOptions{Scales: []float32{1, float32(math.Inf(1))}}, "scales"},
		{"sizes length", ResizeOptions{Sizes: []int{2}}, "sizes"},
		{"negative size", ResizeOptions{Sizes: []int{2, -1}}, "sizes"},
		{"axis twice", ResizeOptions{Axes: []int{1, -1}, Sizes: []int{2, 2}}, "axes"},
		{"axis out of range", ResizeOptions{Axes: []int{2}, Sizes: []int{2}}, "axes"},
		{"unknown mode", ResizeOptions{Mode: "area", Sizes: []int{2, 2}}, "mode"},
		{"unknown coordinates", ResizeOptions{CoordinateTransformationMode: "tf_half_pixel_for_nn", Sizes: []int{2, 2}}, "coordinate_transformation_mode"},
		{"unknown nearest_mode", ResizeOptions{NearestMode: "round", Sizes: []int{2, 2}}, "nearest_mode"},
		{"unknown policy", ResizeOptions{KeepAspectRatioPolicy: "fit", Sizes: []int{2, 2}}, "keep_aspect_ratio_policy"},
		{"roi missing", ResizeOptions{CoordinateTransformationMode: "tf_crop_and_resize", Sizes: []int{2, 2}}, "roi"},
		{"too large", ResizeOptions{Scales: []float32{1e6, 1e6}}, "size"},
	}
	for _, c := range cases {
		_, err := Resize(x, c.o)
		if err == nil {
			t.Fatalf("%s: no error", c.name)
		}
		checkRule(t, err, c.rule)
	}
	// keep_aspect_ratio_policy: [2, 3] into sizes [4, 4].
	for _, c := range []struct {
		policy string
		want   []int
	}{{"stretch", []int{4, 4}}, {"not_larger", []int{3, 4}}, {"not_smaller", []int{4, 6}}} {
		s, err := resizeShape(opRef{"Resize", 19}, []int{2, 3}, resizeParams{mode: "nearest", coord: "half_pixel", nearest: "floor", keepAspect: c.policy, sizes: []int{4, 4}})
		if err != nil || !slices.Equal(s, c.want) {
			t.Errorf("%s: %v %v, want %v", c.policy, s, err, c.want)
		}
	}
	// half_pixel_symmetric is new in 19; axes, antialias and the policy in 18.
	_, err := runNode(nil, "Resize", 18, map[string]Attribute{"coordinate_transformation_mode": strAttribute("half_pixel_symmetric")},
		x, nil, tensor.MustFromSlice([]float32{1, 2}))
	checkRule(t, err, "coordinate_transformation_mode")
	y, err := runNode(nil, "Resize", 18, map[string]Attribute{"axes": ints(-1)}, x, nil, nil, i64s(6))
	checkRule(t, err, "")
	if !slices.Equal(y.Shape(), []int{2, 6}) {
		t.Errorf("axes: shape %v", y.Shape())
	}
}

// Under SONNX the attributes that matter for the mode must be explicit (GR4).
func TestResizeSONNX(t *testing.T) {
	x := tensor.MustNew(tensor.Float, 2, 2)
	sonnx := &Options{Profile: ProfileSONNX}
	scales := tensor.MustFromSlice([]float32{2, 2})
	_, err := runNode(sonnx, "Resize", 19, map[string]Attribute{"mode": strAttribute("nearest")}, x, nil, scales)
	checkRule(t, err, "GR4")
	_, err = runNode(sonnx, "Resize", 19, map[string]Attribute{
		"mode": strAttribute("nearest"), "coordinate_transformation_mode": strAttribute("asymmetric"),
		"nearest_mode": strAttribute("floor")}, x, nil, scales)
	checkRule(t, err, "")
	_, err = runNode(sonnx, "Resize", 19, map[string]Attribute{
		"mode": strAttribute("linear"), "coordinate_transformation_mode": strAttribute("asymmetric")}, x, nil, scales)
	checkRule(t, err, "GR4")
	_, err = runNode(sonnx, "Upsample", 9, nil, x, scales)
	checkRule(t, err, "GR4")
}

func benchmarkResize(b *testing.B, shape []int, o ResizeOptions) {
	x := tensor.MustNew(tensor.Float, shape...)
	v := asElems[float32](x.Bytes())
	for i := range v {
		v[i] = float32(i % 251)
	}
	y, err := Resize(x, o)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(y.Bytes())))
	for b.Loop() {
		if _, err := Resize(x, o); err != nil {
			b.Fatal(err)
		}
	}
}

// 2x upsampling of [8, 64, 56, 56] float32.
func BenchmarkResizeNearest2x(b *testing.B) {
	benchmarkResize(b, []int{8, 64, 56, 56}, ResizeOptions{Scales: []float32{1, 1, 2, 2}})
}

func BenchmarkResizeLinear2x(b *testing.B) {
	benchmarkResize(b, []int{8, 64, 56, 56}, ResizeOptions{Mode: "linear", Scales: []float32{1, 1, 2, 2}})
}

func BenchmarkResizeCubic2x(b *testing.B) {
	benchmarkResize(b, []int{8, 64, 56, 56}, ResizeOptions{Mode: "cubic", Scales: []float32{1, 1, 2, 2}})
}

// Linear antialias downsampling by 0.5 of [8, 64, 112, 112] float32.
func BenchmarkResizeLinearAntialiasHalf(b *testing.B) {
	benchmarkResize(b, []int{8, 64, 112, 112}, ResizeOptions{Mode: "linear", Antialias: true, Scales: []float32{1, 1, 0.5, 0.5}})
}

// Where the reference implementation, the specification and onnxruntime
// part, onnxshape's choice, checked against onnxruntime 1.30.
func TestResizeLengthRules(t *testing.T) {
	// floor(10 * 0.7f) is 7 in float32 (shape inference, onnxruntime), 6 in float64.
	y, err := Resize(iota32(1, 10), ResizeOptions{Scales: []float32{1, 0.7}})
	checkRule(t, err, "")
	// The coordinates are float64, as in the reference: output 3 maps to
	// 3.5/0.7f - 0.5 = 4.50000007, index 5 (onnxruntime's float32 gives 4.5,
	// index 4).
	checkFloats(t, y, []int{1, 7}, []float32{0, 2, 3, 5, 6, 7, 9})
	// tf_crop_and_resize to one element: the middle of the region, as the
	// specification and onnxruntime say (the reference reads its start when
	// the unrounded length, here 1.5, is not 1).
	x := tensor.MustFromSlice([]float32{1, 2, 3, 4}, 1, 4)
	y, err = Resize(x, ResizeOptions{Mode: "linear", CoordinateTransformationMode: "tf_crop_and_resize",
		Roi: []float64{0, 0.2, 1, 0.8}, Scales: []float32{1, 0.375}})
	checkRule(t, err, "")
	checkFloats(t, y, []int{1, 1}, []float32{2.5})
	// pytorch_half_pixel to one element reads coordinate 0.
	y, err = Resize(x, ResizeOptions{Mode: "cubic", CoordinateTransformationMode: "pytorch_half_pixel", Sizes: []int{1, 1}})
	checkRule(t, err, "")
	checkFloats(t, y, []int{1, 1}, []float32{1})
	// antialias is for linear and cubic: the reference and onnxruntime refuse it with nearest.
	_, err = Resize(x, ResizeOptions{Antialias: true, Scales: []float32{1, 0.5}})
	checkRule(t, err, "antialias")
}

// Large enough to split across cores: the result does not depend on the
// number of threads (run with -race to check the split too).
func TestResizeParallelSplit(t *testing.T) {
	// Three planes: two cores split the rows inside the second one.
	x := iota32(3, 64, 64)
	for _, o := range []ResizeOptions{
		{Scales: []float32{1, 1.5, 1.5}},                                  // tableCopy
		{Mode: "linear", Scales: []float32{1, 1.5, 0.7}},                  // fused, W first
		{Mode: "linear", Scales: []float32{1, 2, 2}},                      // pairs of rows
		{Mode: "linear", Antialias: true, Scales: []float32{1, 0.5, 0.5}}, // H first
		{Mode: "cubic", Antialias: true, Scales: []float32{1, 0.5, 2}},    // wide filters
		{Mode: "linear", Scales: []float32{2, 1, 1.5}},                    // fused, then a pass
		{CoordinateTransformationMode: "tf_crop_and_resize", Roi: []float64{0, -0.5, 0, 1, 1.5, 1}, Scales: []float32{1, 1.5, 1.5}},
	} {
		p := resizeParams{mode: orString(o.Mode, "nearest"), coord: orString(o.CoordinateTransformationMode, "half_pixel"),
			nearest: "round_prefer_floor", cubicA: -0.75, antialias: o.Antialias, keepAspect: "stretch", roi: o.Roi}
		for _, s := range o.Scales {
			p.scales = append(p.scales, float64(s))
		}
		one, err := resize(&Options{Threads: 1}, opRef{"Resize", 19}, nil, x, p)
		checkRule(t, err, "")
		all, err := resize(nil, opRef{"Resize", 19}, nil, x, p)
		checkRule(t, err, "")
		if !one.Equal(all) {
			t.Errorf("%+v: one thread and all threads differ", o)
		}
	}
}

// The fused kernel of the two innermost axes (ops/internal/resample) gives the
// values of the axis-by-axis passes it replaces, up to the rounding of its
// order of sums (H first when H shrinks): random ranks, types, modes,
// coordinate rules (extrapolation on either axis), wide antialias filters,
// axes that stay or not, in and out of the fusion.
func TestResizeFusedPlanes(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	types := []tensor.DataType{tensor.Float, tensor.Double, tensor.Uint8, tensor.Float16}
	coords := resizeCoordModes
	scaleChoices := []float64{1, 1, 2, 3, 0.5, 0.25, 0.3, 1.7, 0.6}
	op := opRef{"Resize", 19}
	for iter := 0; iter < 1000; iter++ {
		r := 1 + rng.IntN(4)
		shape := randomShape(rng, r, 1, 9)
		n, _ := tensor.NumElements(shape)
		d := make([]float64, n)
		for i := range d {
			d[i] = float64(rng.IntN(256))
		}
		x := tensor.MustNew(types[rng.IntN(len(types))], shape...)
		if err := convert.StoreFloats(x, d); err != nil {
			t.Fatal(err)
		}
		p := resizeParams{
			mode:          []string{"linear", "cubic"}[rng.IntN(2)],
			coord:         coords[rng.IntN(len(coords))],
			nearest:       "round_prefer_floor",
			cubicA:        -0.75,
			antialias:     rng.IntN(2) == 0,
			exclude:       rng.IntN(3) == 0,
			extrapolation: 7,
			keepAspect:    "stretch",
		}
		for range shape {
			p.scales = append(p.scales, float64(float32(scaleChoices[rng.IntN(len(scaleChoices))])))
		}
		if p.coord == "tf_crop_and_resize" {
			for range 2 * r {
				p.roi = append(p.roi, rng.Float64()*1.6-0.3)
			}
		}
		g, err := resizeCheck(op, shape, p)
		if err != nil {
			t.Fatal(err)
		}
		if m, _ := tensor.NumElements(g.out); m == 0 {
			continue
		}
		plans := make([]*resizeAxis, r)
		for k := range plans {
			if plans[k], err = planResizeAxis(&Options{}, op, p, g, k, shape[k]); err != nil {
				t.Fatal(err)
			}
		}
		var fused, passes *tensor.Tensor
		var err1, err2 error
		switch x.DataType() {
		case tensor.Float, tensor.Float16:
			fused, err1 = interpolatePasses[float32](&Options{}, op, x, p, g.out, plans, true)
			passes, err2 = interpolatePasses[float32](&Options{}, op, x, p, g.out, plans, false)
		default:
			fused, err1 = interpolatePasses[float64](&Options{}, op, x, p, g.out, plans, true)
			passes, err2 = interpolatePasses[float64](&Options{}, op, x, p, g.out, plans, false)
		}
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		a, _ := fused.Float64s()
		b, _ := passes.Float64s()
		if !slices.Equal(fused.Shape(), passes.Shape()) {
			t.Fatalf("%v %v, %+v: shape %v, passes %v", x.DataType(), shape, p, fused.Shape(), passes.Shape())
		}
		var exact []float64 // uint8: the sums before rounding, to tell a tie
		if x.DataType() == tensor.Uint8 {
			xd := tensor.MustNew(tensor.Double, shape...)
			_ = convert.StoreFloats(xd, d)
			e, _ := interpolatePasses[float64](&Options{}, op, xd, p, g.out, plans, false)
			exact, _ = e.Float64s()
		}
		for i := range a {
			diff := math.Abs(a[i] - b[i])
			ok := false
			switch x.DataType() {
			case tensor.Double:
				ok = diff <= 1e-12*(1+math.Abs(b[i]))
			case tensor.Float:
				ok = diff <= 1e-5*(1+math.Abs(b[i]))
			case tensor.Float16:
				ok = diff <= 1e-3*(1+math.Abs(b[i]))
			case tensor.Uint8:
				frac := exact[i] - math.Floor(exact[i])
				ok = diff == 0 || diff == 1 && math.Abs(frac-0.5) < 1e-9
			}
			if !ok {
				t.Fatalf("%v %v, %+v: element %d is %v, passes %v\n fused  %v\n passes %v", x.DataType(), shape, p, i, a[i], b[i], a, b)
			}
		}
	}
}

// resizeCoordModes are Resize's coordinate_transformation_mode values.
var resizeCoordModes = []string{"half_pixel", "half_pixel_symmetric", "pytorch_half_pixel", "align_corners", "asymmetric", "tf_crop_and_resize"}
