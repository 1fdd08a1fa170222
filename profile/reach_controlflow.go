package profile

// The control-flow operators (If, Loop, Scan, SequenceMap): outside the SONNX operator set,
// which names none of them, and described here for the checker's tables
// (defaults for GR4, signatures for GR3; their loop-carried values and
// outputs take any type each, so only the fixed inputs are typed).

func init() {
	outside := func(op, fix string) {
		outsideOperators[op] = struct{ reason, fix string }{"SONNX leaves it out of the set", fix}
	}
	all := []int{1, 11, 13, 16, 19, 21, 23, 24, 25}
	for _, op := range []string{"If", "Loop", "Scan", "SequenceMap"} {
		outside(op, "keep control flow out of the part of the model that must meet the profile")
	}
	defaults["If"] = versions(all)
	signatures["If"] = []versionedSignature{sig(1, ins("B"))}
	defaults["Loop"] = versions(all, input(0, "M", "no trip count: run while cond holds"), input(1, "cond", "true"))
	signatures["Loop"] = []versionedSignature{sig(1, ins("int64", "B"))}
	defaults["Scan"] = join(
		versions([]int{8}, input(0, "sequence_lens", "the whole sequence of every batch item"), attr("directions", "all forward (0)")),
		versions([]int{9, 11, 16, 19, 21, 23, 24, 25}, attr("scan_input_axes", "all 0"), attr("scan_input_directions", "all forward (0)"),
			attr("scan_output_axes", "all 0"), attr("scan_output_directions", "all forward (0)")))
	signatures["Scan"] = []versionedSignature{sig(8, ins("int64")), sig(9, nil)}
	defaults["SequenceMap"] = versions([]int{17})
	signatures["SequenceMap"] = []versionedSignature{sig(17, nil)}
}
