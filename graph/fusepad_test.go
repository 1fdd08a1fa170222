package graph_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/onnxshape/onnxshape/builder"
	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/tensor"
)

// padConv describes x -> Pad -> Conv (-> y), the Pad written in the form
// of an opset: 2 (pads and value attributes), 11 and 13 (pads and
// constant_value inputs), 18 and 21 (and the axes input, when axes).
type padConv struct {
	opset    int
	dt       tensor.DataType
	xs       []int // X's shape: N, C, spatial...
	m, group int
	kernel   []int
	strides  []int
	dils     []int
	convPads []int // nil: none written
	pads     []int // the Pad's, over every axis (begins, then ends)
	axes     bool  // opset 18+: write pads over the spatial axes with axes
	negAxes  bool  // ... counted from the end
	value    *float64
	mode     string // "" : not written
	bias     bool
	autoPad  string
	// infWeight: the weight's first element is +Inf
	infWeight bool
}

// build writes the model; extra, when set, adds nodes reading the Pad's
// input or output (it returns the graph outputs it adds).
func (c padConv) build(r *rand.Rand, extra func(b *builder.Builder, x, padded builder.Value)) *builder.Builder {
	b := builder.New(c.opset)
	x := b.Input("x", c.dt, c.xs...)
	rank := len(c.xs)
	var attrs []builder.Arg
	if c.mode != "" {
		attrs = append(attrs, builder.String("mode", c.mode))
	}
	var padded builder.Value
	if c.opset < 11 {
		attrs = append(attrs, builder.Ints("pads", c.pads...))
		if c.value != nil {
			attrs = append(attrs, builder.Float("value", float32(*c.value)))
		}
		padded = b.Op("Pad", append([]builder.Arg{x}, append(attrs, builder.Name("pad"))...)...)
	} else {
		pads := make([]int64, len(c.pads))
		for i, p := range c.pads {
			pads[i] = int64(p)
		}
		var axes builder.Value
		if c.axes {
			var ax []int64
			var begin, end []int64
			for k := 2; k < rank; k++ {
				a := int64(k)
				if c.negAxes {
					a -= int64(rank)
				}
				ax = append(ax, a)
				begin, end = append(begin, pads[k]), append(end, pads[rank+k])
			}
			pads = append(begin, end...)
			axes = b.Ints64("axes", ax...)
		}
		args := []builder.Arg{x, b.Ints64("pads", pads...)}
		v := builder.None
		if c.value != nil {
			v = b.Constant("value", scalarOf(c.dt, *c.value))
		}
		args = append(args, v)
		if c.axes {
			args = append(args, axes)
		}
		padded = b.Op("Pad", append(args, append(attrs, builder.Name("pad"))...)...)
	}
	cin := c.xs[1] + c.pads[1] + c.pads[rank+1]
	ws := append([]int{c.m, cin / c.group}, c.kernel...)
	w := randTensor(r, c.dt, ws...)
	if c.infWeight {
		v := values64t(w)
		v[0] = math.Inf(1)
		if c.dt == tensor.Double {
			w = tensor.MustFromSlice(v, ws...)
		} else {
			f := make([]float32, len(v))
			for i, x := range v {
				f[i] = float32(x)
			}
			w = tensor.MustFromSlice(f, ws...)
		}
	}
	args := []builder.Arg{padded, b.Constant("w", w)}
	if c.bias {
		args = append(args, b.Constant("b", randTensor(r, c.dt, c.m)))
	}
	args = append(args, builder.Int("group", c.group), builder.Name("conv"))
	if c.strides != nil {
		args = append(args, builder.Ints("strides", c.strides...))
	}
	if c.dils != nil {
		args = append(args, builder.Ints("dilations", c.dils...))
	}
	if c.convPads != nil {
		args = append(args, builder.Ints("pads", c.convPads...))
	}
	if c.autoPad != "" {
		args = append(args, builder.String("auto_pad", c.autoPad))
	}
	b.Output("y", b.Op("Conv", args...))
	if extra != nil {
		extra(b, x, padded)
	}
	return b
}

