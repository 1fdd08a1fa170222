package gemm

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestTransposedBits: Float32PackedAT gives the bits of Float32Finish
// (the usual tiles, A in place) on every shape: rows past and short of a
// panel, one to eight tiles of columns, one block of k and several (with
// a short last one), strides wider than the matrices, every finish, zeros
// of both signs, NaN and infinities in A and B, one core and two.
func TestTransposedBits(t *testing.T) {
	r := rand.New(rand.NewPCG(24, 49))
	shapes := [][3]int{
		{64, 49, 4608}, {512, 49, 300}, {96, 7, 1}, {70, 1, 3}, {33, 13, 257},
		{1, 5, 9}, {31, 49, 600}, {100, 56, 513}, {65, 8, 2}, {128, 22, 1030},
	}
	for range 20 {
		shapes = append(shapes, [3]int{1 + r.IntN(140), 1 + r.IntN(60), 1 + r.IntN(700)})
	}
	for _, sh := range shapes {
		m, n, k := sh[0], sh[1], sh[2]
		lda, ldb, ldc := k+r.IntN(3), n+r.IntN(3), n+r.IntN(3)
		a := randSlice[float32](r, m*lda)
		b := randSlice[float32](r, k*ldb)
		for _, s := range [][]float32{a, b} {
			for range 1 + len(s)/500 {
				switch r.IntN(4) {
				case 0:
					s[r.IntN(len(s))] = float32(math.NaN())
				case 1:
					s[r.IntN(len(s))] = float32(math.Inf(1 - 2*r.IntN(2)))
				default:
					s[r.IntN(len(s))] = float32(math.Copysign(0, float64(r.IntN(2)*2-1)))
				}
			}
		}
		pa, err := PackAT32(Config{}, m, k, a, lda)
		if err != nil {
			t.Fatal(err)
		}
		for _, threads := range []int{1, 2} {
			bias, clamp := randFinish(r, m)
			fin := Finish{Bias: bias, ColBias: randBias(r, n), Clamp: clamp}
			if r.IntN(3) == 0 {
				fin = Finish{}
			}
			want := make([]float32, m*ldc)
			got := make([]float32, m*ldc)
			for i := range got {
				got[i], want[i] = 7, 7 // the gaps between rows stay
			}
			cfg := Config{Threads: threads}
			if err := Float32Finish(cfg, m, n, k, a, lda, b, ldb, want, ldc, fin); err != nil {
				t.Fatal(err)
			}
			if err := Float32PackedAT(cfg, m, n, k, pa, b, ldb, got, ldc, fin); err != nil {
				t.Fatal(err)
			}
			if i := sameFloats(got, want); i >= 0 {
				t.Fatalf("%dx%dx%d (lda %d ldb %d ldc %d) threads %d: C[%d][%d] = %v (%#x), Float32Finish %v (%#x)",
					m, n, k, lda, ldb, ldc, threads, i/ldc, i%ldc, got[i], math.Float32bits(got[i]), want[i], math.Float32bits(want[i]))
			}
		}
	}
}

// TestTransposedErrors: shapes that do not fit, a packed A of another
// size, a short bias, and a budget that refuses the packing.
func TestTransposedErrors(t *testing.T) {
	a := make([]float32, 64*10)
	pa, err := PackAT32(Config{}, 64, 10, a, 10)
	if err != nil {
		t.Fatal(err)
	}
	b, c := make([]float32, 10*5), make([]float32, 64*5)
	for name, err := range map[string]error{
		"short A":    func() error { _, err := PackAT32(Config{}, 65, 10, a, 10); return err }(),
		"other m":    Float32PackedAT(Config{}, 63, 5, 10, pa, b, 5, c, 5, Finish{}),
		"short B":    Float32PackedAT(Config{}, 64, 5, 10, pa, b[:49], 5, c, 5, Finish{}),
		"short C":    Float32PackedAT(Config{}, 64, 5, 10, pa, b, 5, c[:319], 5, Finish{}),
		"short bias": Float32PackedAT(Config{}, 64, 5, 10, pa, b, 5, c, 5, Finish{Bias: make([]float32, 63)}),
	} {
		if !errors.Is(err, ErrShape) {
			t.Errorf("%s: %v, want ErrShape", name, err)
		}
	}
	refuse := errors.New("over budget")
	if _, err := PackAT32(Config{Charge: func(int64) error { return refuse }}, 64, 10, a, 10); !errors.Is(err, refuse) {
		t.Errorf("budget: %v", err)
	}
}

// TestTransposedPays: the 7x7 planes of ResNet-50's last stage take the
// transposed tiles, products with columns enough to fill the lanes not.
func TestTransposedPays(t *testing.T) {
	if !haveTransposed {
		t.Skip("no transposed kernel here")
	}
	for _, c := range []struct {
		m, n, k int
		want    bool
	}{
		{512, 49, 4608, true}, {2048, 49, 512, true}, {960, 49, 160, true},
		{512, 196, 1152, false}, {512, 32, 100, false}, {32, 49, 100, false}, {512, 16, 64, false},
	} {
		if got := TransposedPays(c.m, c.n, c.k); got != c.want {
			t.Errorf("TransposedPays(%d, %d, %d) = %v, want %v", c.m, c.n, c.k, got, c.want)
		}
	}
}

// TestTransposedCurrent: transposed_amd64.s is what asm/gen.go
// -transposed writes.
func TestTransposedCurrent(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the generator")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	out := filepath.Join(t.TempDir(), "transposed_amd64.s")
	cmd := exec.Command(goBin, "run", "./asm/gen.go", "-transposed", "-o", out)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go run ./asm/gen.go -transposed: %v\n%s", err, b)
	}
	want, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("transposed_amd64.s")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("transposed_amd64.s is stale: run go run ./asm/gen.go -transposed -o transposed_amd64.s in ops/internal/gemm")
	}
}
