package hostile

import (
	"fmt"

	"google.golang.org/protobuf/proto"

	"github.com/onnxshape/onnxshape/onnx"
	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/tensor"
)

// operatorProbes are the probes of the operators the registry sweep draws
// last (quantization, normalization, recurrent, attention, signal,
// sequences, ai.onnx.ml): counts, heads, frames and trees an attacker sets
// through a few bytes of attributes or small inputs. Each model is built
// from initializers only (no input), so the command and the in-process
// tests run it the same way.
func operatorProbes() []Probe {
	var ps []Probe
	add := func(name string, opset int64, ml bool, nodes []*pb.NodeProto, inits []*pb.TensorProto, runs bool) {
		m := newModel(opset, nodes, inits, nil, "y")
		if ml {
			m.OpsetImport = append(m.OpsetImport, &pb.OperatorSetIdProto{Domain: proto.String("ai.onnx.ml"), Version: proto.Int64(5)})
		}
		b, err := onnx.EncodeModel(m)
		if err != nil {
			panic(fmt.Sprintf("probe %s: %v", name, err))
		}
		ps = append(ps, Probe{Name: name, Model: b, Runs: runs})
	}
	f32 := func(name string, dims []int64, v ...float32) *pb.TensorProto {
		return &pb.TensorProto{Name: proto.String(name), DataType: proto.Int32(int32(tensor.Float)), Dims: dims, FloatData: v}
	}
	s64 := func(name string, v int64) *pb.TensorProto {
		return &pb.TensorProto{Name: proto.String(name), DataType: proto.Int32(int32(tensor.Int64)), Int64Data: []int64{v}}
	}
	sf := func(name string, v float32) *pb.TensorProto {
		return &pb.TensorProto{Name: proto.String(name), DataType: proto.Int32(int32(tensor.Float)), FloatData: []float32{v}}
	}
	x111 := f32("x", []int64{1, 1, 1}, 1)

	// Signal.
	add("stft-frame-2^40", 17, false, []*pb.NodeProto{node("STFT", []string{"x", "step", "", "len"}, []string{"y"})},
		[]*pb.TensorProto{x111, s64("step", 1), s64("len", 1<<40)}, false)
	add("stft-step-0", 17, false, []*pb.NodeProto{node("STFT", []string{"x", "step", "", "len"}, []string{"y"})},
		[]*pb.TensorProto{x111, s64("step", 0), s64("len", 1)}, false)
	add("stft-step-negative", 17, false, []*pb.NodeProto{node("STFT", []string{"x", "step", "", "len"}, []string{"y"})},
		[]*pb.TensorProto{x111, s64("step", -1), s64("len", 1)}, false)
	add("dft-length-2^40", 20, false, []*pb.NodeProto{node("DFT", []string{"x", "n"}, []string{"y"})},
		[]*pb.TensorProto{x111, s64("n", 1<<40)}, false)
	add("dft-empty-batch-length-4", 20, false, []*pb.NodeProto{node("DFT", []string{"x", "n", "a"}, []string{"y"})},
		[]*pb.TensorProto{f32("x", []int64{1, 0, 0, 2}), s64("n", 4), s64("a", 1)}, true)
	add("hann-window-10^12", 17, false, []*pb.NodeProto{node("HannWindow", []string{"n"}, []string{"y"})},
		[]*pb.TensorProto{s64("n", 1000000000000)}, false)
	add("mel-weight-matrix-10^6-bins", 17, false, []*pb.NodeProto{node("MelWeightMatrix", []string{"m", "d", "r", "lo", "hi"}, []string{"y"})},
		[]*pb.TensorProto{s64("m", 1000000), s64("d", 2000000), s64("r", 16000), sf("lo", 0), sf("hi", 8000)}, false)
	add("mel-weight-matrix-rate-0", 17, false, []*pb.NodeProto{node("MelWeightMatrix", []string{"m", "d", "r", "lo", "hi"}, []string{"y"})},
		[]*pb.TensorProto{s64("m", 4), s64("d", 16), s64("r", 0), sf("lo", 0), sf("hi", 8000)}, false)

	// Recurrent: a sequence of 10^9 steps over an empty batch (no element
	// to hold, every step to walk), sequence_lens past the sequence, a
	// hidden size that W does not have.
	lstm := func(name string, xDims []int64, hidden int64, lens int64) {
		in := xDims[2]
		inits := []*pb.TensorProto{
			{Name: proto.String("x"), DataType: proto.Int32(int32(tensor.Float)), Dims: xDims, FloatData: make([]float32, xDims[0]*xDims[1]*xDims[2])},
			f32("w", []int64{1, 4, in}, make([]float32, 4*in)...), f32("r", []int64{1, 4, 1}, 0, 0, 0, 0)}
		inputs := []string{"x", "w", "r"}
		if lens != 0 {
			inits = append(inits, &pb.TensorProto{Name: proto.String("b"), DataType: proto.Int32(int32(tensor.Float)), Dims: []int64{1, 8}, FloatData: make([]float32, 8)},
				&pb.TensorProto{Name: proto.String("l"), DataType: proto.Int32(int32(tensor.Int32)), Dims: []int64{xDims[1]}, Int32Data: []int32{int32(lens)}})
			inputs = append(inputs, "b", "l")
		}
		add(name, 22, false, []*pb.NodeProto{node("LSTM", inputs, []string{"y"}, i64("hidden_size", hidden))}, inits, lens == 0 && hidden == 1)
	}
	lstm("lstm-10^9-steps-empty-batch", []int64{1000000000, 0, 1}, 1, 0)
	lstm("lstm-10^9-steps-no-input-feature", []int64{1000000000, 1, 0}, 1, 0)
	lstm("lstm-sequence-lens-10^9", []int64{1, 1, 1}, 1, 1000000000)
	lstm("lstm-hidden-2^40", []int64{1, 1, 1}, 1<<40, 0)
	gru := func(name string, hidden int64) {
		add(name, 22, false, []*pb.NodeProto{node("GRU", []string{"x", "w", "r"}, []string{"y"}, i64("hidden_size", hidden))},
			[]*pb.TensorProto{x111, f32("w", []int64{1, 3, 1}, 0, 0, 0), f32("r", []int64{1, 3, 1}, 0, 0, 0)}, false)
	}
	gru("gru-hidden-2^62", 1<<62)
	gru("gru-hidden-negative", -1)

	// Attention: heads by the billions, none, or not dividing the width.
	attention := func(name string, q, kv int64) {
		add(name, 23, false, []*pb.NodeProto{node("Attention", []string{"q", "k", "v"}, []string{"y"}, i64("q_num_heads", q), i64("kv_num_heads", kv))},
			[]*pb.TensorProto{f32("q", []int64{1, 1, 4}, 1, 2, 3, 4), f32("k", []int64{1, 1, 4}, 1, 2, 3, 4), f32("v", []int64{1, 1, 4}, 1, 2, 3, 4)}, false)
	}
	attention("attention-2^31-heads", 1<<31, 1<<31)
	attention("attention-kv-heads-0", 2, 0)
	attention("attention-heads-negative", -2, -2)
	attention("attention-q-heads-not-multiple-of-kv", 3, 2)
	add("rotary-embedding-heads-0", 23, false, []*pb.NodeProto{node("RotaryEmbedding", []string{"x", "c", "s", "p"}, []string{"y"}, i64("num_heads", 0))},
		[]*pb.TensorProto{f32("x", []int64{1, 1, 4}, 1, 2, 3, 4), f32("c", []int64{1, 2}, 1, 1), f32("s", []int64{1, 2}, 0, 0), {Name: proto.String("p"), DataType: proto.Int32(int32(tensor.Int64)), Dims: []int64{1, 1}, Int64Data: []int64{0}}}, false)
	add("rotary-embedding-position-2^62", 23, false, []*pb.NodeProto{node("RotaryEmbedding", []string{"x", "c", "s", "p"}, []string{"y"}, i64("num_heads", 2))},
		[]*pb.TensorProto{f32("x", []int64{1, 1, 4}, 1, 2, 3, 4), f32("c", []int64{1, 1}, 1), f32("s", []int64{1, 1}, 0), {Name: proto.String("p"), DataType: proto.Int32(int32(tensor.Int64)), Dims: []int64{1, 1}, Int64Data: []int64{1 << 62}}}, false)

	// Normalizations and quantization: a zero divisor, an axis or a block
	// far out.
	add("group-normalization-groups-0", 21, false, []*pb.NodeProto{node("GroupNormalization", []string{"x", "s", "b"}, []string{"y"}, i64("num_groups", 0))},
		[]*pb.TensorProto{f32("x", []int64{1, 2, 1}, 1, 2), f32("s", []int64{2}, 1, 1), f32("b", []int64{2}, 0, 0)}, false)
	add("group-normalization-groups-2^40", 21, false, []*pb.NodeProto{node("GroupNormalization", []string{"x", "s", "b"}, []string{"y"}, i64("num_groups", 1<<40))},
		[]*pb.TensorProto{f32("x", []int64{1, 2, 1}, 1, 2), f32("s", []int64{2}, 1, 1), f32("b", []int64{2}, 0, 0)}, false)
	add("layer-normalization-axis-2^40", 17, false, []*pb.NodeProto{node("LayerNormalization", []string{"x", "s"}, []string{"y"}, i64("axis", 1<<40))},
		[]*pb.TensorProto{x111, f32("s", []int64{1}, 1)}, false)
	add("quantize-block-size-negative", 21, false, []*pb.NodeProto{node("QuantizeLinear", []string{"x", "s"}, []string{"y"}, i64("block_size", -1), i64("axis", 0))},
		[]*pb.TensorProto{x111, f32("s", []int64{1, 1, 1}, 1)}, false)
	add("dequantize-axis-2^40", 21, false, []*pb.NodeProto{node("DequantizeLinear", []string{"q", "s"}, []string{"y"}, i64("axis", 1<<40))},
		[]*pb.TensorProto{{Name: proto.String("q"), DataType: proto.Int32(int32(tensor.Uint8)), Dims: []int64{2}, Int32Data: []int32{1, 2}}, f32("s", []int64{2}, 1, 1)}, false)
	add("col2im-image-10^12", 18, false, []*pb.NodeProto{node("Col2Im", []string{"x", "i", "b"}, []string{"y"})},
		[]*pb.TensorProto{x111, int64sTensor("i", 1000000, 1000000), int64sTensor("b", 1, 1)}, false)

	// Sequences: a chunk of 0 (an endless split), a position far out.
	add("split-to-sequence-chunk-0", 11, false, []*pb.NodeProto{node("SplitToSequence", []string{"x", "n"}, []string{"s"}), node("ConcatFromSequence", []string{"s"}, []string{"y"}, i64("axis", 0))},
		[]*pb.TensorProto{f32("x", []int64{4}, 1, 2, 3, 4), s64("n", 0)}, false)
	add("sequence-insert-position-2^62", 11, false, []*pb.NodeProto{node("SequenceConstruct", []string{"x"}, []string{"s"}), node("SequenceInsert", []string{"s", "x", "p"}, []string{"t"}),
		node("ConcatFromSequence", []string{"t"}, []string{"y"}, i64("axis", 0))},
		[]*pb.TensorProto{f32("x", []int64{1}, 1), s64("p", 1<<62)}, false)

	// ai.onnx.ml: a tree 10^5 nodes deep (legitimate: each row walks
	// it once), a tree whose branch loops, LabelEncoder keys announced by
	// the 2^40, ArrayFeatureExtractor at 2^62.
	const depth = 100000 // 10^6 works too (~2 s, 650 MiB: the protobuf decode of a 30 MB file alone is 350)
	feat, modes, vals, truen, falsen, ids, tids := make([]int64, depth+1), make([][]byte, depth+1), make([]float32, depth+1), make([]int64, depth+1), make([]int64, depth+1), make([]int64, depth+1), make([]int64, depth+1)
	for i := range depth + 1 {
		ids[i], modes[i], vals[i] = int64(i), []byte("BRANCH_LEQ"), 1
		truen[i], falsen[i] = int64(i+1), int64(i+1)
		if i == depth {
			modes[i], truen[i], falsen[i] = []byte("LEAF"), 0, 0
		}
	}
	treeNode := func(truen []int64) *pb.NodeProto {
		n := node("TreeEnsembleRegressor", []string{"x"}, []string{"y"},
			ints("nodes_treeids", tids...), ints("nodes_nodeids", ids...), ints("nodes_featureids", feat...),
			&pb.AttributeProto{Name: proto.String("nodes_modes"), Type: pb.AttributeProto_STRINGS.Enum(), Strings: modes},
			&pb.AttributeProto{Name: proto.String("nodes_values"), Type: pb.AttributeProto_FLOATS.Enum(), Floats: vals},
			ints("nodes_truenodeids", truen...), ints("nodes_falsenodeids", falsen...),
			i64("n_targets", 1), ints("target_treeids", 0), ints("target_nodeids", depth), ints("target_ids", 0),
			&pb.AttributeProto{Name: proto.String("target_weights"), Type: pb.AttributeProto_FLOATS.Enum(), Floats: []float32{1}})
		n.Domain = proto.String("ai.onnx.ml")
		return n
	}
	xml := f32("x", []int64{2, 1}, 0, 2)
	add("tree-ensemble-10^5-deep", 21, true, []*pb.NodeProto{treeNode(truen)}, []*pb.TensorProto{xml}, true)
	cyc := make([]int64, depth+1)
	copy(cyc, truen)
	cyc[depth-1] = 0 // the last branch leads back to the root
	add("tree-ensemble-cycle-10^5", 21, true, []*pb.NodeProto{treeNode(cyc)}, []*pb.TensorProto{xml}, false)
	le := node("LabelEncoder", []string{"x"}, []string{"y"},
		&pb.AttributeProto{Name: proto.String("keys_tensor"), Type: pb.AttributeProto_TENSOR.Enum(), T: &pb.TensorProto{DataType: proto.Int32(int32(tensor.Int64)), Dims: []int64{1 << 40}}},
		&pb.AttributeProto{Name: proto.String("values_tensor"), Type: pb.AttributeProto_TENSOR.Enum(), T: &pb.TensorProto{DataType: proto.Int32(int32(tensor.Int64)), Dims: []int64{1 << 40}}})
	le.Domain = proto.String("ai.onnx.ml")
	add("label-encoder-keys-2^40", 21, true, []*pb.NodeProto{le}, []*pb.TensorProto{int64sTensor("x", 1, 2)}, false)
	le2 := node("LabelEncoder", []string{"x"}, []string{"y"}, ints("keys_int64s", 1, 2, 3), ints("values_int64s", 1))
	le2.Domain = proto.String("ai.onnx.ml")
	add("label-encoder-keys-values-lengths-differ", 21, true, []*pb.NodeProto{le2}, []*pb.TensorProto{int64sTensor("x", 1, 2)}, false)
	afe := node("ArrayFeatureExtractor", []string{"x", "i"}, []string{"y"})
	afe.Domain = proto.String("ai.onnx.ml")
	add("array-feature-extractor-index-2^62", 21, true, []*pb.NodeProto{afe}, []*pb.TensorProto{f32("x", []int64{1, 2}, 1, 2), int64sTensor("i", 1<<62)}, false)
	return ps
}
