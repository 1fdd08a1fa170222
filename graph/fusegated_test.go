package graph_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/onnxshape/onnxshape/builder"
	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/tensor"
)

// A Conv's output gated by its own Sigmoid or HardSigmoid (x*act(x), in
// either order), the gate run as the Conv's epilogue, gives the bits of
// the nodes unfused, float and double (double keeps the chain), on the
// depthwise, 1x1 and im2col paths, with a BatchNormalization folded and
// with NaNs and infinities in the input; a third reader of X keeps the
// gate out of the Conv.
func TestFusedGateIsExact(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 27))
	for _, dt := range []tensor.DataType{tensor.Float, tensor.Double} {
		for _, prod := range []string{"Conv3x3", "ConvDepthwise", "Conv1x1", "ConvBN"} {
			for _, act := range []string{"Sigmoid", "HardSigmoid"} {
				for _, swap := range []bool{false, true} {
					for _, third := range []bool{false, true} {
						c, m, k, g := 5, 7, 3, 1
						if prod == "ConvDepthwise" {
							c, m, g = 6, 6, 6
						}
						if prod == "Conv1x1" {
							k = 1
						}
						// build makes the model; with extra, X is an output too,
						// which keeps the gate apart and the rest fused (the
						// folded BatchNormalization rounds as in the gated model).
						w, bias := randTensor(r, dt, m, c/g, k, k), randTensor(r, dt, m)
						bn := [4]*tensor.Tensor{randTensor(r, dt, m), randTensor(r, dt, m), randTensor(r, dt, m), absTensor(randTensor(r, dt, m))}
						want := 2 // the chain's act, the gate
						if prod == "ConvBN" {
							want++
						}
						build := func(extra bool) *builder.Builder {
							b := builder.New(13)
							x := b.Input("x", dt, 2, c, 9, 21)
							y := b.Op("Conv", x, b.Constant("w", w), b.Constant("b", bias),
								builder.Ints("pads", k/2, k/2, k/2, k/2), builder.Int("group", g), builder.Name("conv"))
							if prod == "ConvBN" {
								y = b.Op("BatchNormalization", y, b.Constant("s", bn[0]), b.Constant("bb", bn[1]),
									b.Constant("mean", bn[2]), b.Constant("var", bn[3]), builder.Name("bn"))
							}
							a := activation(b, act, dt, y, "act")
							var z builder.Value
							if swap {
								z = b.Op("Mul", a, y, builder.Name("gate"))
							} else {
								z = b.Op("Mul", y, a, builder.Name("gate"))
							}
							if third {
								// The chain takes the Add too: act, Mul, Add, no gate.
								z = b.Op("Add", z, y, builder.Name("third"))
							}
							b.Output("y", z)
							if extra {
								b.Output("conv_out", y)
							}
							return b
						}
						fused, plain := loadBoth(t, build(false))
						if fused.Fusions() != want || plain.Fusions() != 0 {
							t.Fatalf("%v %s*%s third %v: %d fusions (want %d), %d with NoFuse", dt, prod, act, third, fused.Fusions(), want, plain.Fusions())
						}
						if prod == "ConvBN" {
							plain, _ = loadBoth(t, build(true))
						}
						xin := randTensor(r, dt, 2, c, 9, 21)
						if dt == tensor.Float {
							xv, _ := tensor.Data[float32](xin)
							for i := range xv {
								xv[i] *= 8
							}
							xv[0], xv[50], xv[101], xv[333] = float32(math.NaN()), float32(math.Inf(-1)), float32(math.Inf(1)), float32(math.Copysign(0, -1))
						}
						for _, threads := range []int{1, 2} {
							o := &graph.RunOptions{Threads: threads, Engine: graph.EngineFast}
							got, exp := runY(t, fused, xin, o), runY(t, plain, xin, o)
							gv, ev := values64t(got), values64t(exp)
							for i := range gv {
								if !sameBits(dt, gv[i], ev[i]) {
									t.Fatalf("%v %s*%s swap %v third %v, %d threads: element %d is %v fused, %v unfused", dt, prod, act, swap, third, threads, i, gv[i], ev[i])
								}
							}
						}
					}
				}
			}
		}
	}
}

// absTensor replaces each element of t by its absolute value plus 0.1 (a
// BatchNormalization's variance).
func absTensor(t *tensor.Tensor) *tensor.Tensor {
	if v, err := tensor.Data[float32](t); err == nil {
		for i := range v {
			v[i] = float32(math.Abs(float64(v[i]))) + 0.1
		}
	}
	if v, err := tensor.Data[float64](t); err == nil {
		for i := range v {
			v[i] = math.Abs(v[i]) + 0.1
		}
	}
	return t
}

// sameBits compares two elements of type dt widened to float64 by their
// bits (a NaN's payload too).
func sameBits(dt tensor.DataType, a, b float64) bool {
	if dt == tensor.Float {
		return math.Float32bits(float32(a)) == math.Float32bits(float32(b))
	}
	return math.Float64bits(a) == math.Float64bits(b)
}
