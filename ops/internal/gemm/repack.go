package gemm

// Repack copies op(B) (k×n, the sizes p was packed with; B stored n×k when
// transB, row stride ldb) into p's panels in place of the matrix it held,
// allocating and charging nothing: a caller that multiplies by many
// matrices of one size in turn (the attention engine's tiles of keys and
// values, head after head) packs each into one buffer charged once.
func (p *PackedB32) Repack(cfg Config, transB bool, b []float32, ldb int) error {
	return repack(cfg, p.p, transB, b, ldb)
}

// Repack is PackedB32.Repack for float64.
func (p *PackedB64) Repack(cfg Config, transB bool, b []float64, ldb int) error {
	return repack(cfg, p.p, transB, b, ldb)
}

func repack[T float32 | float64](cfg Config, pb *packed[T], transB bool, b []T, ldb int) error {
	br, bc := pb.k, pb.n
	if transB {
		br, bc = pb.n, pb.k
	}
	if err := check("B", br, bc, ldb, len(b)); err != nil {
		return err
	}
	nr := pb.kn.nr
	panels := (pb.n + nr - 1) / nr
	kcb := kcFor(pb.k)
	for pc := 0; pc < pb.k; pc += kcb {
		if err := cfg.err(); err != nil {
			return err
		}
		packB(pb.data[pc*panels*nr:], &pb.kn, transB, b, ldb, pc, min(kcb, pb.k-pc), 0, pb.n)
	}
	return nil
}

// PackedBytes32 is the memory PackB32 takes for a k×n matrix: what a
// caller charges up front when it packs with Config.Charge nil.
func PackedBytes32(k, n int) int64 {
	nr := k32.nr
	return int64(k) * int64((n+nr-1)/nr*nr) * 4
}

// PackedBytes64 is PackedBytes32 for float64.
func PackedBytes64(k, n int) int64 {
	nr := k64.nr
	return int64(k) * int64((n+nr-1)/nr*nr) * 8
}
