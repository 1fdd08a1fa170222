package profile

// The recurrent operators LSTM, GRU and RNN: their GR4
// defaults, type signatures, and why GRU and RNN are outside the profile's
// operator set (LSTM is in the working group's list). Kept in a file of
// their own, as reductions.go; init adds them.

func init() {
	common := []defaultRule{
		attr("activation_alpha", "the activations' own defaults"),
		attr("activation_beta", "the activations' own defaults"),
		attr("clip", "no clip"),
		attr("direction", "forward"),
		attr("hidden_size", "R's last axis"),
		input(3, "B", "0"),
		input(4, "sequence_lens", "seq_length for every batch entry"),
		input(5, "initial_h", "0"),
	}
	with := func(base []defaultRule, more ...defaultRule) []defaultRule {
		return append(append([]defaultRule{}, base...), more...)
	}
	v1 := attr("output_sequence", "0")
	layout := attr("layout", "0")

	lstm := with(common, attr("activations", "Sigmoid, Tanh, Tanh"), attr("input_forget", "0"),
		input(6, "initial_c", "0"), input(7, "P", "0"))
	defaults["LSTM"] = join(versions([]int{1}, with(lstm, v1)...), versions([]int{7}, lstm...),
		versions([]int{14, 22}, with(lstm, layout)...))

	gru := with(common, attr("activations", "Sigmoid, Tanh"))
	defaults["GRU"] = join(versions([]int{1}, with(gru, v1)...),
		versions([]int{3}, with(gru, v1, attr("linear_before_reset", "0"))...),
		versions([]int{7}, with(gru, attr("linear_before_reset", "0"))...),
		versions([]int{14, 22}, with(gru, attr("linear_before_reset", "0"), layout)...))

	rnn := with(common, attr("activations", "Tanh"))
	defaults["RNN"] = join(versions([]int{1}, with(rnn, v1)...), versions([]int{7}, rnn...),
		versions([]int{14, 22}, with(rnn, layout)...))

	signatures["LSTM"] = []versionedSignature{sig(1, ins("T", "T", "T", "T", "T1", "T", "T", "T"), "T", "T", "T")}
	for _, op := range []string{"GRU", "RNN"} {
		signatures[op] = []versionedSignature{sig(1, ins("T", "T", "T", "T", "T1", "T"), "T", "T")}
	}
	for _, op := range []string{"LSTM", "GRU", "RNN"} {
		if operatorSet[op] {
			continue // in the working group's list (LSTM)
		}
		outsideOperators[op] = struct{ reason, fix string }{
			"it is not in the profile's list of operators",
			"keep " + op + " out of the part of the model that must meet the profile"}
	}
}
