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