// randPadConv is a random Conv 1-D or 2-D (strides, dilations, groups, its
// own pads) after a zero Pad of the spatial axes in one of the Pad forms.
func randPadConv(r *rand.Rand, iter int) padConv {
	forms := []struct {
		opset int
		axes  bool
	}{{9, false}, {11, false}, {13, false}, {18, false}, {18, true}, {21, true}, {21, false}}
	f := forms[iter%len(forms)]
	spatial := 1 + r.IntN(2)
	c := padConv{opset: f.opset, dt: tensor.Float, axes: f.axes, negAxes: r.IntN(2) == 0, bias: r.IntN(2) == 0}
	if r.IntN(3) == 0 {
		c.dt = tensor.Double
	}
	groups := []int{1, 1, 2, 3} // not depthwise: see TestPadFoldDepthwiseWithinBound
	c.group = groups[r.IntN(len(groups))]
	cin := 1 + r.IntN(4)
	if c.group > 1 {
		cin = c.group * (1 + r.IntN(2))
	}
	c.m = c.group * (1 + r.IntN(3))
	if cin == c.group && c.m == c.group {
		c.m *= 2 // group == C == M is depthwise
	}
	c.xs = []int{1 + r.IntN(2), cin}
	rank := 2 + spatial
	c.pads = make([]int, 2*rank)
	for k := range spatial {
		c.xs = append(c.xs, 3+r.IntN(12))
		c.kernel = append(c.kernel, 1+r.IntN(4))
		c.strides = append(c.strides, 1+r.IntN(3))
		c.dils = append(c.dils, 1+r.IntN(2))
		c.pads[2+k], c.pads[rank+2+k] = r.IntN(4), r.IntN(4)
	}
	if r.IntN(2) == 0 {
		c.convPads = make([]int, 2*spatial)
		for i := range c.convPads {
			c.convPads[i] = r.IntN(3)
		}
	}
	switch r.IntN(3) {
	case 0:
		zero := 0.0
		c.value = &zero
	case 1:
		c.mode = "constant"
	}
	// The padded X must hold a dilated kernel.
	for k := range spatial {
		need := (c.kernel[k]-1)*c.dils[k] + 1
		have := c.xs[2+k] + c.pads[2+k] + c.pads[rank+2+k]
		if c.convPads != nil {
			have += c.convPads[k] + c.convPads[spatial+k]
		}
		if have < need {
			c.xs[2+k] += need - have
		}
	}
	return c
}

// A zero Pad of the spatial axes folds into the Conv after it, in every
// form of Pad: the fused model's outputs are the unfused model's, bit for
// bit, at 1 and 2 threads, and the reference engine runs both as written.
func TestPadFoldSameBits(t *testing.T) {
	r := rand.New(rand.NewPCG(18, 24))
	for iter := range 70 {
		c := randPadConv(r, iter)
		fused, plain := loadBoth(t, c.build(r, nil))
		if fused.Fusions() != 1 || plain.Fusions() != 0 {
			t.Fatalf("%d: %+v: %d fusions, want 1 (NoFuse: %d)", iter, c, fused.Fusions(), plain.Fusions())
		}
		x := randTensor(r, c.dt, c.xs...)
		for _, threads := range []int{1, 2} {
			o := &graph.RunOptions{Engine: graph.EngineFast, Threads: threads}
			for range 2 { // the second run takes the geometry the Conv kept
				if got, want := runY(t, fused, x, o), runY(t, plain, x, o); !got.Equal(want) {
					t.Fatalf("%d: %+v, %d threads: fused and unfused differ", iter, c, threads)
				}
			}
		}
		ref := &graph.RunOptions{Engine: graph.EngineReference}
		if !runY(t, fused, x, ref).Equal(runY(t, plain, x, ref)) {
			t.Fatalf("%d: the reference engine ran the fused model differently", iter)
		}
	}
}

