package profile

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/onnxshape/onnxshape/internal/sonnxrule"
	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/tensor"
)

// The cases of the elementwise operators' rows (elementwise_specs.go),
// built from their specifications: TestViolations, TestSatisfied and
// TestRunTime find them in violations and elementwiseSatisfying.

// unaryModel is op at its specification's version on a [2, 3] X of type dt.
func unaryModel(t testing.TB, op string, dt tensor.DataType) *pb.ModelProto {
	return newModel(t, int64(specs[op].Version)).input("x", dt, 2, 3).
		node(op, names("x"), names("y")).output("y", dt, 2, 3).build()
}

// binaryModel is op at its specification's version on A of shape a and B
// of shape b, both of type dt (Where: X and Y, with a bool condition of
// shape a).
func binaryModel(t testing.TB, op string, dt tensor.DataType, a, b []int64) *pb.ModelProto {
	m := newModel(t, int64(specs[op].Version))
	out := dt
	switch op {
	case "Less":
		out = tensor.Bool
	case "Where":
		m.input("c", tensor.Bool, a...)
	}
	m.input("a", dt, a...).input("b", dt, b...)
	in := names("a", "b")
	if op == "Where" {
		in = names("c", "a", "b")
	}
	return m.node(op, in, names("y")).output("y", out, a...).build()
}

// constantOperand is op on A, a [2] graph input of type dt, and B, an
// initializer holding b (Abs: X, the initializer).
func constantOperand(t testing.TB, op string, b *tensor.Tensor) *pb.ModelProto {
	dt := b.DataType()
	m := newModel(t, int64(specs[op].Version))
	if op == "Abs" {
		return m.initializer("x", b).node(op, names("x"), names("y")).output("y", dt, 2).build()
	}
	return m.input("a", dt, 2).initializer("b", b).node(op, names("a", "b"), names("y")).output("y", dt, 2).build()
}

var unaryOps = []string{"Abs", "Relu", "Sigmoid", "Tanh", "Exp", "Log", "Sqrt"}
var binaryOps = []string{"Add", "Sub", "Mul", "Div", "Less", "Pow", "Where"}

func init() {
	for _, op := range unaryOps {
		if op == "Abs" { // its list has every type ONNX's Abs-13 has
			violations[op+" TYPES"] = violation{also: []string{ruleTypes, "Abs type"}, model: func(t testing.TB) *pb.ModelProto {
				return unaryModel(t, op, tensor.Float8E4M3FN)
			}}
			continue
		}
		violations[op+" TYPES"] = violation{model: func(t testing.TB) *pb.ModelProto { return unaryModel(t, op, tensor.BFloat16) }}
	}
	for _, op := range binaryOps {
		violations[op+" TYPES"] = violation{model: func(t testing.TB) *pb.ModelProto {
			return binaryModel(t, op, tensor.BFloat16, []int64{2, 3}, []int64{2, 3})
		}}
		for _, id := range sonnxrule.SameShapeIDs(op) {
			dt := tensor.Float
			if strings.Contains(id, "_INT_") {
				dt = tensor.Int32
			}
			violations[op+" "+id] = violation{model: func(t testing.TB) *pb.ModelProto {
				return binaryModel(t, op, dt, []int64{2, 3}, []int64{3})
			}}
		}
	}
	violations["Abs "+sonnxrule.AbsLeast] = violation{model: func(t testing.TB) *pb.ModelProto {
		return constantOperand(t, "Abs", tensor.MustFromSlice([]int8{-128, 5}, 2))
	}}
	violations["Div "+sonnxrule.DivZero] = violation{model: func(t testing.TB) *pb.ModelProto {
		return constantOperand(t, "Div", tensor.MustFromSlice([]int32{3, 0}, 2))
	}}
	violations["Pow "+sonnxrule.PowNegative] = violation{model: func(t testing.TB) *pb.ModelProto {
		return constantOperand(t, "Pow", tensor.MustFromSlice([]int32{2, -1}, 2))
	}}
	violations["Pow "+sonnxrule.PowType] = violation{model: func(t testing.TB) *pb.ModelProto {
		return newModel(t, 15).input("a", tensor.Float, 2).initializer("b", tensor.MustFromSlice([]int64{2, 3}, 2)).
			node("Pow", names("a", "b"), names("y")).output("y", tensor.Float, 2).build()
	}}
}

// elementwiseSatisfying returns the model meeting every rule of op, nil
// for an operator of another file.
func elementwiseSatisfying(t testing.TB, op, key string) *pb.ModelProto {
	switch {
	case key == "Abs "+sonnxrule.AbsLeast:
		return constantOperand(t, "Abs", tensor.MustFromSlice([]int8{-127, 5}, 2))
	case key == "Div "+sonnxrule.DivZero || key == "Div E_DIV_INT_CONSTR_A_0010":
		return constantOperand(t, "Div", tensor.MustFromSlice([]int32{3, -1}, 2))
	case key == "Pow "+sonnxrule.PowNegative:
		return constantOperand(t, "Pow", tensor.MustFromSlice([]int32{2, 0}, 2))
	case op == "Softmax":
		return softmaxModel(t, tensor.Float, 1)
	case op == "ArgMax":
		return argMaxModel(t, tensor.Int8, 0, 1, 0, "")
	case slices.Contains(unaryOps, op):
		return unaryModel(t, op, tensor.Float)
	case slices.Contains(binaryOps, op):
		dt := tensor.Float
		if strings.Contains(key, "_INT_") {
			dt = tensor.Int32
		}
		return binaryModel(t, op, dt, []int64{2, 3}, []int64{2, 3})
	}
	return nil
}

