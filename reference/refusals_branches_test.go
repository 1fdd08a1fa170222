package reference_test

// Refusal branches that neither the mutations (mutations_test.go) nor the
// other tables reach: Split's argument rules, SwiGLU's operands, the
// attention variants' inputs, the quantizers' output_dtype, the random
// generators' attributes, Resize's inputs, and the tree ensembles of the
// ai.onnx.ml domain. One row per branch, asserting the rule and the whole
// message, in any domain.

import (
	"errors"
	"math"
	"testing"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/reference"
	"github.com/onnxshape/onnxshape/tensor"
)

const mlDomainName = "ai.onnx.ml"

var errTestBody = errors.New("the body fails")

// callRefIn runs the reference kernel of domain's op-ver on in.
func callRefIn(t *testing.T, opt *ops.Options, domain, op string, ver int, attrs map[string]ops.Attribute, outs int, in ...tensor.Value) ([]tensor.Value, error) {
	t.Helper()
	k, ok := reference.Kernel(domain, op, ver)
	if !ok {
		t.Fatalf("no reference kernel for %s %s-%d", domain, op, ver)
	}
	if opt == nil {
		opt = ops.NewOptions()
	}
	return k(opt, &ops.Node{OpType: op, Domain: domain, Version: ver, Attrs: attrs, NumOutputs: outs}, in)
}

func tensorAttr(x *tensor.Tensor) ops.Attribute {
	return ops.Attribute{Type: ops.AttrTensor, Tensor: x}
}

// oneTree is TreeEnsemble-5's attributes for one split of feature 0 at 0.5
// into two leaves voting 1 and 2 for target 0, changed by the pairs of kv.
func oneTree(kv ...any) map[string]ops.Attribute {
	a := map[string]ops.Attribute{
		"leaf_targetids":     ints(0, 0),
		"leaf_weights":       tensorAttr(tensor.MustFromSlice([]float32{1, 2}, 2)),
		"nodes_falseleafs":   ints(1),
		"nodes_falsenodeids": ints(1),
		"nodes_featureids":   ints(0),
		"nodes_modes":        tensorAttr(tensor.MustFromSlice([]uint8{0}, 1)),
		"nodes_splits":       tensorAttr(tensor.MustFromSlice([]float32{0.5}, 1)),
		"nodes_trueleafs":    ints(1),
		"nodes_truenodeids":  ints(0),
		"tree_roots":         ints(0),
		"n_targets":          one(1),
	}
	for i := 0; i < len(kv); i += 2 {
		if kv[i+1] == nil {
			delete(a, kv[i].(string))
			continue
		}
		a[kv[i].(string)] = kv[i+1].(ops.Attribute)
	}
	return a
}

// oneOldTree is the same tree in TreeEnsembleRegressor's node lists.
func oneOldTree(kv ...any) map[string]ops.Attribute {
	a := map[string]ops.Attribute{
		"nodes_treeids":      ints(0, 0, 0),
		"nodes_nodeids":      ints(0, 1, 2),
		"nodes_featureids":   ints(0, 0, 0),
		"nodes_modes":        attrStrs("BRANCH_LEQ", "LEAF", "LEAF"),
		"nodes_values":       attrFloats(0.5, 0, 0),
		"nodes_truenodeids":  ints(1, 0, 0),
		"nodes_falsenodeids": ints(2, 0, 0),
		"target_ids":         ints(0, 0),
		"target_nodeids":     ints(1, 2),
		"target_treeids":     ints(0, 0),
		"target_weights":     attrFloats(1, 2),
		"n_targets":          one(1),
	}
	for i := 0; i < len(kv); i += 2 {
		a[kv[i].(string)] = kv[i+1].(ops.Attribute)
	}
	return a
}

