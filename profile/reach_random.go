package profile

// The random generators and TfIdfVectorizer: outside the profile, with
// their ONNX defaults and signatures.

func init() {
	outside := func(op, fix string) {
		outsideOperators[op] = struct{ reason, fix string }{"SONNX leaves it out of the set", fix}
	}
	const random = "random values are undefined in the profile: generate them outside the part of the model that must meet it"
	for _, name := range []string{"RandomUniform", "RandomNormal"} {
		outside(name, random)
		signatures[name] = []versionedSignature{sig(1, ins(), "T"), sig(22, ins(), "T")}
	}
	defaults["RandomUniform"] = versions([]int{1, 22}, attr("dtype", "float"), attr("high", "1.0"), attr("low", "0.0"), attr("seed", "drawn by the runtime"))
	defaults["RandomNormal"] = versions([]int{1, 22}, attr("dtype", "float"), attr("mean", "0.0"), attr("scale", "1.0"), attr("seed", "drawn by the runtime"))
	for _, name := range []string{"RandomUniformLike", "RandomNormalLike"} {
		outside(name, random)
		signatures[name] = []versionedSignature{sig(1, ins("T1"), "T2"), sig(22, ins("T1"), "T2")}
	}
	defaults["RandomUniformLike"] = versions([]int{1, 22}, attr("dtype", "the input's type"), attr("high", "1.0"), attr("low", "0.0"), attr("seed", "drawn by the runtime"))
	defaults["RandomNormalLike"] = versions([]int{1, 22}, attr("dtype", "the input's type"), attr("mean", "0.0"), attr("scale", "1.0"), attr("seed", "drawn by the runtime"))
	outside("Bernoulli", random)
	defaults["Bernoulli"] = versions([]int{15, 22}, attr("dtype", "the input's type"), attr("seed", "drawn by the runtime"))
	signatures["Bernoulli"] = []versionedSignature{sig(15, ins("T1"), "T2"), sig(22, ins("T1"), "T2")}
	outside("TfIdfVectorizer", "the profile's values are numbers: keep text processing out of the part that must meet it")
	defaults["TfIdfVectorizer"] = versions([]int{9}, attr("max_gram_length", "required"), attr("max_skip_count", "required"),
		attr("min_gram_length", "required"), attr("mode", "required"), attr("weights", "none (1)"))
	signatures["TfIdfVectorizer"] = []versionedSignature{sig(9, ins("T"), "T1")}
}
