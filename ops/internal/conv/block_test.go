package conv

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/onnxshape/onnxshape/ops/internal/clamp"
)

// hardSwish32 stands for a fused activation that is not a clamp.
func hardSwish32(v []float32) {
	for i, x := range v {
		v[i] = x * min(max(x*(1/6.0)+0.5, 0), 1)
	}
}

// relu6 is package clamp's [0, 6], the epilogue the products may apply in
// their kernels (Config.Clamp32).
func relu6(v []float32) { clamp.Float32(v, v, 0, 6) }

// residualEpilogue adds r at the block's place in *y, as the operators'
// fused residual Add does (by the block's address).
func residualEpilogue(y *[]float32, r []float32) func([]float32) {
	return func(blk []float32) {
		if len(blk) == 0 {
			return
		}
		off := int((uintptr(unsafe.Pointer(&blk[0])) - uintptr(unsafe.Pointer(&(*y)[0]))) / 4)
		for i := range blk {
			blk[i] += r[off+i]
		}
	}
}

type blockCase struct {
	expand, dw, project Shape
	x                   []float32
	st                  [3]BlockStage
	res                 []float32
	keep                bool      // run reuses its buffers (benchmarks)
	y, t1, t2           []float32 // the buffers kept
}

func randomBlock(r *rand.Rand, iter int) blockCase {
	n := 1 + r.IntN(2)
	if r.IntN(3) > 0 {
		n = 1
	}
	c := 1 + r.IntN(40)
	e := c * (1 + r.IntN(6))
	if r.IntN(4) == 0 {
		e = 1 + r.IntN(200)
	}
	m := 1 + r.IntN(48)
	h, w := 1+r.IntN(40), 1+r.IntN(40)
	k := []int{3, 3, 5}[r.IntN(3)]
	s := 1 + r.IntN(2)
	p := (k - 1) / 2
	oh, ow := (h+2*p-k)/s+1, (w+2*p-k)/s+1
	two := func(a, b int) []int { return []int{a, b} }
	var b blockCase
	b.expand = Shape{N: n, C: c, M: e, Group: 1, Image: two(h, w), Grid: two(h, w), Kernel: two(1, 1), Stride: two(1, 1), Dilation: two(1, 1), Pad: two(0, 0)}
	b.dw = Shape{N: n, C: e, M: e, Group: e, Image: two(h, w), Grid: two(oh, ow), Kernel: two(k, k), Stride: two(s, s), Dilation: two(1, 1), Pad: two(p, p)}
	b.project = Shape{N: n, C: e, M: m, Group: 1, Image: two(oh, ow), Grid: two(oh, ow), Kernel: two(1, 1), Stride: two(1, 1), Dilation: two(1, 1), Pad: two(0, 0)}
	b.x = specialF32(r, n*c*h*w)
	b.st[0] = BlockStage{W: specialF32(r, e*c), B: specialF32(r, e)}
	b.st[1] = BlockStage{W: specialF32(r, e*k*k), B: specialF32(r, e)}
	b.st[2] = BlockStage{W: specialF32(r, m*e), B: specialF32(r, m)}
	for i := range b.st {
		if r.IntN(4) == 0 {
			b.st[i].B = nil
		}
	}
	for i := range 2 {
		switch (iter + i) % 3 {
		case 0:
			b.st[i].Cfg.Clamp32 = &[2]float32{0, 6}
			b.st[i].Cfg.Epilogue32 = relu6
		case 1:
			b.st[i].Cfg.Epilogue32 = hardSwish32
		}
	}
	if r.IntN(2) == 0 {
		b.res = specialF32(r, n*m*oh*ow)
	}
	return b
}

// run runs the block fused (Block32) or as three Forwards.
func (b *blockCase) run(threads int, fused bool) ([]float32, error) {
	cfg := Config{Threads: threads}
	if !b.keep || b.y == nil {
		b.y = make([]float32, b.project.N*b.project.M*prod(b.project.Grid))
		b.t1 = make([]float32, b.expand.N*b.expand.M*prod(b.expand.Grid))
		b.t2 = make([]float32, b.dw.N*b.dw.M*prod(b.dw.Grid))
	}
	y, t1, t2 := b.y, b.t1, b.t2
	st := b.st
	if b.res != nil {
		st[2].Cfg.Epilogue32 = residualEpilogue(&y, b.res)
	}
	if fused {
		return y, Block32(cfg, b.expand, b.dw, b.project, b.x, st, y)
	}
	for i, step := range []struct {
		s    Shape
		x, y []float32
	}{{b.expand, b.x, t1}, {b.dw, t1, t2}, {b.project, t2, y}} {
		c := cfg
		c.Epilogue32, c.Clamp32 = st[i].Cfg.Epilogue32, st[i].Cfg.Clamp32
		if err := Forward(c, step.s, step.x, st[i].W, st[i].B, step.y); err != nil {
			return nil, err
		}
	}
	return y, nil
}

