package ops

import (
	"math/big"
	"math/rand"
	"testing"

	"github.com/onnxshape/onnxshape/internal/runenv"
	"github.com/onnxshape/onnxshape/tensor"
)

// qdqCase is one random quantized convolution in QDQ form.
type qdqCase struct {
	x, xs, xz, w, ws, wz, b, bs, ys, yz *tensor.Tensor
	attrs                               map[string]Attribute
	relu                                bool
}

func randQDQCase(r *rand.Rand, xt, wt, yt tensor.DataType, perChannel, relu bool) qdqCase {
	must := func(t *tensor.Tensor, err error) *tensor.Tensor {
		if err != nil {
			panic(err)
		}
		return t
	}
	c, m, h := 1+r.Intn(9), 1+r.Intn(12), 3+r.Intn(9)
	scale := func(n int) *tensor.Tensor {
		v := make([]float32, n)
		for i := range v {
			v[i] = float32(0.001 + 0.05*r.Float64())
		}
		return must(tensor.FromSlice(v, n))
	}
	zero := func(dt tensor.DataType, shape ...int) *tensor.Tensor {
		t := must(tensor.New(dt, shape...))
		for i := range t.Bytes() {
			t.Bytes()[i] = byte(r.Intn(256))
			if dt == tensor.Int8 && r.Intn(2) == 0 {
				t.Bytes()[i] = 0 // the usual symmetric weights
			}
		}
		return t
	}
	q := qdqCase{x: randTensorOf(r, xt, 1, c, h, h), w: randTensorOf(r, wt, m, c, 3, 3), relu: relu,
		attrs: map[string]Attribute{"pads": ints(1, 1, 1, 1), "strides": ints(int64(1+r.Intn(2)), 1)}}
	q.xs, q.xz = scale(1), zero(xt, 1)
	q.ys, q.yz = scale(1), zero(yt)
	n := 1
	if perChannel {
		n = m
	}
	q.ws, q.wz = scale(n), zero(wt, n)
	bias := make([]int32, m)
	for i := range bias {
		bias[i] = int32(r.Intn(20001) - 10000)
	}
	q.b = must(tensor.FromSlice(bias, m))
	bs := make([]float32, n)
	for i := range bs {
		bs[i] = elems[float32](q.xs)[0] * elems[float32](q.ws)[i]
	}
	q.bs = must(tensor.FromSlice(bs, n))
	return q
}

// floatChain runs the chain's nodes one by one.
func (q qdqCase) floatChain(t *testing.T) *tensor.Tensor {
	t.Helper()
	dq := func(x, s, z *tensor.Tensor, axis int64) *tensor.Tensor {
		y, err := runNode(nil, "DequantizeLinear", 21, map[string]Attribute{"axis": {Type: AttrInt, Int: axis}}, x, s, z)
		if err != nil {
			t.Fatal(err)
		}
		return y
	}
	y, err := runNode(nil, "Conv", 22, q.attrs, dq(q.x, q.xs, q.xz, 1), dq(q.w, q.ws, q.wz, 0), dq(q.b, q.bs, nil, 0))
	if err != nil {
		t.Fatal(err)
	}
	if q.relu {
		if y, err = runNode(nil, "Relu", 14, nil, y); err != nil {
			t.Fatal(err)
		}
	}
	if y, err = runNode(nil, "QuantizeLinear", 21, nil, y, q.ys, q.yz); err != nil {
		t.Fatal(err)
	}
	return y
}

// fused runs the chain as FuseQDQ makes the Conv run it.
func (q qdqCase) fused(t *testing.T, threads int) *tensor.Tensor {
	t.Helper()
	conv := &Node{OpType: "Conv", Version: 22, NumOutputs: 1, Attrs: q.attrs}
	dq := func(axis int64) *Node {
		return &Node{OpType: "DequantizeLinear", Version: 21, NumOutputs: 1, Attrs: map[string]Attribute{"axis": {Type: AttrInt, Int: axis}}}
	}
	spec := QDQ{DX: dq(1), XScale: q.xs, XZero: q.xz, DW: dq(0), W: q.w, WScale: q.ws, WZero: q.wz,
		DB: dq(0), B: q.b, BScale: q.bs, Q: &Node{OpType: "QuantizeLinear", Version: 21, NumOutputs: 1}, YScale: q.ys, YZero: q.yz}
	if q.relu {
		spec.Relu = &Node{OpType: "Relu", Version: 14, NumOutputs: 1}
	}
	if _, ok := FuseQDQ(conv, spec, nil); !ok {
		t.Fatal("not fused")
	}
	out, err := convNode(&Options{Threads: threads, env: runenv.Env{Fuse: true}}, conv, []tensor.Value{q.x, q.w, q.b})
	if err != nil {
		t.Fatal(err)
	}
	return out[0].(*tensor.Tensor)
}

