package profile

// The matrix products: their GR4 defaults, type signatures, and
// why those beside MatMul and Gemm are outside the profile's operator set.
// Kept in a file of their own, as the reductions are; init adds them.

func init() {
	gemm := []defaultRule{attr("alpha", "1.0"), attr("beta", "1.0"), attr("transA", "0"), attr("transB", "0")}
	defaults["MatMul"] = versions([]int{1, 9, 13})
	defaults["Gemm"] = join(
		versions([]int{1, 6}, append(append([]defaultRule{}, gemm...), attr("broadcast", "0 (C is (M, N))"))...),
		versions([]int{7, 9}, gemm...),
		versions([]int{11, 13}, append(append([]defaultRule{}, gemm...), input(2, "C", "a scalar 0"))...))
	defaults["MatMulInteger"] = versions([]int{10}, input(2, "a_zero_point", "0"), input(3, "b_zero_point", "0"))
	defaults["QLinearMatMul"] = versions([]int{10, 21})
	defaults["Einsum"] = versions([]int{12})
	defaults["Det"] = versions([]int{11, 22})

	signatures["MatMul"] = []versionedSignature{sig(1, ins("T", "T"), "T")}
	signatures["Gemm"] = []versionedSignature{sig(1, ins("T", "T", "T"), "T")}
	signatures["MatMulInteger"] = []versionedSignature{sig(10, ins("T1", "T2", "T1", "T2"), "int32")}
	signatures["QLinearMatMul"] = []versionedSignature{
		sig(10, ins("T1", "float", "T1", "T2", "float", "T2", "float", "T3"), "T3"),
		sig(21, ins("T1", "TS", "T1", "T2", "TS", "T2", "TS", "T3"), "T3"),
	}
	signatures["Einsum"] = []versionedSignature{{12, signature{In: ins("T"), Out: []string{"T"}, VariadicIn: true}}}
	signatures["Det"] = []versionedSignature{sig(11, ins("T"), "T")}
	for _, op := range []string{"MatMulInteger", "QLinearMatMul", "Einsum", "Det"} {
		outsideOperators[op] = struct{ reason, fix string }{
			"it is not in the profile's list of operators",
			"keep " + op + " out of the part of the model that must meet the profile"}
	}
}