func sameBits32(t *testing.T, what string, got, want []float32) {
	t.Helper()
	for i := range want {
		g, w := got[i], want[i]
		if math.Float32bits(g) == math.Float32bits(w) || (nanPayloadsOnly && g != g && w != w) {
			continue
		}
		t.Fatalf("%s: element %d is %v (%#x), the three convolutions give %v (%#x)", what, i, g, math.Float32bits(g), w, math.Float32bits(w))
	}
}

// Block32 gives the bits of the three convolutions run one after the
// other: random blocks (3x3 and 5x5, strides 1 and 2, expansions 1-6x and
// others), clamps, another activation, a residual, special values, bands
// of every size from one row to the whole plane, 1-3 cores.
func TestBlockIsTheThreeConvolutions(t *testing.T) {
	r := rand.New(rand.NewPCG(61, 62))
	defer func(v, m int) { blockBandBytes, blockMinBytes = v, m }(blockBandBytes, blockMinBytes)
	iters := 150
	if testing.Short() {
		iters = 40
	}
	for iter := range iters {
		b := randomBlock(r, iter)
		want, err := b.run(1, false)
		if err != nil {
			t.Fatal(err)
		}
		for _, band := range []int{0, 1, 24 << 10, 384 << 10} {
			blockBandBytes, blockMinBytes = band, 0
			if band == 0 {
				blockMinBytes = 1 << 30 // the three convolutions
			}
			for th := 1; th <= 3; th++ {
				got, err := b.run(th, true)
				if err != nil {
					t.Fatal(err)
				}
				sameBits32(t, fmt.Sprintf("case %d (%+v / %+v, band %d, %d cores, residual %v)", iter, b.dw.Image, b.dw, band, th, b.res != nil), got, want)
			}
		}
	}
}

// blockCharge counts what a run charges.
func TestBlockChargesItsBands(t *testing.T) {
	r := rand.New(rand.NewPCG(63, 64))
	b := randomBlock(r, 0)
	for th := 1; th <= 3; th++ {
		var got int64
		cfg := Config{Threads: th, Charge: func(n int64) error { got += n; return nil }}
		y := make([]float32, b.project.N*b.project.M*prod(b.project.Grid))
		if err := Block32(cfg, b.expand, b.dw, b.project, b.x, b.st, y); err != nil {
			t.Fatal(err)
		}
		if want := BlockScratchBytes(b.dw, th); got < want {
			t.Fatalf("%d cores: charged %d bytes, the band buffers are %d", th, got, want)
		}
	}
}

// silu32 stands for a gated epilogue, x*Sigmoid(x).
func silu32(v []float32) {
	for i, x := range v {
		v[i] = x * float32(1/(1+math.Exp(-float64(x))))
	}
}

// Front32 gives the bits of the expansion and the depthwise convolution
// run one after the other: random blocks as TestBlockIsTheThreeConvolutions,
// clamps, HardSwish and SiLU, bands of every size, 1-3 cores.
func TestFrontIsTheTwoConvolutions(t *testing.T) {
	r := rand.New(rand.NewPCG(65, 66))
	defer func(v, m, f int) { blockBandBytes, blockMinBytes, frontMinBytes = v, m, f }(blockBandBytes, blockMinBytes, frontMinBytes)
	iters := 100
	if testing.Short() {
		iters = 30
	}
	blockMinBytes, frontMinBytes = 0, 0
	for iter := range iters {
		b := randomBlock(r, iter)
		if iter%4 == 3 {
			b.st[0].Cfg, b.st[1].Cfg = Config{Epilogue32: silu32}, Config{Epilogue32: silu32}
		}
		t1 := make([]float32, b.expand.N*b.expand.M*prod(b.expand.Grid))
		want := make([]float32, b.dw.N*b.dw.M*prod(b.dw.Grid))
		if err := Forward(stageConfig(Config{Threads: 1}, b.st[0]), b.expand, b.x, b.st[0].W, b.st[0].B, t1); err != nil {
			t.Fatal(err)
		}
		if err := Forward(stageConfig(Config{Threads: 1}, b.st[1]), b.dw, t1, b.st[1].W, b.st[1].B, want); err != nil {
			t.Fatal(err)
		}
		for _, band := range []int{0, 1, 24 << 10, 384 << 10} {
			blockBandBytes, frontMinBytes = band, 0
			if band == 0 {
				frontMinBytes = 1 << 30 // the two convolutions
			}
			for th := 1; th <= 3; th++ {
				got := make([]float32, len(want))
				var charged int64
				cfg := Config{Threads: th, Charge: func(n int64) error { charged += n; return nil }}
				if th > 1 {
					cfg.Charge = nil
				}
				if err := Front32(cfg, b.expand, b.dw, b.x, [2]BlockStage{b.st[0], b.st[1]}, got); err != nil {
					t.Fatal(err)
				}
				sameBits32(t, fmt.Sprintf("case %d (%+v, band %d, %d cores)", iter, b.dw, band, th), got, want)
				if want := FrontScratchBytes(b.dw, th); th == 1 && charged < want {
					t.Fatalf("charged %d bytes, the band buffers are %d", charged, want)
				}
			}
		}
	}
}