// exact is the real-number result correctly rounded, from the int32 sums
// (ConvInteger), the bias and the scales as exact rationals; tie reports
// the outputs that fall exactly halfway between two integers.
func (q qdqCase) exact(t *testing.T) (want []int, tie []bool) {
	t.Helper()
	acc, err := runNode(nil, "ConvInteger", 10, q.attrs, q.x, q.w, q.xz, q.wz)
	if err != nil {
		t.Fatal(err)
	}
	sums := elems[int32](acc)
	m, plane := acc.Shape()[1], acc.Len()/acc.Shape()[1]
	ws, bias := elems[float32](q.ws), elems[int32](q.b)
	lo, hi := int64(lowest(q.yz.DataType())), int64(highest(q.yz.DataType()))
	rat := func(f float32) *big.Rat { return new(big.Rat).SetFloat64(float64(f)) }
	half := big.NewRat(1, 2)
	for i, s := range sums {
		ch := (i / plane) % m
		v := new(big.Rat).SetInt64(int64(s) + int64(bias[ch]))
		v.Mul(v, rat(elems[float32](q.xs)[0]))
		v.Mul(v, rat(ws[min(ch, len(ws)-1)]))
		v.Quo(v, rat(elems[float32](q.ys)[0]))
		// Round half to even.
		fl := new(big.Int).Div(v.Num(), v.Denom()) // floor (Euclidean, positive denominator)
		frac := new(big.Rat).Sub(v, new(big.Rat).SetInt(fl))
		n := fl.Int64()
		isTie := frac.Cmp(half) == 0
		if c := frac.Cmp(half); c > 0 || (c == 0 && n%2 != 0) {
			n++
		}
		n += int64(zeroByte(q.yz))
		if q.relu {
			n = max(n, int64(zeroByte(q.yz)))
		}
		want = append(want, int(min(max(n, lo), hi)))
		tie = append(tie, isTie)
	}
	return want, tie
}

// The fused chain gives the real-number result correctly rounded (but at
// exact ties, where either neighbour passes), and is within one quantum of
// the float chain run node by node: int8 and uint8 x, w and y, per-tensor
// and per-channel weights, with and without Relu, at 1 and 2 threads.
func TestQDQConvRounding(t *testing.T) {
	r := rand.New(rand.NewSource(21))
	types := []tensor.DataType{tensor.Uint8, tensor.Int8}
	differ, total := 0, 0
	for i := range 48 {
		xt, wt, yt := types[i%2], types[(i/2)%2], types[(i/4)%2]
		q := randQDQCase(r, xt, wt, yt, i%3 == 0, i%5 < 2)
		want, tie := q.exact(t)
		chain := q.floatChain(t)
		for _, threads := range []int{1, 2} {
			got := q.fused(t, threads)
			if got.DataType() != yt || !tensor.SameShape(got.Shape(), chain.Shape()) {
				t.Fatalf("case %d: fused %v%v, chain %v%v", i, got.DataType(), got.Shape(), chain.DataType(), chain.Shape())
			}
			for k := range want {
				g, c := at8(got, k), at8(chain, k)
				if g != want[k] && !(tie[k] && (g == want[k]-1 || g == want[k]+1)) {
					t.Fatalf("case %d (%v x, %v w, %v y), output %d: fused %d, correctly rounded %d", i, xt, wt, yt, k, g, want[k])
				}
				if g-c > 1 || c-g > 1 {
					t.Fatalf("case %d, output %d: fused %d, float chain %d", i, k, g, c)
				}
				if threads == 1 {
					total++
					if g != c {
						differ++
					}
				}
			}
		}
	}
	t.Logf("%d of %d outputs differ from the float chain by one quantum", differ, total)
}

// FuseQDQ declines what it cannot run exactly as described: a bias on
// another scale, a nonzero bias zero point, per-channel weights on an axis
// other than 0, and sums that could overflow int32.
func TestQDQConvDeclines(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	q := randQDQCase(r, tensor.Uint8, tensor.Int8, tensor.Uint8, true, false)
	dq := func(axis int64) *Node {
		return &Node{OpType: "DequantizeLinear", Version: 21, NumOutputs: 1, Attrs: map[string]Attribute{"axis": {Type: AttrInt, Int: axis}}}
	}
	spec := func() QDQ {
		return QDQ{DX: dq(1), XScale: q.xs, XZero: q.xz, DW: dq(0), W: q.w, WScale: q.ws, WZero: q.wz,
			DB: dq(0), B: q.b, BScale: q.bs, Q: &Node{OpType: "QuantizeLinear", Version: 21, NumOutputs: 1}, YScale: q.ys, YZero: q.yz}
	}
	conv := func() *Node { return &Node{OpType: "Conv", Version: 22, NumOutputs: 1, Attrs: q.attrs} }
	if _, ok := FuseQDQ(conv(), spec(), nil); !ok {
		t.Fatal("the base case is not fused")
	}
	s := spec()
	bs := q.bs.Clone()
	elems[float32](bs)[0] *= 1.5
	s.BScale = bs
	if _, ok := FuseQDQ(conv(), s, nil); ok {
		t.Error("fused a bias on another scale")
	}
	s = spec()
	s.BZero, _ = tensor.FromSlice(make([]int32, q.bs.Len()), q.bs.Len())
	elems[int32](s.BZero)[0] = 1
	if _, ok := FuseQDQ(conv(), s, nil); ok {
		t.Error("fused a nonzero bias zero point")
	}
	s = spec()
	s.DW = dq(1)
	if _, ok := FuseQDQ(conv(), s, nil); ok {
		t.Error("fused per-channel weights on axis 1")
	}
	// 2^31 / (128*128) is 131072 products: a wide enough kernel of
	// extreme weights could overflow.
	w, _ := tensor.New(tensor.Int8, 1, 16000, 3, 3)
	for i := range w.Bytes() {
		w.Bytes()[i] = 0x80 // -128
	}
	s = spec()
	s.W, s.WScale, s.WZero, s.DB = w, q.xs, nil, nil
	if _, ok := FuseQDQ(conv(), s, nil); ok {
		t.Error("fused sums that may overflow int32")
	}
}