// The Pad's input read by other nodes too (a block's shortcut), or made by
// a Conv with its Relu fused: the Pad still folds, and every output keeps
// its bits over runs that reuse the values' headers, with and without a
// Pool.
func TestPadFoldSharedInput(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 24))
	for _, shared := range []bool{true, false} {
		b := builder.New(17)
		x := b.Input("x", tensor.Float, 1, 3, 12, 12)
		h := b.Op("Relu", b.Op("Conv", x, b.Constant("w0", randTensor(r, tensor.Float, 4, 3, 3, 3)), builder.Ints("pads", 1, 1, 1, 1)))
		p := b.Op("Pad", h, b.Ints64("pads", 0, 0, 0, 0, 0, 0, 1, 1), builder.String("mode", "constant"), builder.Name("pad"))
		y := b.Op("Conv", p, b.Constant("w", randTensor(r, tensor.Float, 4, 2, 3, 3)), builder.Int("group", 2), builder.Ints("strides", 2, 2), builder.Name("conv"))
		want := 2 // the Relu and the Pad
		if shared {
			y = b.Op("Add", y, b.Op("MaxPool", h, builder.Ints("kernel_shape", 2, 2), builder.Ints("strides", 2, 2)))
			b.Output("h", b.Op("Neg", h))
		}
		b.Output("y", y)
		fused, plain := loadBoth(t, b)
		if fused.Fusions() != want {
			t.Fatalf("shared %v: %d fusions, want %d", shared, fused.Fusions(), want)
		}
		pool := graph.NewPool()
		for _, o := range []*graph.RunOptions{{Engine: graph.EngineFast}, {Engine: graph.EngineFast, Pool: pool}} {
			for run := range 3 {
				xin := randTensor(r, tensor.Float, 1, 3, 12, 12)
				in := map[string]tensor.Value{"x": xin}
				got, err := fused.Run(context.Background(), in, o)
				if err != nil {
					t.Fatal(err)
				}
				exp, err := plain.Run(context.Background(), in, o)
				if err != nil {
					t.Fatal(err)
				}
				for name, v := range exp.Map() {
					if !got.Map()[name].(*tensor.Tensor).Equal(v.(*tensor.Tensor)) {
						t.Fatalf("shared %v, run %d (pool %v): output %s differs", shared, run, o.Pool != nil, name)
					}
				}
				if o.Pool != nil {
					for _, res := range []graph.Result{got, exp} {
						for _, v := range res.Map() {
							if err := pool.Release(v); err != nil {
								t.Fatal(err)
							}
						}
					}
				}
			}
		}
	}
}

