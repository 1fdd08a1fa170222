// LANE_TREE adds the sixteen partial sums of a row, lanes 0-7 in Y0 and
// 8-15 in Y1, by halves in the order of lanes.go (p[j] + p[j+8], then +4,
// +2, +1; each addition p[j] + p[j+h], the operands in the reference's
// order), leaving the sum in the low lane of X0; X1 is scratch.
#define LANE_TREE \
	VADDPS       Y1, Y0, Y0 \
	VEXTRACTF128 $1, Y0, X1 \
	VADDPS       X1, X0, X0 \
	VMOVHLPS     X0, X0, X1 \
	VADDPS       X1, X0, X0 \
	VMOVSHDUP    X0, X1 \
	VADDSS       X1, X0, X0

// TAIL_MASK_512 sets K1 (and BX) to the lanes of the tail of a row of R8
// elements, the low R8%16 bits; BX is 0 when the row has no tail. CX is
// scratch.
#define TAIL_MASK_512 \
	MOVQ  R8, CX \
	ANDQ  $15, CX \
	MOVL  $1, BX \
	SHLL  CX, BX \
	DECL  BX \
	KMOVW BX, K1

// TAIL_MASKS_256(LO, HI) loads the VMASKMOVPS masks of the tail of a row
// of R8 elements for lanes 0-7 (LO) and 8-15 (HI) from the table at AX
// (sixteen all-ones int32, then sixteen zeros), and leaves the tail's
// length, R8%16, in CX. BX is scratch.
#define TAIL_MASKS_256(LO, HI) \
	MOVQ    R8, CX \
	ANDQ    $15, CX \
	MOVQ    $16, BX \
	SUBQ    CX, BX \
	VMOVDQU (AX)(BX*4), LO \
	VMOVDQU 32(AX)(BX*4), HI
