package gemm

import (
	"math/rand/v2"
	"testing"
)

// A buffer repacked with a second matrix gives the products of that
// matrix, bit for bit those of a fresh pack, transposed or not.
func TestRepack(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	fill := func(n int) []float32 {
		v := make([]float32, n)
		for i := range v {
			v[i] = r.Float32()*2 - 1
		}
		return v
	}
	const m, k, n = 7, 300, 45
	a := fill(m * k)
	for _, transB := range []bool{false, true} {
		ldb := n
		if transB {
			ldb = k
		}
		b1, b2 := fill(k*n), fill(k*n)
		pb, err := PackB32(Config{}, transB, k, n, b1, ldb)
		if err != nil {
			t.Fatal(err)
		}
		if got := PackedBytes32(k, n); got != pb.Bytes() {
			t.Errorf("PackedBytes32 %d, packed %d", got, pb.Bytes())
		}
		if err := pb.Repack(Config{}, transB, b2, ldb); err != nil {
			t.Fatal(err)
		}
		fresh, _ := PackB32(Config{}, transB, k, n, b2, ldb)
		c1, c2 := make([]float32, m*n), make([]float32, m*n)
		if err := Float32Packed(Config{}, false, m, n, k, 1, a, k, pb, 0, c1, n); err != nil {
			t.Fatal(err)
		}
		if err := Float32Packed(Config{}, false, m, n, k, 1, a, k, fresh, 0, c2, n); err != nil {
			t.Fatal(err)
		}
		for i := range c1 {
			if c1[i] != c2[i] {
				t.Fatalf("transB %v: element %d repacked %v, fresh %v", transB, i, c1[i], c2[i])
			}
		}
		if err := pb.Repack(Config{}, transB, b2[:10], ldb); err == nil {
			t.Error("a short B was repacked")
		}
	}
	p64, _ := PackB64(Config{}, false, 3, 5, make([]float64, 15), 5)
	if err := p64.Repack(Config{}, false, make([]float64, 15), 5); err != nil || PackedBytes64(3, 5) != p64.Bytes() {
		t.Errorf("float64: %v, %d bytes, packed %d", err, PackedBytes64(3, 5), p64.Bytes())
	}
}
