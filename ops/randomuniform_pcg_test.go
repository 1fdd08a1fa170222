package ops

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/onnxshape/onnxshape/ops/internal/random"
	"github.com/onnxshape/onnxshape/tensor"
)

// TestFillUniformDrawsThePCGStream checks that fillUniform's lanes,
// jumps and pieces give the values rand.PCG gives drawn one by one, at
// every length around the lanes and pieces, on one core and two, and
// leave the PCG where the one-by-one draws leave it.
func TestFillUniformDrawsThePCGStream(t *testing.T) {
	for _, n := range []int{0, 1, 3, 4, 5, 7, 4097, random.PieceLen - 1, 2*random.PieceLen + 5, 300001} {
		for _, dt := range []tensor.DataType{tensor.Float, tensor.Double} {
			for _, threads := range []int{1, 2} {
				seed := uint64(n*7 + threads)
				low, high := -1.5, 2.25
				want := rand.NewPCG(seed, randomSeedStream)
				s := &randomStream{pcg: rand.NewPCG(seed, randomSeedStream)}
				y := tensor.MustNew(dt, n)
				done, err := fillUniform(&Options{Threads: threads}, opRef{"RandomUniform", 22}, s, y, low, high)
				if !done || err != nil {
					t.Fatalf("n %d %v: done %v, error %v", n, dt, done, err)
				}
				ws := &randomStream{pcg: want}
				for i := range n {
					v := low + (high-low)*ws.uniform()
					var got float64
					if dt == tensor.Float {
						got = float64(elems[float32](y)[i])
						v = float64(float32(v))
					} else {
						got = elems[float64](y)[i]
					}
					if math.Float64bits(got) != math.Float64bits(v) {
						t.Fatalf("n %d %v threads %d: element %d is %v, want %v", n, dt, threads, i, got, v)
					}
				}
				if a, b := s.pcg.Uint64(), want.Uint64(); a != b {
					t.Fatalf("n %d %v threads %d: the next draw is %x, want %x", n, dt, threads, a, b)
				}
			}
		}
	}
	if done, _ := fillUniform(nil, opRef{"RandomUniform", 22}, &randomStream{pcg: rand.NewPCG(1, 2)}, tensor.MustNew(tensor.Float16, 3), 0, 1); done {
		t.Error("float16: fillUniform drew, want it to leave the type to randomFill")
	}
}

// TestBernoulliFillDrawsThePCGStream checks bernoulliFill's pieces and
// blocks against draws one by one (1 where u < p), on one core and two.
func TestBernoulliFillDrawsThePCGStream(t *testing.T) {
	for _, n := range []int{0, 1, 5, bernoulliBlock + 3, 2*random.PieceLen + 7, 200003} {
		for _, threads := range []int{1, 2} {
			x := tensor.MustNew(tensor.Float, n)
			for i := range n {
				elems[float32](x)[i] = float32(i%11) / 10
			}
			seed := uint64(n + threads)
			s := &randomStream{pcg: rand.NewPCG(seed, randomSeedStream)}
			want := &randomStream{pcg: rand.NewPCG(seed, randomSeedStream)}
			y := tensor.MustNew(tensor.Bool, n)
			if err := bernoulliFill(&Options{Threads: threads}, opRef{"Bernoulli", 22}, s, x, y); err != nil {
				t.Fatal(err)
			}
			for i := range n {
				w := want.uniform() < float64(elems[float32](x)[i])
				if got := y.Bytes()[i] != 0; got != w {
					t.Fatalf("n %d threads %d: element %d is %v, want %v", n, threads, i, got, w)
				}
			}
			if a, b := s.pcg.Uint64(), want.pcg.Uint64(); a != b {
				t.Fatalf("n %d threads %d: the next draw is %x, want %x", n, threads, a, b)
			}
		}
	}
}
