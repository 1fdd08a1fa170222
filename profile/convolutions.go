package profile

// The convolutions: their GR4 defaults and type signatures, and
// why those beside Conv and ConvInteger (which are in the working group's
// list) are outside the profile's operator set. Kept in a file of their own,
// as reductions.go; init adds them.

func init() {
	geometry := []defaultRule{
		attr("auto_pad", "NOTSET"),
		attr("dilations", "1 along each spatial axis"),
		attr("group", "1"),
		attr("kernel_shape", "W's spatial shape"),
		attr("pads", "0 at the beginning and the end of each spatial axis"),
		attr("strides", "1 along each spatial axis"),
	}
	with := func(base []defaultRule, more ...defaultRule) []defaultRule {
		return append(append([]defaultRule{}, base...), more...)
	}
	defaults["Conv"] = versions([]int{1, 11, 22}, geometry...)
	defaults["ConvTranspose"] = versions([]int{1, 11, 22}, with(geometry, attr("output_padding", "0 along each spatial axis"))...)
	defaults["ConvInteger"] = versions([]int{10}, with(geometry, input(2, "x_zero_point", "0"), input(3, "w_zero_point", "0"))...)
	defaults["QLinearConv"] = versions([]int{10}, geometry...)
	defaults["DeformConv"] = versions([]int{19, 22}, with(geometry[1:], attr("offset_group", "1"))...)
	defaults["Col2Im"] = versions([]int{18},
		attr("dilations", "1 along each spatial axis"),
		attr("pads", "0 at the beginning and the end of each spatial axis"),
		attr("strides", "1 along each spatial axis"))

	signatures["Conv"] = []versionedSignature{sig(1, ins("T", "T", "T"), "T")}
	signatures["ConvTranspose"] = []versionedSignature{sig(1, ins("T", "T", "T"), "T")}
	signatures["ConvInteger"] = []versionedSignature{sig(10, ins("T1", "T2", "T1", "T2"), "T3")}
	signatures["QLinearConv"] = []versionedSignature{sig(10, ins("T1", "float", "T1", "T2", "float", "T2", "float", "T3", "T4"), "T3")}
	signatures["DeformConv"] = []versionedSignature{sig(19, ins("T", "T", "T", "T", "T"), "T")}
	signatures["Col2Im"] = []versionedSignature{sig(18, ins("T", "int64", "int64"), "T")}

	for _, op := range []string{"ConvTranspose", "QLinearConv", "DeformConv", "Col2Im"} {
		outsideOperators[op] = struct{ reason, fix string }{
			"it is not in the profile's list of operators",
			"keep " + op + " out of the part of the model that must meet the profile"}
	}
}