// What must not fold: the other modes, a value other than +0 (-0
// included), a negative pad, pads on N or C, a Pad another node reads or
// that is a graph output, a Conv with auto_pad, a depthwise Conv whose
// weight is not finite, pads
// computed at run time, an integer convolution. The models still run as written.
func TestPadFoldLeavesOthersAlone(t *testing.T) {
	r := rand.New(rand.NewPCG(20, 24))
	base := func(opset int) padConv {
		return padConv{opset: opset, dt: tensor.Float, xs: []int{1, 2, 9, 9}, m: 3, group: 1, kernel: []int{3, 3},
			strides: []int{2, 2}, pads: []int{0, 0, 1, 1, 0, 0, 1, 1}}
	}
	one, half, negZero := 1.0, 0.5, math.Copysign(0, -1)
	cases := map[string]padConv{}
	for _, opset := range []int{9, 11, 18} {
		for _, mode := range []string{"reflect", "edge"} {
			c := base(opset)
			c.mode = mode
			cases[fmt.Sprintf("%d mode %s", opset, mode)] = c
		}
		for _, v := range []*float64{&one, &half, &negZero} {
			c := base(opset)
			c.value = v
			cases[fmt.Sprintf("%d value %v", opset, *v)] = c
		}
		c := base(opset)
		c.pads = []int{0, 0, 1, 1, 0, 0, -1, 1}
		cases[fmt.Sprintf("%d negative pad", opset)] = c
		c = base(opset)
		c.pads = []int{1, 0, 1, 1, 0, 0, 1, 1}
		cases[fmt.Sprintf("%d pad on N", opset)] = c
		c = base(opset)
		c.pads = []int{0, 0, 1, 1, 0, 1, 1, 1}
		c.xs[1], c.group = 1, 1
		cases[fmt.Sprintf("%d pad on C", opset)] = c
		for _, ap := range []string{"SAME_UPPER", "SAME_LOWER", "VALID"} {
			c = base(opset)
			c.autoPad = ap
			cases[fmt.Sprintf("%d auto_pad %s", opset, ap)] = c
		}
	}
	for name, c := range cases {
		b := c.build(r, nil)
		fused, plain := loadBoth(t, b)
		if fused.Fusions() != 0 {
			t.Fatalf("%s: %d fusions, want none", name, fused.Fusions())
		}
		x := randTensor(r, c.dt, c.xs...)
		if !runY(t, fused, x, nil).Equal(runY(t, plain, x, nil)) {
			t.Fatalf("%s: the unfused models differ", name)
		}
	}
	// A depthwise Conv with an infinite weight (see ops.FusePad): its
	// engine skips its own padding's taps, where the Pad's zeros times
	// the Inf give NaN.
	dw := base(18)
	dw.m, dw.group, dw.infWeight = 2, 2, true
	if fused, _ := loadBoth(t, dw.build(r, nil)); fused.Fusions() != 0 {
		t.Fatal("a Pad before a depthwise Conv with an infinite weight folded")
	}
	// A second reader of the Pad, or the Pad's output returned.
	for _, extra := range []func(b *builder.Builder, x, padded builder.Value){
		func(b *builder.Builder, x, padded builder.Value) { b.Output("p", padded) },
		func(b *builder.Builder, x, padded builder.Value) { b.Output("q", b.Op("Relu", padded)) },
	} {
		if fused, _ := loadBoth(t, base(18).build(r, extra)); fused.Fusions() != 0 {
			t.Fatalf("a Pad with a second reader folded")
		}
	}
	// Pads computed at run time.
	b := builder.New(18)
	x := b.Input("x", tensor.Float, 1, 2, 9, 9)
	pads := b.Input("pads", tensor.Int64, 8)
	b.Output("y", b.Op("Conv", b.Op("Pad", x, pads), b.Constant("w", randTensor(r, tensor.Float, 3, 2, 3, 3))))
	if fused, _ := loadBoth(t, b); fused.Fusions() != 0 {
		t.Fatal("a Pad with computed pads folded")
	}
	// An integer convolution pads with the zero point: no fold.
	b = builder.New(18)
	xi := b.Input("x", tensor.Uint8, 1, 2, 9, 9)
	wi := tensor.MustFromSlice(make([]uint8, 3*2*3*3), 3, 2, 3, 3)
	b.Output("y", b.Op("ConvInteger", b.Op("Pad", xi, b.Ints64("pads", 0, 0, 1, 1, 0, 0, 1, 1)), b.Constant("w", wi)))
	if fused, _ := loadBoth(t, b); fused.Fusions() != 0 {
		t.Fatal("a Pad before a ConvInteger folded")
	}
}

// tf2onnx writes the pads as a Concat of the parts a Split makes of a
// constant: they fold as well.
func TestPadFoldComputedConstantPads(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 24))
	b := builder.New(11)
	x := b.Input("x", tensor.Float, 1, 3, 10, 10)
	parts := b.OpN("Split", 2, b.Ints64("all", 0, 0, 0, 0, 0, 0, 1, 1), builder.Int("axis", 0))
	pads := b.Op("Concat", parts[0], parts[1], builder.Int("axis", 0))
	p := b.Op("Pad", x, pads, b.Constant("zero", scalarOf(tensor.Float, 0)), builder.Name("pad"))
	b.Output("y", b.Op("Conv", p, b.Constant("w", randTensor(r, tensor.Float, 5, 3, 3, 3)), builder.Ints("strides", 2, 2), builder.Name("conv")))
	fused, plain := loadBoth(t, b)
	if fused.Fusions() != 1 {
		t.Fatalf("%d fusions, want 1", fused.Fusions())
	}
	xin := randTensor(r, tensor.Float, 1, 3, 10, 10)
	if !runY(t, fused, xin, nil).Equal(runY(t, plain, xin, nil)) {
		t.Fatal("fused and unfused differ")
	}
}

