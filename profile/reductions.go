package profile

// The reductions, the softmax family, ArgMax/ArgMin, CumSum, CumProd, TopK
// and the pooling operators beside MaxPool: their GR4 defaults, type
// signatures, and why they are outside the profile's operator set. Kept in
// a file of their own so that the tables of the profile's operators stay as
// they are; init adds them.

func init() {
	for name, v := range reductionDefaults() {
		defaults[name] = v
	}
	for _, op := range []string{"ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL1", "ReduceL2",
		"ReduceLogSum", "ReduceLogSumExp", "ReduceSumSquare"} {
		signatures[op] = []versionedSignature{sig(1, ins("T"), "T"), sig(18, ins("T", "int64"), "T")}
	}
	signatures["ReduceSum"] = []versionedSignature{sig(1, ins("T"), "T"), sig(13, ins("T", "int64"), "T")}
	for _, op := range []string{"ArgMax", "ArgMin"} {
		signatures[op] = []versionedSignature{sig(1, ins("T"), "int64")}
	}
	for _, op := range []string{"Softmax", "LogSoftmax", "Hardmax", "AveragePool", "GlobalAveragePool",
		"GlobalMaxPool", "LpPool", "GlobalLpPool"} {
		signatures[op] = []versionedSignature{sig(1, ins("T"), "T")}
	}
	signatures["CumSum"] = []versionedSignature{sig(11, ins("T", "T2"), "T")}
	signatures["CumProd"] = []versionedSignature{sig(26, ins("T", "T2"), "T")}
	signatures["TopK"] = []versionedSignature{sig(1, ins("T"), "T", "int64"), sig(10, ins("T", "int64"), "T", "int64")}
	// Dropout (inference) rides along here: an identity with a mask.
	signatures["Dropout"] = []versionedSignature{sig(1, ins("T"), "T", "T"), sig(10, ins("T"), "T", "T1"), sig(12, ins("T", "T1", "T2"), "T", "T2")}
	defaults["Dropout"] = join(
		versions([]int{1, 6}, attr("is_test", "0 (training mode)"), attr("ratio", "0.5")),
		versions([]int{7, 10}, attr("ratio", "0.5")),
		versions([]int{12, 13, 22}, input(1, "ratio", "0.5"), input(2, "training_mode", "false")))
	for _, op := range []string{"ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL1",
		"ReduceL2", "ReduceLogSum", "ReduceLogSumExp", "ReduceSumSquare", "ArgMax", "ArgMin", "Softmax",
		"LogSoftmax", "Hardmax", "CumSum", "CumProd", "TopK", "AveragePool", "GlobalAveragePool", "GlobalMaxPool",
		"LpPool", "GlobalLpPool", "Dropout"} {
		if operatorSet[op] {
			continue // in the working group's list (ArgMax, Softmax)
		}
		outsideOperators[op] = struct{ reason, fix string }{
			"it is not in the profile's list of operators",
			"keep " + op + " out of the part of the model that must meet the profile"}
	}
}

func reductionDefaults() map[string][]opVersion {
	reduceAttr := []defaultRule{attr("axes", "every axis"), attr("keepdims", "1")}
	reduceInput := []defaultRule{
		input(1, "axes", "every axis, or none with noop_with_empty_axes"),
		attr("keepdims", "1"),
		attr("noop_with_empty_axes", "0"),
	}
	poolGeometry := []defaultRule{
		attr("auto_pad", "NOTSET"),
		attr("pads", "0 at the beginning and the end of each spatial axis"),
		attr("strides", "1 along each spatial axis"),
	}
	with := func(base []defaultRule, more ...defaultRule) []defaultRule {
		return append(append([]defaultRule{}, base...), more...)
	}
	avg7 := with(poolGeometry, attr("count_include_pad", "0"))
	avg10 := with(avg7, attr("ceil_mode", "0"))
	lp2 := with(poolGeometry, attr("p", "2"))
	m := map[string][]opVersion{
		"ReduceSum": join(versions([]int{1, 11}, reduceAttr...), versions([]int{13}, reduceInput...)),
		"ReduceMax": join(versions([]int{1, 11, 12, 13}, reduceAttr...), versions([]int{18, 20}, reduceInput...)),
		"ReduceMin": join(versions([]int{1, 11, 12, 13}, reduceAttr...), versions([]int{18, 20}, reduceInput...)),
		"ArgMax": join(versions([]int{1, 11}, attr("axis", "0"), attr("keepdims", "1")),
			versions([]int{12, 13}, attr("axis", "0"), attr("keepdims", "1"), attr("select_last_index", "0"))),
		"CumSum":  versions([]int{11, 14}, attr("exclusive", "0"), attr("reverse", "0")),
		"CumProd": versions([]int{26}, attr("exclusive", "0"), attr("reverse", "0")),
		"TopK": join(versions([]int{1, 10}, attr("axis", "-1")),
			versions([]int{11, 24}, attr("axis", "-1"), attr("largest", "1"), attr("sorted", "1"))),
		"AveragePool": join(versions([]int{1}, poolGeometry...), versions([]int{7}, avg7...),
			versions([]int{10, 11}, avg10...), versions([]int{19, 22}, with(avg10, attr("dilations", "1 along each spatial axis"))...)),
		"GlobalAveragePool": versions([]int{1, 22}),
		"GlobalMaxPool":     versions([]int{1, 22}),
		"LpPool": join(versions([]int{1}, with(poolGeometry, attr("p", "2.0"))...), versions([]int{2, 11}, lp2...),
			versions([]int{18, 22}, with(lp2, attr("ceil_mode", "0"), attr("dilations", "1 along each spatial axis"))...)),
		"GlobalLpPool": join(versions([]int{1}, attr("p", "2.0")), versions([]int{2, 22}, attr("p", "2"))),
	}
	for _, op := range []string{"ReduceMean", "ReduceProd", "ReduceL1", "ReduceL2", "ReduceLogSum",
		"ReduceLogSumExp", "ReduceSumSquare"} {
		m[op] = join(versions([]int{1, 11, 13}, reduceAttr...), versions([]int{18}, reduceInput...))
	}
	m["ArgMin"] = m["ArgMax"]
	for _, op := range []string{"Softmax", "LogSoftmax", "Hardmax"} {
		m[op] = join(versions([]int{1, 11}, attr("axis", "1")), versions([]int{13}, attr("axis", "-1")))
	}
	return m
}
