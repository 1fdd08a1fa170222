package profile

// The geometry and signal operators and ImageDecoder: outside the
// profile, with their ONNX defaults and signatures.

func init() {
	outside := func(op string) {
		if operatorSet[op] {
			return
		}
		outsideOperators[op] = struct{ reason, fix string }{
			"it is not in the profile's list of operators",
			"keep " + op + " out of the part of the model that must meet the profile"}
	}
	grid := []defaultRule{attr("align_corners", "0"), attr("padding_mode", "zeros")}
	defaults["GridSample"] = join(
		versions([]int{16}, append([]defaultRule{attr("mode", "bilinear")}, grid...)...),
		versions([]int{20, 22}, append([]defaultRule{attr("mode", "linear")}, grid...)...))
	signatures["GridSample"] = []versionedSignature{sig(16, ins("T1", "T2"), "T1")}
	defaults["AffineGrid"] = versions([]int{20}, attr("align_corners", "0"))
	signatures["AffineGrid"] = []versionedSignature{sig(20, ins("T1", "T2"), "T1")}
	roi := []defaultRule{attr("mode", "avg"), attr("output_height", "1"), attr("output_width", "1"),
		attr("sampling_ratio", "0 (adaptive)"), attr("spatial_scale", "1.0")}
	defaults["RoiAlign"] = join(
		versions([]int{10}, roi...),
		versions([]int{16, 22}, append([]defaultRule{attr("coordinate_transformation_mode", "half_pixel")}, roi...)...))
	signatures["RoiAlign"] = []versionedSignature{sig(10, ins("T1", "T1", "T2"), "T1")}
	defaults["DFT"] = join(
		versions([]int{17}, attr("axis", "1"), attr("inverse", "0"), attr("onesided", "0"), input(1, "dft_length", "the axis' length")),
		versions([]int{20}, attr("inverse", "0"), attr("onesided", "0"), input(1, "dft_length", "the axis' length"), input(2, "axis", "-2")))
	signatures["DFT"] = []versionedSignature{sig(17, ins("T1", "T2"), "T1"), sig(20, ins("T1", "T2", "int64"), "T1")}
	defaults["STFT"] = versions([]int{17}, attr("onesided", "1"), input(2, "window", "a rectangular window"),
		input(3, "frame_length", "the window's length"))
	signatures["STFT"] = []versionedSignature{sig(17, ins("T1", "T2", "T1", "T2"), "T1")}
	defaults["MelWeightMatrix"] = versions([]int{17}, attr("output_datatype", "1 (float)"))
	signatures["MelWeightMatrix"] = []versionedSignature{sig(17, ins("T1", "T1", "T1", "T2", "T2"), "T3")}
	defaults["ImageDecoder"] = versions([]int{20}, attr("pixel_format", "RGB"))
	signatures["ImageDecoder"] = []versionedSignature{sig(20, ins("T1"), "T2")}
	for _, op := range []string{"GridSample", "AffineGrid", "RoiAlign", "DFT", "STFT", "MelWeightMatrix", "ImageDecoder"} {
		outside(op)
	}
}