// The assessor's probes of the SONNX assessment, point 1: each is outside now, or
// undecided where a value is known only at run time, never inside.
func TestElementwiseProbes(t *testing.T) {
	probes := []struct {
		name string
		m    *pb.ModelProto
		want string // the rule reported, or left to run time
	}{
		{"Relu-6", newModel(t, 6).input("x", tensor.Float, 2, 3).
			node("Relu", names("x"), names("y")).output("y", tensor.Float, 2, 3).build(), ruleVersion},
		{"Softmax-11", newModel(t, 11).input("x", tensor.Float, 2, 3).
			node("Softmax", names("x"), names("y"), attrInt("axis", 1)).output("y", tensor.Float, 2, 3).build(), ruleVersion},
		{"bfloat16 Relu", unaryModel(t, "Relu", tensor.BFloat16), ruleTypes},
		{"Add, broadcast initializer", newModel(t, 14).input("x", tensor.Float, 2, 3).initializer("b", tensor.MustFromSlice([]float32{1, 2, 3}, 3)).
			node("Add", names("x", "b"), names("y")).output("y", tensor.Float, 2, 3).build(), "E_ADD_FLOAT_CONSTR_A_0010"},
		{"Mul, broadcast graph input", binaryModel(t, "Mul", tensor.Float, []int64{2, 3}, []int64{1, 3}), "E_MUL_FLOAT_CONSTR_A_0010"},
		{"Abs of int8 -128", constantOperand(t, "Abs", tensor.MustFromSlice([]int8{-128, 1}, 2)), sonnxrule.AbsLeast},
		{"integer Pow, negative exponent", constantOperand(t, "Pow", tensor.MustFromSlice([]int64{-2, 1}, 2)), sonnxrule.PowNegative},
		{"Abs of an int8 graph input", newModel(t, 13).input("x", tensor.Int8, 2).node("Abs", names("x"), names("y")).output("y", tensor.Int8, 2).build(), sonnxrule.AbsLeast},
		{"Div by an int32 graph input", binaryModel(t, "Div", tensor.Int32, []int64{2}, []int64{2}), sonnxrule.DivZero},
	}
	for _, p := range probes {
		rep := CheckProto(p.m, "")
		var got []string
		for _, f := range rep.Findings {
			got = append(got, f.Rule)
		}
		for _, d := range rep.Deferred {
			got = append(got, d.Rules...)
		}
		if rep.Verdict() == VerdictInside || !slices.Contains(got, p.want) {
			t.Errorf("%s: verdict %s with %q, want %s reported or deferred:\n%s", p.name, rep.Verdict(), got, p.want, rep)
		}
	}
	// Float Div and Add with graph inputs of one shape are inside: their
	// values cannot break a rule.
	for _, op := range []string{"Add", "Div", "Pow", "Less", "Where"} {
		if rep := CheckProto(binaryModel(t, op, tensor.Float, []int64{2, 3}, []int64{2, 3}), ""); rep.Verdict() != VerdictInside {
			t.Errorf("float %s of graph inputs: %s\n%s", op, rep.Verdict(), rep)
		}
	}
}

// softmaxModel is Softmax-13 over a [2, 3] X of type dt along axis.
func softmaxModel(t testing.TB, dt tensor.DataType, axis int64) *pb.ModelProto {
	return newModel(t, 13).input("x", dt, 2, 3).
		node("Softmax", names("x"), names("y"), attrInt("axis", axis)).output("y", dt, 2, 3).build()
}

// argMaxModel is ArgMax-13 over a [2, 3] X of type dt with attrs.
func argMaxModel(t testing.TB, dt tensor.DataType, axis, keepdims, last int64, drop string) *pb.ModelProto {
	attrs := without([]*pb.AttributeProto{attrInt("axis", axis), attrInt("keepdims", keepdims), attrInt("select_last_index", last)}, drop)
	out := []int64{1, 3}
	if keepdims == 0 {
		out = []int64{3}
	}
	return newModel(t, 13).input("x", dt, 2, 3).
		node("ArgMax", names("x"), names("y"), attrs...).output("y", tensor.Int64, out...).build()
}

func init() {
	violations["Softmax TYPES"] = violation{model: func(t testing.TB) *pb.ModelProto { return softmaxModel(t, tensor.BFloat16, 1) }}
	violations["Softmax axis [C1]"] = violation{model: func(t testing.TB) *pb.ModelProto { return softmaxModel(t, tensor.Float, -1) }}
	violations["Softmax axis [C2]"] = violation{model: func(t testing.TB) *pb.ModelProto { return softmaxModel(t, tensor.Float, 2) }}
	violations["ArgMax TYPES"] = violation{model: func(t testing.TB) *pb.ModelProto { return argMaxModel(t, tensor.BFloat16, 0, 1, 0, "") }}
	for i, name := range []string{"axis", "keepdims", "select_last_index"} {
		violations[fmt.Sprintf("ArgMax R%d", i+1)] = violation{model: func(t testing.TB) *pb.ModelProto { return argMaxModel(t, tensor.Float, 0, 1, 0, name) }}
	}
	violations["ArgMax axis [C1]"] = violation{model: func(t testing.TB) *pb.ModelProto { return argMaxModel(t, tensor.Float, -2, 1, 0, "") }}
	violations["ArgMax axis [C2]"] = violation{model: func(t testing.TB) *pb.ModelProto { return argMaxModel(t, tensor.Float, 2, 1, 0, "") }}
	violations["ArgMax keepdims [C1]"] = violation{model: func(t testing.TB) *pb.ModelProto { return argMaxModel(t, tensor.Float, 0, 2, 0, "") }}
	violations["ArgMax select_last_index [C1]"] = violation{model: func(t testing.TB) *pb.ModelProto { return argMaxModel(t, tensor.Float, 0, 1, 2, "") }}
}
