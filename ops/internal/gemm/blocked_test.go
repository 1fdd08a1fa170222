package gemm

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// The blocked products against the plain kernels. Floats agree within
//
//	|fast - plain| <= (2k+4) * eps * (|alpha| * sum_p |a_ip||b_pj| + |beta||c_ij|)
//
// (eps the unit roundoff of the type: each of the two sums of k products
// is within k*eps of the exact value whatever its order, FMA or not);
// integers exactly.

// withKernels runs f once for every kernel set this machine runs.
func withKernels(t *testing.T, f func(t *testing.T)) {
	t.Helper()
	defer useAsm()
	for _, set := range []struct {
		name string
		use  func()
	}{{"asm", useAsm}, {"avx2", useAVX2}, {"go", useGo}} {
		set.use()
		if set.name != "go" && k32.name == "go" {
			continue
		}
		t.Run(set.name, f)
	}
}

type shape struct {
	m, n, k        int
	transA, transB bool
	pad            int // extra stride
}

func (s shape) String() string {
	return fmt.Sprintf("%dx%dx%d/tA=%v/tB=%v/pad=%d", s.m, s.n, s.k, s.transA, s.transB, s.pad)
}

func randSlice[T float32 | float64](r *rand.Rand, n int) []T {
	v := make([]T, n)
	for i := range v {
		v[i] = T(r.Float64()*2 - 1)
	}
	return v
}

// operands makes A, B, C of s, with strides, and the strides.
func operands[T float32 | float64](r *rand.Rand, s shape) (a []T, lda int, b []T, ldb int, c []T, ldc int) {
	ar, ac := s.m, s.k
	if s.transA {
		ar, ac = s.k, s.m
	}
	br, bc := s.k, s.n
	if s.transB {
		br, bc = s.n, s.k
	}
	lda, ldb, ldc = ac+s.pad, bc+s.pad, s.n+s.pad
	a = randSlice[T](r, max(0, (ar-1)*lda+ac))
	b = randSlice[T](r, max(0, (br-1)*ldb+bc))
	c = randSlice[T](r, max(0, (s.m-1)*ldc+s.n))
	return
}

func at[T float32 | float64](v []T, ld, i, j int, trans bool) T {
	if trans {
		return v[j*ld+i]
	}
	return v[i*ld+j]
}

// agree checks got against want element by element within the bound.
func agree[T float32 | float64](t *testing.T, s shape, alpha, beta T, a []T, lda int, b []T, ldb int, c0 []T, ldc int, got, want []T) {
	t.Helper()
	var z T
	eps := 0x1p-24
	if any(z) == any(float64(0)) {
		eps = 0x1p-53
	}
	for i := range s.m {
		for j := range s.n {
			var sum float64
			for p := range s.k {
				sum += math.Abs(float64(at(a, lda, i, p, s.transA)) * float64(at(b, ldb, p, j, s.transB)))
			}
			bound := float64(2*s.k+4) * eps * (math.Abs(float64(alpha))*sum + math.Abs(float64(beta)*float64(c0[i*ldc+j])))
			g, w := float64(got[i*ldc+j]), float64(want[i*ldc+j])
			if math.IsNaN(g) != math.IsNaN(w) || (!math.IsNaN(g) && math.Abs(g-w) > bound && g != w) {
				t.Fatalf("%v alpha=%v beta=%v: C[%d][%d] = %v, plain %v (bound %g)", s, alpha, beta, i, j, g, w, bound)
			}
		}
	}
	// Elements between rows (the stride's padding) are untouched.
	for i := range s.m - 1 {
		for j := s.n; j < ldc; j++ {
			if got[i*ldc+j] != c0[i*ldc+j] && !(math.IsNaN(float64(got[i*ldc+j])) && math.IsNaN(float64(c0[i*ldc+j]))) {
				t.Fatalf("%v: padding C[%d][%d] written", s, i, j)
			}
		}
	}
}