func TestReferenceBranchRefusals(t *testing.T) {
	x2 := func() *tensor.Tensor { return f32(1, 2) }
	qkv := func() *tensor.Tensor { return tensor.MustNew(tensor.Float, 1, 2, 4) }
	q4 := func() *tensor.Tensor { return tensor.MustNew(tensor.Float, 1, 1, 2, 4) }
	a := func(kv ...any) map[string]ops.Attribute { return graphAttrs(kv...) }
	wrongOut := graphOf(1, 1, func([]tensor.Value) ([]tensor.Value, error) { return []tensor.Value{f32(1)}, nil })
	failing := graphOf(1, 1, func([]tensor.Value) ([]tensor.Value, error) { return nil, errTestBody })
	twoIn := graphOf(2, 1, func(in []tensor.Value) ([]tensor.Value, error) { return in[:1], nil })
	for _, c := range []struct {
		name   string
		domain string
		op     string
		ver    int
		outs   int
		attrs  map[string]ops.Attribute
		in     []tensor.Value
		rule   string
		msg    string
	}{
		// Split
		{"Split-1 split twice", "", "Split", 1, 2, a("split", ints(1, 1)), []tensor.Value{x2(), int64s(1, 1)}, "split", "Split-1 [split] split is given both as an attribute and as an input"},
		{"Split no outputs", "", "Split", 13, 0, nil, []tensor.Value{x2()}, "num_outputs", "Split-13 [num_outputs] neither split nor num_outputs is given, and the number of outputs is unknown"},
		{"Split-18 five into four", "", "Split", 18, 4, a("num_outputs", one(4)), []tensor.Value{f32(1, 2, 3, 4, 5)}, "num_outputs", "Split-18 [num_outputs] dimension 5 cannot be cut into 4 parts of 2 with a smaller last part"},
		// SwiGLU
		{"SwiGLU no A", "", "SwiGLU", 28, 1, nil, []tensor.Value{nil, x2()}, "input", "SwiGLU-28 [input] required input A (#0) is missing"},
		{"SwiGLU no B", "", "SwiGLU", 28, 1, nil, []tensor.Value{x2()}, "input", "SwiGLU-28 [input] required input B (#1) is missing"},
		{"SwiGLU int32", "", "SwiGLU", 28, 1, nil, []tensor.Value{tensor.MustNew(tensor.Int32, 2), tensor.MustNew(tensor.Int32, 2)}, "type", "SwiGLU-28 [type] A of type int32 is not allowed"},
		{"SwiGLU B double", "", "SwiGLU", 28, 1, nil, []tensor.Value{x2(), tensor.MustNew(tensor.Double, 2)}, "type", "SwiGLU-28 [type] B of type double must have A's type float"},
		// LinearAttention
		{"LinearAttention double", "", "LinearAttention", 27, 1, a("update_rule", str("linear"), "q_num_heads", one(1), "kv_num_heads", one(1)),
			[]tensor.Value{tensor.MustNew(tensor.Double, 1, 2, 4), tensor.MustNew(tensor.Double, 1, 2, 4), tensor.MustNew(tensor.Double, 1, 2, 4)}, "type", "LinearAttention-27 [type] query is double"},
		{"LinearAttention past int32", "", "LinearAttention", 27, 1, a("update_rule", str("linear"), "q_num_heads", one(1), "kv_num_heads", one(1)),
			[]tensor.Value{qkv(), qkv(), qkv(), tensor.MustNew(tensor.Int32, 1, 1, 4, 4)}, "type", "LinearAttention-27 [type] past_state is int32"},
		{"LinearAttention decay shape", "", "LinearAttention", 27, 1, a("update_rule", str("gated"), "q_num_heads", one(1), "kv_num_heads", one(1)),
			[]tensor.Value{qkv(), qkv(), qkv(), nil, tensor.MustNew(tensor.Float, 1, 2, 3)}, "decay", "LinearAttention-27 [decay] decay [1 2 3]"},
		{"LinearAttention beta shape", "", "LinearAttention", 27, 1, a("update_rule", str("delta"), "q_num_heads", one(1), "kv_num_heads", one(1)),
			[]tensor.Value{qkv(), qkv(), qkv(), nil, nil, tensor.MustNew(tensor.Float, 1, 2, 3)}, "beta", "LinearAttention-27 [beta] beta [1 2 3]"},
		{"LinearAttention past shape", "", "LinearAttention", 27, 1, a("update_rule", str("linear"), "q_num_heads", one(1), "kv_num_heads", one(1)),
			[]tensor.Value{qkv(), qkv(), qkv(), tensor.MustNew(tensor.Float, 1, 1, 4, 3)}, "past_state", "LinearAttention-27 [past_state] past_state [1 1 4 3]"},
		// FlexAttention
		{"FlexAttention int32", "ai.onnx.preview", "FlexAttention", 1, 1, nil,
			[]tensor.Value{tensor.MustNew(tensor.Int32, 1, 1, 2, 4), tensor.MustNew(tensor.Int32, 1, 1, 2, 4), tensor.MustNew(tensor.Int32, 1, 1, 2, 4)}, "type", "FlexAttention-1 [type] Q is int32"},
		{"FlexAttention score_mod of two inputs", "ai.onnx.preview", "FlexAttention", 1, 1, a("score_mod", twoIn), []tensor.Value{q4(), q4(), q4()}, "score_mod", "FlexAttention-1 [score_mod] score_mod must be a graph of one input and one output"},
		{"FlexAttention score_mod fails", "ai.onnx.preview", "FlexAttention", 1, 1, a("score_mod", failing), []tensor.Value{q4(), q4(), q4()}, "", ""},
		{"FlexAttention prob_mod of a wrong shape", "ai.onnx.preview", "FlexAttention", 1, 1, a("prob_mod", wrongOut), []tensor.Value{q4(), q4(), q4()}, "prob_mod", "FlexAttention-1 [prob_mod] prob_mod must produce one float tensor of shape [1 1 2 2]"},
		// QuantizeLinear, DequantizeLinear
		{"DequantizeLinear output_dtype", "", "DequantizeLinear", 23, 1, a("output_dtype", one(int64(tensor.Double))), []tensor.Value{tensor.MustNew(tensor.Uint8, 2), tensor.Scalar(float32(1))}, "output_dtype", "DequantizeLinear-23 [output_dtype] output_dtype 11"},
		{"QuantizeLinear output_dtype and zero point", "", "QuantizeLinear", 21, 1, a("output_dtype", one(int64(tensor.Int8))), []tensor.Value{x2(), tensor.Scalar(float32(1)), tensor.Scalar(uint8(0))}, "output_dtype", "QuantizeLinear-21 [output_dtype] output_dtype and zero point differ"},
		// Random generators
		{"RandomUniform no shape", "", "RandomUniform", 22, 1, nil, nil, "attribute", "RandomUniform-22 [attribute] attribute shape is required"},
		{"RandomUniform unseeded", "", "RandomUniform", 22, 1, a("shape", ints(2)), nil, "ok", ""},
		{"RandomUniformLike low of a string", "", "RandomUniformLike", 22, 1, a("low", str("x")), []tensor.Value{x2()}, "", ""},
		{"RandomNormalLike mean of a string", "", "RandomNormalLike", 22, 1, a("mean", str("x")), []tensor.Value{x2()}, "", ""},
		// TreeEnsemble (ai.onnx.ml 5)
		{"TreeEnsemble no tree_roots", mlDomainName, "TreeEnsemble", 5, 1, oneTree("tree_roots", nil), []tensor.Value{x2()}, "attribute", "TreeEnsemble-5 [attribute] attribute tree_roots is required"},
		{"TreeEnsemble mode 7", mlDomainName, "TreeEnsemble", 5, 1, oneTree("nodes_modes", tensorAttr(tensor.MustFromSlice([]uint8{7}, 1))), []tensor.Value{x2()}, "mode", "TreeEnsemble-5 [mode] nodes_modes[0] is not a mode"},
		{"TreeEnsemble negative feature", mlDomainName, "TreeEnsemble", 5, 1, oneTree("nodes_featureids", ints(-1)), []tensor.Value{x2()}, "tree", "TreeEnsemble-5 [tree] node 0: an index out of range"},
		{"TreeEnsemble negative target", mlDomainName, "TreeEnsemble", 5, 1, oneTree("leaf_targetids", ints(0, -1)), []tensor.Value{x2()}, "tree", "TreeEnsemble-5 [tree] leaf 1: a target out of range"},
		{"TreeEnsemble output over the cap", mlDomainName, "TreeEnsemble", 5, 1, oneTree("n_targets", one(math.MaxInt32)), []tensor.Value{tensor.MustNew(tensor.Float, 1<<20, 1)}, "size", ""},
		{"TreeEnsemble valid", mlDomainName, "TreeEnsemble", 5, 1, oneTree(), []tensor.Value{x2()}, "ok", ""},
		// TreeEnsembleRegressor (ai.onnx.ml 1 and 3)
		{"TreeEnsembleRegressor valid", mlDomainName, "TreeEnsembleRegressor", 3, 1, oneOldTree(), []tensor.Value{x2()}, "ok", ""},
		{"TreeEnsembleRegressor bool X", mlDomainName, "TreeEnsembleRegressor", 3, 1, oneOldTree(), []tensor.Value{tensor.MustNew(tensor.Bool, 2)}, "type", "TreeEnsembleRegressor-3 [type] X must be float, double, int64 or int32"},
		{"TreeEnsembleRegressor output over the cap", mlDomainName, "TreeEnsembleRegressor", 3, 1, oneOldTree("n_targets", one(math.MaxInt32)), []tensor.Value{tensor.MustNew(tensor.Float, 1<<20, 1)}, "size", ""},
		{"TreeEnsembleRegressor weights twice", mlDomainName, "TreeEnsembleRegressor", 3, 1, oneOldTree("target_weights_as_tensor", tensorAttr(f32(1, 2))), []tensor.Value{x2()}, "target_weights", "TreeEnsembleRegressor-3 [target_weights] target_weights and target_weights_as_tensor are both set"},
		{"TreeEnsembleRegressor hitrates of ints", mlDomainName, "TreeEnsembleRegressor", 3, 1, oneOldTree("nodes_hitrates_as_tensor", tensorAttr(int64s(1, 1, 1))), []tensor.Value{x2()}, "nodes_hitrates_as_tensor", "TreeEnsembleRegressor-3 [nodes_hitrates_as_tensor] nodes_hitrates_as_tensor must hold floats"},
		{"TreeEnsembleRegressor node twice", mlDomainName, "TreeEnsembleRegressor", 3, 1, oneOldTree("nodes_nodeids", ints(0, 1, 1)), []tensor.Value{x2()}, "node", "TreeEnsembleRegressor-3 [node] a node is listed twice"},
		{"TreeEnsembleRegressor unknown mode", mlDomainName, "TreeEnsembleRegressor", 3, 1, oneOldTree("nodes_modes", attrStrs("BRANCH_XX", "LEAF", "LEAF")), []tensor.Value{x2()}, "mode", "TreeEnsembleRegressor-3 [mode] nodes_modes[0] = \"BRANCH_XX\""},
		{"TreeEnsembleRegressor negative feature", mlDomainName, "TreeEnsembleRegressor", 3, 1, oneOldTree("nodes_featureids", ints(-1, 0, 0)), []tensor.Value{x2()}, "tree", "TreeEnsembleRegressor-3 [tree] a feature out of range"},
		{"TreeEnsembleRegressor no node 0", mlDomainName, "TreeEnsembleRegressor", 3, 1, oneOldTree("nodes_nodeids", ints(3, 1, 2), "nodes_truenodeids", ints(1, 0, 0)), []tensor.Value{x2()}, "tree", "TreeEnsembleRegressor-3 [tree] a tree without node 0"},
		{"TreeEnsembleRegressor vote for a branch", mlDomainName, "TreeEnsembleRegressor", 3, 1, oneOldTree("target_nodeids", ints(0, 2)), []tensor.Value{x2()}, "tree", "TreeEnsembleRegressor-3 [tree] a vote for a node that is no leaf"},
		{"TreeEnsembleRegressor negative target", mlDomainName, "TreeEnsembleRegressor", 3, 1, oneOldTree("target_ids", ints(0, -1)), []tensor.Value{x2()}, "tree", "TreeEnsembleRegressor-3 [tree] a vote for a target out of range"},
	} {
		t.Run(c.name, func(t *testing.T) {
			opt := ops.NewOptions()
			if c.rule == "size" {
				opt = ops.NewOptions(ops.WithMaxTensorBytes(1 << 20))
			}
			out, err := callRefIn(t, opt, c.domain, c.op, c.ver, c.attrs, c.outs, c.in...)
			switch c.rule {
			case "ok":
				if err != nil {
					t.Fatalf("got %v, want outputs", err)
				}
			case "":
				// An error of the attribute reader or of a body, passed on as it is.
				if err == nil || out != nil {
					t.Fatalf("got %v (%d outputs), want an error", err, len(out))
				}
			default:
				wantRefusal(t, out, err, c.op, c.ver, c.rule, c.msg)
			}
		})
	}
}