// Pad -> Conv -> BatchNormalization -> Relu: the Pad folds and the Conv
// still folds the normalization and runs the Relu as its epilogue.
func TestPadFoldThenBatchNorm(t *testing.T) {
	r := rand.New(rand.NewPCG(22, 24))
	b := builder.New(13)
	x := b.Input("x", tensor.Float, 1, 3, 10, 10)
	p := b.Op("Pad", x, b.Ints64("pads", 0, 0, 0, 1, 0, 0, 1, 0), builder.Name("pad"))
	y := b.Op("Conv", p, b.Constant("w", randTensor(r, tensor.Float, 4, 3, 3, 3)), builder.Ints("strides", 2, 2), builder.Name("conv"))
	one := tensor.MustFromSlice([]float32{1, 1.5, 0.75, 2}, 4)
	y = b.Op("BatchNormalization", y, b.Constant("scale", one), b.Constant("bias", randTensor(r, tensor.Float, 4)), b.Constant("mean", randTensor(r, tensor.Float, 4)), b.Constant("var", one))
	b.Output("y", b.Op("Relu", y))
	fused, plain := loadBoth(t, b)
	if fused.Fusions() != 3 {
		t.Fatalf("%d fusions, want 3 (the Pad, the normalization, the Relu)", fused.Fusions())
	}
	xin := randTensor(r, tensor.Float, 1, 3, 10, 10)
	got, exp := values64t(runY(t, fused, xin, nil)), values64t(runY(t, plain, xin, nil))
	for i := range exp {
		if math.Abs(got[i]-exp[i]) > 1e-5*(1+math.Abs(exp[i])) {
			t.Fatalf("element %d: fused %v, unfused %v", i, got[i], exp[i])
		}
	}
}

// A zero Pad before a depthwise Conv (group == C == M, finite constant
// weights: MobileNet blocks exported by tf2onnx) folds too, and the fused
// model stays within the bound the Conv keeps against the reference
// engine (reference/agree.go convBound: 2*(k+8)*eps*(k*M + B) + 4*eps*|y|,
// k the taps, M max|X| times max|W|, B max|bias|): the depthwise engine
// sums the columns every tap reaches with fused multiply-adds and the
// others with a multiply and an add, so the pads moved into the Conv may
// change an output's last bits, not more.
func TestPadFoldDepthwiseWithinBound(t *testing.T) {
	r := rand.New(rand.NewPCG(22, 24))
	for iter := range 40 {
		spatial := 1 + r.IntN(2)
		ch := 1 + r.IntN(5)
		c := padConv{opset: []int{9, 13, 18}[iter%3], dt: tensor.Float, xs: []int{1 + r.IntN(2), ch}, m: ch, group: ch, bias: r.IntN(2) == 0}
		eps := 0x1p-24
		if iter%4 == 3 {
			c.dt, eps = tensor.Double, 0x1p-53
		}
		rank := 2 + spatial
		c.pads = make([]int, 2*rank)
		taps := 1
		for k := range spatial {
			kk := 1 + r.IntN(5)
			c.kernel = append(c.kernel, kk)
			taps *= kk
			c.strides = append(c.strides, 1+r.IntN(2))
			c.pads[2+k], c.pads[rank+2+k] = r.IntN(3), r.IntN(3)
			c.xs = append(c.xs, kk+r.IntN(20))
		}
		b := c.build(r, nil)
		fused, plain := loadBoth(t, b)
		if fused.Fusions() != 1 {
			t.Fatalf("%d: %+v: %d fusions, want 1", iter, c, fused.Fusions())
		}
		x := randTensor(r, c.dt, c.xs...)
		want := runY(t, plain, x, &graph.RunOptions{Engine: graph.EngineReference})
		maxW, maxB := 0.0, 0.0
		for _, v := range values64(b, "w") {
			maxW = max(maxW, math.Abs(v))
		}
		if c.bias {
			for _, v := range values64(b, "b") {
				maxB = max(maxB, math.Abs(v))
			}
		}
		k := float64(taps)
		wv := values64t(want)
		for _, threads := range []int{1, 2} {
			gv := values64t(runY(t, fused, x, &graph.RunOptions{Engine: graph.EngineFast, Threads: threads}))
			if len(gv) != len(wv) {
				t.Fatalf("%d: %d outputs, reference %d", iter, len(gv), len(wv))
			}
			for i := range wv {
				bound := 2*(k+8)*eps*(k*maxW+maxB) + 4*eps*math.Abs(wv[i]) // max|X| <= 1
				if d := math.Abs(gv[i] - wv[i]); d > bound {
					t.Fatalf("%d: %+v, %d threads: element %d: fused %v, reference %v: %g apart, bound %g", iter, c, threads, i, gv[i], wv[i], d, bound)
				}
			}
		}
	}
}