func checkShape[T float32 | float64](t *testing.T, r *rand.Rand, s shape, alpha, beta T, threads int) {
	t.Helper()
	a, lda, b, ldb, c, ldc := operands[T](r, s)
	a0, b0 := append([]T(nil), a...), append([]T(nil), b...)
	want := append([]T(nil), c...)
	got := append([]T(nil), c...)
	cfg := Config{Threads: threads}
	if err := plain(cfg, s.transA, s.transB, s.m, s.n, s.k, alpha, a, lda, b, ldb, beta, want, ldc); err != nil {
		t.Fatal(err)
	}
	var err error
	switch g := any(got).(type) {
	case []float32:
		err = Float32(cfg, s.transA, s.transB, s.m, s.n, s.k, float32(alpha), any(a).([]float32), lda, any(b).([]float32), ldb, float32(beta), g, ldc)
	case []float64:
		err = Float64(cfg, s.transA, s.transB, s.m, s.n, s.k, float64(alpha), any(a).([]float64), lda, any(b).([]float64), ldb, float64(beta), g, ldc)
	}
	if err != nil {
		t.Fatalf("%v: %v", s, err)
	}
	agree(t, s, alpha, beta, a, lda, b, ldb, c, ldc, got, want)
	for i := range a {
		if a[i] != a0[i] {
			t.Fatalf("%v: A written", s)
		}
	}
	for i := range b {
		if b[i] != b0[i] {
			t.Fatalf("%v: B written", s)
		}
	}
	// Packed B gives the same result as the unpacked call.
	if _, ok := any(got).([]float64); ok {
		pb, err := PackB64(cfg, s.transB, s.k, s.n, any(b).([]float64), ldb)
		if err != nil {
			t.Fatal(err)
		}
		got2 := append([]float64(nil), any(c).([]float64)...)
		if err := Float64Packed(cfg, s.transA, s.m, s.n, s.k, float64(alpha), any(a).([]float64), lda, pb, float64(beta), got2, ldc); err != nil {
			t.Fatal(err)
		}
		agree(t, s, float64(alpha), float64(beta), any(a).([]float64), lda, any(b).([]float64), ldb, any(c).([]float64), ldc, got2, any(want).([]float64))
	}
	if _, ok := any(got).([]float32); ok {
		pb, err := PackB32(cfg, s.transB, s.k, s.n, any(b).([]float32), ldb)
		if err != nil {
			t.Fatal(err)
		}
		got2 := append([]float32(nil), any(c).([]float32)...)
		if err := Float32Packed(cfg, s.transA, s.m, s.n, s.k, float32(alpha), any(a).([]float32), lda, pb, float32(beta), got2, ldc); err != nil {
			t.Fatal(err)
		}
		agree(t, s, float32(alpha), float32(beta), any(a).([]float32), lda, any(b).([]float32), ldb, any(c).([]float32), ldc, got2, any(want).([]float32))
	}
}

// sizes covers 0, 1, primes, and the edges of every kernel's tiles.
var sizes = []int{0, 1, 2, 3, 5, 6, 7, 11, 12, 13, 15, 16, 17, 23, 24, 25, 31, 32, 33, 47, 48, 49, 63, 64, 65, 97}

func randShape(r *rand.Rand) shape {
	pick := func() int { return sizes[r.IntN(len(sizes))] }
	s := shape{m: pick(), n: pick(), k: pick(), transA: r.IntN(2) == 0, transB: r.IntN(2) == 0, pad: r.IntN(3)}
	switch r.IntN(8) {
	case 0:
		s.k = 250 + r.IntN(300) // more than one block of k
	case 1:
		s.n = 100 + r.IntN(700) // several panels, maybe blocks of n
	case 2:
		s.m = 100 + r.IntN(200) // blocks of rows (transA copies)
	}
	return s
}

func TestFloat32Random(t *testing.T) {
	withKernels(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(1, 2))
		n := 300
		if testing.Short() {
			n = 60
		}
		for range n {
			s := randShape(r)
			alpha := []float32{1, -0.5, 2}[r.IntN(3)]
			beta := []float32{0, 1, 0.25}[r.IntN(3)]
			checkShape(t, r, s, alpha, beta, 1+r.IntN(3))
		}
	})
}

func TestFloat64Random(t *testing.T) {
	withKernels(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(3, 4))
		n := 200
		if testing.Short() {
			n = 40
		}
		for range n {
			s := randShape(r)
			alpha := []float64{1, -0.5, 2}[r.IntN(3)]
			beta := []float64{0, 1, 0.25}[r.IntN(3)]
			checkShape(t, r, s, alpha, beta, 1+r.IntN(3))
		}
	})
}

func TestFloat32Large(t *testing.T) {
	if testing.Short() {
		t.Skip("large")
	}
	withKernels(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(5, 6))
		for _, s := range []shape{{m: 200, n: 1100, k: 600}, {m: 130, n: 70, k: 1030, transA: true, transB: true, pad: 1}, {m: 8, n: 515, k: 129}} {
			checkShape[float32](t, r, s, 1, 0.5, 2)
		}
	})
}

