package profile

// The normalization operators: their GR4 defaults and type
// signatures, from the ONNX schemas, and why those other than
// BatchNormalization are outside the profile's operator set. init adds
// them to the tables.

func init() {
	bn := []defaultRule{attr("epsilon", "1e-5"), attr("momentum", "0.9")}
	with := func(base []defaultRule, more ...defaultRule) []defaultRule {
		return append(append([]defaultRule{}, base...), more...)
	}
	for name, v := range map[string][]opVersion{
		"BatchNormalization": join(
			versions([]int{1, 6}, with(bn, attr("is_test", "0 (training mode)"), attr("spatial", "1 (per channel)"))...),
			versions([]int{7}, with(bn, attr("spatial", "1 (per channel)"))...),
			versions([]int{9}, bn...),
			versions([]int{14, 15}, with(bn, attr("training_mode", "0 (inference)"))...)),
		"InstanceNormalization": versions([]int{1, 6, 22}, attr("epsilon", "1e-5")),
		"LayerNormalization": versions([]int{17}, attr("axis", "-1"), attr("epsilon", "1e-5"), attr("stash_type", "1 (float)"),
			input(2, "B", "no bias")),
		"GroupNormalization": join(
			versions([]int{18}, attr("epsilon", "1e-5")),
			versions([]int{21}, attr("epsilon", "1e-5"), attr("stash_type", "1 (float)"))),
		"RMSNormalization":          versions([]int{23}, attr("axis", "-1"), attr("epsilon", "1e-5"), attr("stash_type", "1 (float)")),
		"LpNormalization":           versions([]int{1, 22}, attr("axis", "-1"), attr("p", "2")),
		"MeanVarianceNormalization": versions([]int{9, 13}, attr("axes", "[0, 2, 3]")),
		"LRN":                       versions([]int{1, 13}, attr("alpha", "0.0001"), attr("beta", "0.75"), attr("bias", "1.0")),
	} {
		defaults[name] = v
	}
	signatures["BatchNormalization"] = []versionedSignature{
		sig(1, ins("T", "T", "T", "T", "T"), "T", "T", "T", "T", "T"),
		sig(14, ins("T", "T", "T", "U", "U"), "T", "U", "U"),
		sig(15, ins("T", "T1", "T1", "T2", "T2"), "T", "T2", "T2"),
	}
	signatures["InstanceNormalization"] = []versionedSignature{sig(1, ins("T", "T", "T"), "T")}
	signatures["LayerNormalization"] = []versionedSignature{sig(17, ins("T", "T", "T"), "T", "U", "U")}
	signatures["GroupNormalization"] = []versionedSignature{sig(18, ins("T", "T", "T"), "T")}
	signatures["RMSNormalization"] = []versionedSignature{sig(23, ins("T", "V"), "V")}
	for _, op := range []string{"LpNormalization", "MeanVarianceNormalization", "LRN"} {
		signatures[op] = []versionedSignature{sig(1, ins("T"), "T")}
	}
	for _, op := range []string{"InstanceNormalization", "LayerNormalization", "GroupNormalization", "RMSNormalization",
		"LpNormalization", "MeanVarianceNormalization", "LRN"} {
		if operatorSet[op] {
			continue
		}
		outsideOperators[op] = struct{ reason, fix string }{
			"it is not in the profile's list of operators",
			"keep " + op + " out of the part of the model that must meet the profile"}
	}
}
