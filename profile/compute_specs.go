package profile

import (
	"fmt"

	"github.com/onnxshape/onnxshape/internal/sonnxrule"
)

// The constraints of the working group's specifications of LeakyRelu,
// Clip, Max, Range, MatMul and BatchNormalization (specs gives their
// versions and types; onnx/working-groups, safety-related-profile/sonnx/
// ops/spec/informal/<op>/<op>.md). The kernels of both engines check them
// under the profile (ops/sonnx.go and the reference engine's
// operator files, with the ids of internal/sonnxrule); the check runs the
// fast kernel on what is known before the model runs and leaves the rest
// to run time. Constraints that ONNX itself states (shape and type
// consistency, broadcasting) are GR3's and the kernels' ONNX rules.
//
// Numerical stance: the specifications define MatMul's sum and
// BatchNormalization's affine map over the reals; the fast kernels compute
// them in another order and precision (within the bound reference.Agree
// states), so under the profile both engines run the reference engine's
// kernels of these two (graph.referenceUnderSONNX): one result, whatever
// the engine or the thread count. LeakyRelu, Clip, Max and Range give the
// same bits in both engines (one IEEE operation per element, or none).
//
// Not transcribed (undecided, SPEC): Gemm (a draft), LSTM (no version, no
// ids), Conv, and Neg (preliminary); see notTranscribed.

// computeRules are the rows of these operators, after the elementwise
// ones in Rules.
func computeRules() []Rule {
	types := func(op, what, extra string) Rule {
		s := specs[op]
		return rule(op, ruleTypes, fmt.Sprintf("%s %s (%s-%d's type list)%s", what, typeNames(s.Types), op, s.Version, extra),
			fmt.Sprintf("give %s tensors of one of the listed types", op), "profile.checkSpecTypes")
	}
	return []Rule{
		types("LeakyRelu", "X and Y are", "; the specification's \"version 14\" is the opset at which LeakyRelu resolves to LeakyRelu-6"),
		rule("LeakyRelu", "R1", "attribute alpha is set (no default value)", "write out alpha", "profile.checkDefaults"),

		types("Clip", "X, L (min), M (max) and Y are", "; one type (X [C2], ONNX's own: GR3)"),
		rule("Clip", sonnxrule.ClipMinScalar, "L (min) is a scalar: its shape is empty (rank 0, not a one-element tensor)",
			"give min as a tensor of empty shape []", "ops.clipSONNX"),
		rule("Clip", sonnxrule.ClipMaxScalar, "M (max) is a scalar: its shape is empty (rank 0, not a one-element tensor)",
			"give max as a tensor of empty shape []", "ops.clipSONNX"),

		types("Max", "X0 ... XL and Y are", "; X0 ... XL broadcast (X [C1], ONNX's own)"),

		types("Range", "S (start), L (limit), D (delta) and Y are", "; one type (GR3)"),
		rule("Range", "input", "S, L and D are scalars of empty shape (the specification's signature: \"scalar tensor\") whose count ceil((L-S)/D) is a number",
			"give start, limit and delta as tensors of empty shape [], with finite values", "ops.rangeOf"),
		rule("Range", sonnxrule.RangeDelta, "D != 0: a constant D is searched, one known at run time is undecided",
			"give a non-zero delta", "ops.rangeSONNX"),

		types("MatMul", "A, B and Y are", "; one type (GR3)"),
		rule("MatMul", sonnxrule.MatMulRankA, "A has 2 dimensions ([R1], transient: no 1-D operand, no batch axes)",
			"give A as a matrix (Reshape a batch or a vector to 2 dimensions first)", "ops.matMulSONNX"),
		rule("MatMul", sonnxrule.MatMulRankB, "B has 2 dimensions ([R1], transient)",
			"give B as a matrix (Reshape it to 2 dimensions first)", "ops.matMulSONNX"),
		rule("MatMul", sonnxrule.MatMulInner, "dA_1 = dB_0: A's columns are B's rows",
			"give B as many rows as A has columns", "ops.matMulSONNX"),

		types("BatchNormalization", "X, scale, B, input_mean, input_var and Y are",
			"; scale and B one type (scale [C2]), input_mean and input_var one type (input_mean [C2]): ONNX's T1 and T2, GR3"),
		rule("BatchNormalization", sonnxrule.BatchNormTraining, "training_mode is 0 ([R1]: only inference is specified; it is written out, GR4)",
			"write training_mode 0 and use the model for inference", "ops.batchNormSONNX"),
		rule("BatchNormalization", sonnxrule.BatchNormEpsilon, "epsilon > 0",
			"give epsilon a positive value (1e-5 is ONNX's default)", "ops.batchNormSONNX"),
		rule("BatchNormalization", sonnxrule.BatchNormRank, "X has rank >= 1",
			"give X at least one dimension", "ops.batchNormSONNX"),
		rule("BatchNormalization", sonnxrule.BatchNormParams, "scale, B, input_mean and input_var are 1-D tensors of C = dX_1 elements (1 for a 1-D X)",
			"give every parameter the shape [C]", "ops.batchNormSONNX"),
		rule("BatchNormalization", sonnxrule.BatchNormVariance, "input_var[c] >= 0 for every c (NaN is not): a constant input_var is searched, one known at run time is undecided",
			"give a non-negative variance for every channel", "ops.batchNormSONNX"),
	}
}