// TestBetaZeroNaN: with beta 0, NaN and Inf in C do not reach the result;
// NaN and Inf in A or B do, as in the plain kernel.
func TestBetaZeroNaN(t *testing.T) {
	withKernels(t, func(t *testing.T) {
		for _, s := range []shape{{m: 13, n: 35, k: 7}, {m: 3, n: 5, k: 300}} {
			a := make([]float32, s.m*s.k)
			b := make([]float32, s.k*s.n)
			for i := range a {
				a[i] = 1
			}
			for i := range b {
				b[i] = 1
			}
			c := make([]float32, s.m*s.n)
			for i := range c {
				c[i] = float32(math.NaN())
			}
			c[1] = float32(math.Inf(1))
			if err := Float32(Config{}, false, false, s.m, s.n, s.k, 1, a, s.k, b, s.n, 0, c, s.n); err != nil {
				t.Fatal(err)
			}
			for i, v := range c {
				if v != float32(s.k) {
					t.Fatalf("%v: C[%d] = %v, want %d", s, i, v, s.k)
				}
			}
			a[0] = float32(math.NaN())
			b[1] = float32(math.Inf(-1))
			if err := Float32(Config{}, false, false, s.m, s.n, s.k, 1, a, s.k, b, s.n, 1, c, s.n); err != nil {
				t.Fatal(err)
			}
			if !math.IsNaN(float64(c[0])) || !math.IsInf(float64(c[s.n+1]), -1) || c[s.n] != float32(2*s.k) {
				t.Fatalf("%v: C[0] = %v, C[1][1] = %v, C[1][0] = %v", s, c[0], c[s.n+1], c[s.n])
			}
		}
	})
}

func TestEmptyK(t *testing.T) {
	c := []float32{1, 2, 3, 4}
	if err := Float32(Config{}, false, false, 2, 2, 0, 1, nil, 0, nil, 2, 3, c, 2); err != nil {
		t.Fatal(err)
	}
	if c[0] != 3 || c[3] != 12 {
		t.Fatalf("C = %v", c)
	}
}

func TestCancelAndCharge(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	s := shape{m: 300, n: 300, k: 600}
	a, lda, b, ldb, c, ldc := operands[float32](r, s)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Float32(Config{Ctx: ctx}, false, false, s.m, s.n, s.k, 1, a, lda, b, ldb, 0, c, ldc); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
	refuse := errors.New("over budget")
	var asked int64
	charge := func(n int64) error { asked += n; return refuse }
	if err := Float32(Config{Charge: charge}, false, false, s.m, s.n, s.k, 1, a, lda, b, ldb, 0, c, ldc); !errors.Is(err, refuse) || asked == 0 {
		t.Fatalf("refused charge: %v (asked %d)", err, asked)
	}
	if _, err := PackB32(Config{Charge: charge}, false, s.k, s.n, b, ldb); !errors.Is(err, refuse) {
		t.Fatalf("PackB32 refused charge: %v", err)
	}
	// The charge covers the packing buffers of every worker.
	asked = 0
	ok := func(n int64) error { asked += n; return nil }
	if err := Float32(Config{Charge: ok, Threads: 2}, true, false, s.m, s.n, s.k, 1, a, s.m, b, ldb, 0, c, ldc); err != nil {
		t.Fatal(err)
	}
	if kc := int64(kcFor(s.k)); asked < 2*4*(kc*int64(s.n)/2+int64(mcBlock)*kc) {
		t.Fatalf("charged %d bytes", asked)
	}
	pb, err := PackB32(Config{Charge: ok}, false, s.k, s.n, b, ldb)
	if err != nil {
		t.Fatal(err)
	}
	if pb.Bytes() < int64(4*s.k*s.n) {
		t.Fatalf("packed bytes %d", pb.Bytes())
	}
	if err := Float32Packed(Config{}, false, s.m, s.n+1, s.k, 1, a, lda, pb, 0, c, ldc); !errors.Is(err, ErrShape) {
		t.Fatalf("packed mismatch: %v", err)
	}
}

