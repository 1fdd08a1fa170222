package profile

// The attention family and the losses: their GR4 defaults and
// type signatures, from the ONNX schemas. None is in the profile's
// operator set, so each is outside it.

func init() {
	attention := []defaultRule{attr("is_causal", "0"), attr("qk_matmul_output_mode", "0"),
		attr("scale", "1/sqrt(head size)"), attr("softcap", "0 (none)"),
		attr("softmax_precision", "the type of Q"), attr("q_num_heads", "none (4-D inputs carry the heads)"),
		attr("kv_num_heads", "none (4-D inputs carry the heads)"),
		input(3, "attn_mask", "no mask"), input(4, "past_key", "no past"), input(5, "past_value", "no past")}
	loss := []defaultRule{attr("reduction", "mean"), input(2, "weights", "every class weighs 1")}
	for name, v := range map[string][]opVersion{
		"Attention": join(
			versions([]int{23}, attention...),
			versions([]int{24}, append(append([]defaultRule{}, attention...), input(6, "nonpad_kv_seqlen", "every key counts"))...)),
		"RotaryEmbedding":           versions([]int{23}, attr("interleaved", "0"), attr("rotary_embedding_dim", "0 (the whole head)"), attr("num_heads", "0 (a 4-D input carries the heads)"), input(3, "position_ids", "positions 0, 1, ...")),
		"NegativeLogLikelihoodLoss": versions([]int{12, 13, 22}, loss...),
		"SoftmaxCrossEntropyLoss":   versions([]int{12, 13}, loss...),
		"LinearAttention": versions([]int{27}, attr("update_rule", "gated_delta"), attr("scale", "1/sqrt(d_k)"),
			attr("chunk_size", "a tuning hint, no effect on the result"), attr("q_num_heads", "none: required"), attr("kv_num_heads", "none: required"), input(3, "past_state", "a zero state"),
			input(4, "decay", "none (linear and delta rules)"), input(5, "beta", "none (linear and gated rules)")),
		"CausalConvWithState": versions([]int{27}, attr("activation", "none"), input(2, "bias", "no bias"),
			input(3, "past_state", "zeros")),
	} {
		defaults[name] = v
	}
	signatures["Attention"] = []versionedSignature{
		sig(23, ins("T1", "T1", "T2", "U", "T1", "T2"), "T1", "T1", "T2", "T1"),
		sig(24, ins("T1", "T1", "T2", "U", "T1", "T2", "int64"), "T1", "T1", "T2", "T1"),
	}
	signatures["RotaryEmbedding"] = []versionedSignature{sig(23, ins("T", "T", "T", "M"), "T")}
	signatures["NegativeLogLikelihoodLoss"] = []versionedSignature{sig(12, ins("T", "Tind", "T"), "T")}
	signatures["SoftmaxCrossEntropyLoss"] = []versionedSignature{sig(12, ins("T", "Tind", "T"), "T", "T")}
	signatures["LinearAttention"] = []versionedSignature{sig(27, ins("T", "T", "T", "S", "T", "T"), "T", "S")}
	signatures["CausalConvWithState"] = []versionedSignature{sig(27, ins("T", "T", "T", "T"), "T", "T")}
	for _, op := range []string{"Attention", "RotaryEmbedding", "NegativeLogLikelihoodLoss", "SoftmaxCrossEntropyLoss", "LinearAttention", "CausalConvWithState"} {
		if operatorSet[op] {
			continue
		}
		outsideOperators[op] = struct{ reason, fix string }{
			"it is not in the profile's list of operators",
			"keep " + op + " out of the part of the model that must meet the profile"}
	}
}
