package elementwise

import (
	"math"
	"math/rand/v2"
	"runtime"
	"syscall"
	"testing"
)

// threadCPU is the CPU time this thread has used, in ns: on a loaded
// machine wall time counts the time other processes held the core.
func threadCPU() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(1 /* RUSAGE_THREAD */, &ru) != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// Benchmarks of the span loops on 1M elements of random data (signs and
// bools unpredictable, as data is), outputs preallocated: the loops alone,
// without the allocation and page faults of a whole operator call.

const benchN = 1 << 20

func benchFloats() []float32 {
	r := rand.New(rand.NewPCG(5, 6))
	x := make([]float32, benchN)
	for i := range x {
		x[i] = r.Float32()*2 - 1
	}
	return x
}

func benchBools() []bool {
	r := rand.New(rand.NewPCG(7, 8))
	x := make([]bool, benchN)
	for i := range x {
		x[i] = r.IntN(2) == 1
	}
	return x
}

func BenchmarkSpans(b *testing.B) {
	x, y := benchFloats(), benchFloats()
	p, q := benchBools(), benchBools()
	of, ob := make([]float32, benchN), make([]bool, benchN)
	isInf := IsInfF32(true, true)
	yPos := make([]float32, benchN) // Mod's divisors in the every-operator case
	for i, v := range y {
		yPos[i] = 0.5 + v*v
	}
	for _, c := range []struct {
		name string
		f    func()
	}{
		{"SignF32", func() { Sign(of, x) }},
		{"IsNaNF32", func() { IsNaNF32(ob, x) }},
		{"IsInfF32", func() { isInf(ob, x) }},
		{"OrBoth", func() { BoolOr.Both(ob, p, q) }},
		{"AndRight", func() { BoolAnd.Right(ob, p, true) }},
		{"FmodF32", func() { FmodF32.Both(of, x, yPos) }},
		{"FmodMathMod", func() {
			for i := range of {
				of[i] = float32(math.Mod(float64(x[i]), float64(yPos[i])))
			}
		}},
		{"Copy", func() { copy(of, x) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(benchN)
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			start := threadCPU()
			for b.Loop() {
				c.f()
			}
			b.ReportMetric(float64(threadCPU()-start)/float64(b.N), "cpu-ns/op")
		})
	}
}
