package sonnxrule

// The constraints of the working group's specifications of Clip, Range,
// MatMul and BatchNormalization (onnx/working-groups,
// safety-related-profile/sonnx/ops/spec/informal/<op>/<op>.md) that the
// kernels of both engines check under the profile, and the profile's
// check before the model runs. Each id is the specification's own: the
// tensor or attribute it is stated on, then its number there.
const (
	// ClipMinScalar is Clip's L [C1]: "The shape of tensor L must be
	// empty" (a scalar, rank 0).
	ClipMinScalar = "L [C1]"
	// ClipMaxScalar is Clip's M [C1]: the same of M.
	ClipMaxScalar = "M [C1]"

	// RangeDelta is Range's D [C1]: "D != 0".
	RangeDelta = "D [C1]"

	// MatMulRankA is MatMul's A [C1]: "The number of spatial axes of
	// tensor A is 2" ([R1], transient).
	MatMulRankA = "A [C1]"
	// MatMulRankB is MatMul's B [C1]: the same of B.
	MatMulRankB = "B [C1]"
	// MatMulInner is MatMul's A [C2]: "dA_1 = dB_0".
	MatMulInner = "A [C2]"

	// BatchNormTraining is BatchNormalization's training_mode [C1]:
	// "training_mode shall be 0" ([R1]: only inference is specified).
	BatchNormTraining = "training_mode [C1]"
	// BatchNormEpsilon is BatchNormalization's epsilon [C1]: "epsilon > 0".
	BatchNormEpsilon = "epsilon [C1]"
	// BatchNormRank is BatchNormalization's X [C3] (float; X [C2] of the
	// real text): "X shall have rank rX >= 1".
	BatchNormRank = "X [C3]"
	// BatchNormParams is BatchNormalization's scale [C1], which B,
	// input_mean and input_var restate: "a 1-D tensor of size C = dX_1
	// (or size 1 when rX = 1)".
	BatchNormParams = "scale [C1]"
	// BatchNormVariance is BatchNormalization's input_var [C3] (float;
	// [C2] of the real text): "input_var[c] >= 0 for every c".
	BatchNormVariance = "input_var [C3]"
)
