package profile

// The conversion, creation, indexing and sequence operators:
// outside the SONNX operator set, which names none of them, and described
// here for the checker's tables (defaults for GR4, signatures for GR3). Kept
// in a file of their own so that the operator families added side by side do
// not edit the same lines.

func init() {
	outside := func(op, fix string) {
		outsideOperators[op] = struct{ reason, fix string }{"SONNX leaves it out of the set", fix}
	}
	outside("Gather", "keep Gather out of the part of the model that must meet the profile, or replace a constant lookup by Slice and Concat")
	defaults["Gather"] = versions([]int{1, 11, 13}, attr("axis", "0"))
	signatures["Gather"] = []versionedSignature{sig(1, ins("T", "Tind"), "T")}

	outside("Cast", "convert the data before it enters the part of the model that must meet the profile")
	defaults["Cast"] = join(
		versions([]int{1, 6, 9, 13}),
		versions([]int{19, 21, 23}, attr("saturate", "1")),
		versions([]int{24, 25}, attr("saturate", "1"), attr("round_mode", "up")))
	signatures["Cast"] = []versionedSignature{sig(1, ins("T1"), "T2")}
	outside("CastLike", "convert the data before it enters the part of the model that must meet the profile")
	defaults["CastLike"] = join(
		versions([]int{15}),
		versions([]int{19, 21, 23}, attr("saturate", "1")),
		versions([]int{24, 25}, attr("saturate", "1"), attr("round_mode", "up")))
	signatures["CastLike"] = []versionedSignature{sig(15, ins("T1", "T2"), "T2")}

	outside("ConstantOfShape", "store the tensor as an initializer of the graph")
	defaults["ConstantOfShape"] = versions([]int{9, 20, 21, 23, 24, 25}, attr("value", "a float32 0"))
	signatures["ConstantOfShape"] = []versionedSignature{sig(9, ins("int64"), "T2")}
	defaults["Range"] = join(versions([]int{11}), versions([]int{27}, attr("stash_type", "1 (float)")))
	signatures["Range"] = []versionedSignature{sig(11, ins("T", "T", "T"), "T")}

	outside("GatherElements", "keep GatherElements out of the part of the model that must meet the profile")
	defaults["GatherElements"] = versions([]int{11, 13}, attr("axis", "0"))
	signatures["GatherElements"] = []versionedSignature{sig(11, ins("T", "Tind"), "T")}
	outside("GatherND", "keep GatherND out of the part of the model that must meet the profile")
	defaults["GatherND"] = join(versions([]int{11}), versions([]int{12, 13}, attr("batch_dims", "0")))
	signatures["GatherND"] = []versionedSignature{sig(11, ins("T", "int64"), "T")}
	outside("ScatterElements", "keep ScatterElements out of the part of the model that must meet the profile")
	defaults["ScatterElements"] = join(
		versions([]int{11, 13}, attr("axis", "0")),
		versions([]int{16, 18}, attr("axis", "0"), attr("reduction", "none")))
	signatures["ScatterElements"] = []versionedSignature{sig(11, ins("T", "Tind", "T"), "T")}
	outside("Scatter", "ONNX deprecated it for ScatterElements, which is outside the profile too")
	defaults["Scatter"] = versions([]int{9}, attr("axis", "0"))
	signatures["Scatter"] = []versionedSignature{sig(9, ins("T", "Tind", "T"), "T")}
	outside("ScatterND", "keep ScatterND out of the part of the model that must meet the profile")
	defaults["ScatterND"] = join(versions([]int{11, 13}), versions([]int{16, 18}, attr("reduction", "none")))
	signatures["ScatterND"] = []versionedSignature{sig(11, ins("T", "int64", "T"), "T")}

	outside("EyeLike", "store the matrix as an initializer of the graph")
	defaults["EyeLike"] = versions([]int{9, 22}, attr("dtype", "the input's type"), attr("k", "0"))
	signatures["EyeLike"] = []versionedSignature{sig(9, ins("T1"), "T2")}
	outside("Trilu", "store a mask as an initializer and apply it outside the profile's part, or keep Trilu out of it")
	defaults["Trilu"] = versions([]int{14}, attr("upper", "1"), input(1, "k", "0"))
	signatures["Trilu"] = []versionedSignature{sig(14, ins("T", "int64"), "T")}
	outside("NonZero", "its output shape depends on the data, which the profile's static shapes exclude")
	defaults["NonZero"] = versions([]int{9, 13})
	signatures["NonZero"] = []versionedSignature{sig(9, ins("T"), "int64")}
	outside("Compress", "its output shape depends on the data, which the profile's static shapes exclude")
	defaults["Compress"] = versions([]int{9, 11}, attr("axis", "the flattened input"))
	signatures["Compress"] = []versionedSignature{sig(9, ins("T", "T1"), "T")}
	outside("OneHot", "keep OneHot out of the part of the model that must meet the profile")
	defaults["OneHot"] = versions([]int{9, 11}, attr("axis", "-1"))
	signatures["OneHot"] = []versionedSignature{sig(9, ins("T1", "T2", "T3"), "T3")}
	outside("ReverseSequence", "keep ReverseSequence out of the part of the model that must meet the profile")
	defaults["ReverseSequence"] = versions([]int{10}, attr("batch_axis", "1"), attr("time_axis", "0"))
	signatures["ReverseSequence"] = []versionedSignature{sig(10, ins("T", "int64"), "T")}

	outside("Unique", "its output shape depends on the data, which the profile's static shapes exclude")
	defaults["Unique"] = versions([]int{11}, attr("sorted", "1"), attr("axis", "the flattened input"))
	signatures["Unique"] = []versionedSignature{{11, signature{In: ins("T"), Out: ins("T", "int64", "int64", "int64")}}}

	// Sequences and optionals: the profile's values are tensors.
	for _, op := range []string{"SequenceEmpty", "SequenceConstruct", "SequenceAt", "SequenceInsert", "SequenceErase",
		"SequenceLength", "SplitToSequence", "ConcatFromSequence"} {
		outside(op, "the profile's values are tensors: keep sequences out of the part of the model that must meet it")
	}
	for _, op := range []string{"Optional", "OptionalHasElement", "OptionalGetElement"} {
		outside(op, "the profile's values are tensors: keep optionals out of the part of the model that must meet it")
	}
	defaults["SequenceEmpty"] = versions([]int{11}, attr("dtype", "float"))
	signatures["SequenceEmpty"] = []versionedSignature{sig(11, nil, "S")}
	defaults["SequenceConstruct"] = versions([]int{11})
	signatures["SequenceConstruct"] = []versionedSignature{{11, signature{In: ins("T"), Out: ins("S"), VariadicIn: true}}}
	defaults["SequenceAt"] = versions([]int{11})
	signatures["SequenceAt"] = []versionedSignature{sig(11, ins("S", "I"), "T")}
	defaults["SequenceInsert"] = versions([]int{11}, input(2, "position", "the end of the sequence"))
	signatures["SequenceInsert"] = []versionedSignature{sig(11, ins("S", "T", "I"), "S")}
	defaults["SequenceErase"] = versions([]int{11}, input(1, "position", "-1, the last tensor"))
	signatures["SequenceErase"] = []versionedSignature{sig(11, ins("S", "I"), "S")}
	defaults["SequenceLength"] = versions([]int{11})
	signatures["SequenceLength"] = []versionedSignature{sig(11, ins("S"), "int64")}
	defaults["SplitToSequence"] = versions([]int{11}, attr("axis", "0"), attr("keepdims", "1"), input(1, "split", "pieces of length 1"))
	signatures["SplitToSequence"] = []versionedSignature{sig(11, ins("T", "I"), "S")}
	defaults["ConcatFromSequence"] = versions([]int{11}, attr("new_axis", "0"))
	signatures["ConcatFromSequence"] = []versionedSignature{sig(11, ins("S"), "T")}
	defaults["Optional"] = versions([]int{15})
	signatures["Optional"] = []versionedSignature{sig(15, ins("V"), "O")}
	defaults["OptionalHasElement"] = versions([]int{15, 18})
	signatures["OptionalHasElement"] = []versionedSignature{sig(15, ins("O"), "B")}
	defaults["OptionalGetElement"] = versions([]int{15, 18})
	signatures["OptionalGetElement"] = []versionedSignature{sig(15, ins("O"), "V")}

	outside("BitCast", "convert the data before it enters the part of the model that must meet the profile")
	defaults["BitCast"] = versions([]int{26})
	signatures["BitCast"] = []versionedSignature{sig(26, ins("T1"), "T2")}

	outside("TensorScatter", "keep the cache update out of the part of the model that must meet the profile")
	defaults["TensorScatter"] = versions([]int{24}, attr("axis", "-2"), attr("mode", "linear"), input(2, "write_indices", "0 for every batch entry"))
	signatures["TensorScatter"] = []versionedSignature{sig(24, ins("T", "T", "int64"), "T")}

	for _, op := range []string{"HannWindow", "HammingWindow", "BlackmanWindow"} {
		outside(op, "store the window as an initializer of the graph")
		defaults[op] = versions([]int{17}, attr("output_datatype", "1 (float)"), attr("periodic", "1"))
		signatures[op] = []versionedSignature{sig(17, ins("T1"), "T2")}
	}

	defaults["QuantizeLinear"] = join(
		versions([]int{10}, input(2, "y_zero_point", "0 of type uint8")),
		versions([]int{13}, attr("axis", "1"), input(2, "y_zero_point", "0 of type uint8")),
		versions([]int{19}, attr("axis", "1"), attr("saturate", "1"), input(2, "y_zero_point", "0 of type uint8")),
		versions([]int{21}, attr("axis", "1"), attr("saturate", "1"), attr("block_size", "0"), attr("output_dtype", "y_zero_point's type, else uint8"),
			input(2, "y_zero_point", "0 of output_dtype")),
		versions([]int{23, 24, 25}, attr("axis", "1"), attr("saturate", "1"), attr("block_size", "0"), attr("output_dtype", "y_zero_point's type, else uint8"),
			attr("precision", "x's type"), input(2, "y_zero_point", "0 of output_dtype")))
	signatures["QuantizeLinear"] = []versionedSignature{sig(10, ins("T1", "T2", "T3"), "T3")}
	defaults["DequantizeLinear"] = join(
		versions([]int{10}, input(2, "x_zero_point", "0")),
		versions([]int{13, 19}, attr("axis", "1"), input(2, "x_zero_point", "0")),
		versions([]int{21}, attr("axis", "1"), attr("block_size", "0"), input(2, "x_zero_point", "0")),
		versions([]int{23, 24, 25}, attr("axis", "1"), attr("block_size", "0"), attr("output_dtype", "x_scale's type"), input(2, "x_zero_point", "0")))
	signatures["DequantizeLinear"] = []versionedSignature{sig(10, ins("T1", "T2", "T1"), "T2")}

	outside("DynamicQuantizeLinear", "keep quantization out of the part of the model that must meet the profile")
	defaults["DynamicQuantizeLinear"] = versions([]int{11})
	signatures["DynamicQuantizeLinear"] = []versionedSignature{{11, signature{In: ins("float"), Out: ins("Q", "float", "Q")}}}

	outside("RegexFullMatch", "the profile's values are numbers: keep string processing out of the part that must meet it")
	defaults["RegexFullMatch"] = versions([]int{20})
	signatures["RegexFullMatch"] = []versionedSignature{sig(20, ins("T1"), "T2")}
	outside("StringSplit", "the profile's values are numbers: keep string processing out of the part that must meet it")
	defaults["StringSplit"] = versions([]int{20}, attr("delimiter", "runs of whitespace"), attr("maxsplit", "no limit"))
	signatures["StringSplit"] = []versionedSignature{{20, signature{In: ins("T1"), Out: ins("T2", "T3")}}}
	outside("StringNormalizer", "the profile's values are numbers: keep string processing out of the part that must meet it")
	defaults["StringNormalizer"] = versions([]int{10}, attr("case_change_action", "NONE"), attr("is_case_sensitive", "0"),
		attr("locale", "en_US"), attr("stopwords", "none"))
	signatures["StringNormalizer"] = []versionedSignature{sig(10, ins("T"), "T")}
	outside("StringConcat", "the profile's values are numbers: keep string processing out of the part that must meet it")
	defaults["StringConcat"] = versions([]int{20})
	signatures["StringConcat"] = []versionedSignature{sig(20, ins("T", "T"), "T")}
	outside("NonMaxSuppression", "its output shape depends on the data, which the profile's static shapes exclude")
	defaults["NonMaxSuppression"] = versions([]int{10, 11}, attr("center_point_box", "0"),
		input(2, "max_output_boxes_per_class", "0"), input(3, "iou_threshold", "0"), input(4, "score_threshold", "no threshold"))
	signatures["NonMaxSuppression"] = []versionedSignature{sig(10, ins("float", "float", "int64", "float", "float"), "int64")}
}