// FuzzShapes: any sizes and strides give an error or a result, never a
// panic, and the result agrees with the plain kernel.
func FuzzShapes(f *testing.F) {
	f.Add(3, 4, 5, 5, 4, 4, 12, 20, 12, false, true)
	f.Add(0, 4, 5, 5, 4, 4, 0, 20, 0, true, false)
	f.Add(13, 33, 2, 2, 33, 33, 26, 66, 429, false, false)
	f.Fuzz(func(t *testing.T, m, n, k, lda, ldb, ldc, na, nb, nc int, transA, transB bool) {
		if na > 1<<16 || nb > 1<<16 || nc > 1<<16 || na < 0 || nb < 0 || nc < 0 {
			return
		}
		a, b, c := make([]float32, na), make([]float32, nb), make([]float32, nc)
		for i := range a {
			a[i] = float32(i%7) - 3
		}
		for i := range b {
			b[i] = float32(i%5) - 2
		}
		want := append([]float32(nil), c...)
		err := Float32(Config{}, transA, transB, m, n, k, 1, a, lda, b, ldb, 0, c, ldc)
		if err != nil {
			if !errors.Is(err, ErrShape) {
				t.Fatalf("error %v is not ErrShape", err)
			}
			return
		}
		if err := float32Plain(Config{}, transA, transB, m, n, k, 1, a, lda, b, ldb, 0, want, ldc); err != nil {
			t.Fatal(err)
		}
		for i := range c {
			if c[i] != want[i] { // small integers: exact
				t.Fatalf("C[%d] = %v, want %v", i, c[i], want[i])
			}
		}
	})
}

func TestIntegerRandom(t *testing.T) {
	withKernels(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(9, 10))
		n := 300
		if testing.Short() {
			n = 80
		}
		for it := range n {
			s := randShape(r)
			if it%10 == 0 {
				s.k = 1000 + r.IntN(1200) // blocks of k
			}
			if it%3 == 1 { // whole quads: an unsigned A is read in place
				s.k = (s.k + 3) &^ 3
			}
			lda, ldb, ldc := s.k+s.pad, s.n+s.pad, s.n+s.pad
			a := make([]byte, max(0, (s.m-1)*lda+s.k))
			b := make([]byte, max(0, (s.k-1)*ldb+s.n))
			for i := range a {
				a[i] = byte(r.IntN(256))
			}
			for i := range b {
				b[i] = byte(r.IntN(256))
			}
			if r.IntN(4) == 0 { // extremes: saturation would show here
				for i := range a {
					a[i] = []byte{0, 0x7f, 0x80, 0xff}[r.IntN(4)]
				}
				for i := range b {
					b[i] = []byte{0, 0x7f, 0x80, 0xff}[r.IntN(4)]
				}
			}
			aSigned, bSigned := r.IntN(2) == 0, r.IntN(2) == 0
			zero := func(n int) []int32 {
				switch r.IntN(3) {
				case 0:
					return nil
				case 1:
					return []int32{int32(r.IntN(256)) - 128}
				}
				z := make([]int32, n)
				for i := range z {
					z[i] = int32(r.IntN(256)) - 128
				}
				return z
			}
			aZero, bZero := zero(s.m), zero(s.n)
			c := make([]int32, max(0, (s.m-1)*ldc+s.n))
			for i := range c {
				c[i] = int32(r.Uint32())
			}
			want := append([]int32(nil), c...)
			cfg := Config{Threads: 1 + r.IntN(3)}
			if err := integerPlain(cfg, s.m, s.n, s.k, a, aSigned, lda, aZero, b, bSigned, ldb, bZero, want, ldc); err != nil {
				t.Fatal(err)
			}
			if err := Integer(cfg, s.m, s.n, s.k, a, aSigned, lda, aZero, b, bSigned, ldb, bZero, c, ldc); err != nil {
				t.Fatal(err)
			}
			for i := range c {
				if c[i] != want[i] {
					t.Fatalf("%v signed %v/%v zeros %d/%d: C[%d] = %d, want %d", s, aSigned, bSigned, len(aZero), len(bZero), i, c[i], want[i])
				}
			}
			pb, err := PackB8(cfg, s.k, s.n, b, bSigned, ldb)
			if err != nil {
				t.Fatal(err)
			}
			c2 := make([]int32, len(c))
			copy(c2, want)
			for i := range c2 { // padding as in c; the rest rewritten
				if i%ldc < s.n {
					c2[i] = int32(r.Uint32())
				}
			}
			if err := IntegerPacked(cfg, s.m, s.n, s.k, a, aSigned, lda, aZero, pb, bZero, c2, ldc); err != nil {
				t.Fatal(err)
			}
			for i := range c2 {
				if c2[i] != want[i] {
					t.Fatalf("packed %v signed %v/%v: C[%d] = %d, want %d", s, aSigned, bSigned, i, c2[i], want[i])
				}
			}
		}
	})
}
