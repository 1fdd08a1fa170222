package profile

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/internal/sonnxrule"
	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
	"google.golang.org/protobuf/proto"
)

// The cases of the rows of compute_specs.go (LeakyRelu, Clip, Max, Range,
// MatMul, BatchNormalization), built from their specifications:
// TestViolations, TestSatisfied, TestRunTime and
// TestEnginesAgreeUnderProfile find them in violations and
// computeSatisfying.

var scalarShape = []int{}

// leakyReluModel is LeakyRelu at opset 14 (LeakyRelu-6) on a [2, 3] X of
// type dt, alpha written out unless alpha is false.
func leakyReluModel(t testing.TB, dt tensor.DataType, alpha bool) *pb.ModelProto {
	var attrs []*pb.AttributeProto
	if alpha {
		attrs = append(attrs, attrFloat("alpha", 0.1))
	}
	return newModel(t, 14).input("x", dt, 2, 3).
		node("LeakyRelu", names("x"), names("y"), attrs...).output("y", dt, 2, 3).build()
}

// clipModel is Clip-13 of a [2, 3] float X between the initializers lo
// and hi.
func clipModel(t testing.TB, lo, hi *tensor.Tensor) *pb.ModelProto {
	return newModel(t, 13).input("x", lo.DataType(), 2, 3).initializer("lo", lo).initializer("hi", hi).
		node("Clip", names("x", "lo", "hi"), names("y")).output("y", lo.DataType(), 2, 3).build()
}

// maxModel is Max-13 of a [2, 3] and a [3] X of type dt (broadcast).
func maxModel(t testing.TB, dt tensor.DataType) *pb.ModelProto {
	return newModel(t, 13).input("a", dt, 2, 3).input("b", dt, 3).
		node("Max", names("a", "b"), names("y")).output("y", dt, 2, 3).build()
}

// rangeModel is Range-11 of the initializers s, l and d, its output
// declared of n elements.
func rangeModel(t testing.TB, s, l, d *tensor.Tensor, n int64) *pb.ModelProto {
	return newModel(t, 13).initializer("s", s).initializer("l", l).initializer("d", d).
		node("Range", names("s", "l", "d"), names("y")).output("y", s.DataType(), n).build()
}

// matMulModel is MatMul-13 of graph inputs of shapes a and b, type dt.
func matMulModel(t testing.TB, dt tensor.DataType, a, b, y []int64) *pb.ModelProto {
	return newModel(t, 13).input("a", dt, a...).input("b", dt, b...).
		node("MatMul", names("a", "b"), names("y")).output("y", dt, y...).build()
}

// batchNormModel is BatchNormalization-15 in inference of a graph input X
// of shape x and type dt, with float parameters of shape [len(variance)]
// (scale given by scaleLen elements) and the attributes written out.
func batchNormModel(t testing.TB, dt tensor.DataType, x []int64, scaleLen int, variance []float32, eps float32, mode int64) *pb.ModelProto {
	c := len(variance)
	ones := func(n int) *tensor.Tensor {
		v := make([]float32, n)
		for i := range v {
			v[i] = 1
		}
		return tensor.MustFromSlice(v, n)
	}
	return newModel(t, 15).input("x", dt, x...).
		initializer("scale", ones(scaleLen)).initializer("b", ones(c)).initializer("mean", ones(c)).
		initializer("var", tensor.MustFromSlice(variance, c)).
		node("BatchNormalization", names("x", "scale", "b", "mean", "var"), names("y"),
			attrFloat("epsilon", eps), attrFloat("momentum", 0.9), attrInt("training_mode", mode)).
		output("y", dt, x...).build()
}

func f32(v ...float32) *tensor.Tensor { return tensor.MustFromSlice(v, len(v)) }

func f32Scalar(v float32) *tensor.Tensor { return tensor.MustFromSlice([]float32{v}, scalarShape...) }

func init() {
	model := func(f func(t testing.TB) *pb.ModelProto) violation { return violation{model: f} }
	// LeakyRelu-6's own list is the specification's: bfloat16 breaks both.
	violations["LeakyRelu TYPES"] = violation{also: []string{"LeakyRelu type"}, model: func(t testing.TB) *pb.ModelProto {
		return leakyReluModel(t, tensor.BFloat16, true)
	}}
	violations["LeakyRelu R1"] = model(func(t testing.TB) *pb.ModelProto { return leakyReluModel(t, tensor.Float, false) })

	violations["Clip TYPES"] = violation{model: func(t testing.TB) *pb.ModelProto {
		b := tensor.MustFromSlice([]tensor.BF16{0}, scalarShape...)
		return clipModel(t, b, b)
	}}
	violations["Clip "+sonnxrule.ClipMinScalar] = model(func(t testing.TB) *pb.ModelProto { return clipModel(t, f32(0), f32Scalar(6)) })
	violations["Clip "+sonnxrule.ClipMaxScalar] = model(func(t testing.TB) *pb.ModelProto { return clipModel(t, f32Scalar(0), f32(6)) })

	violations["Max TYPES"] = model(func(t testing.TB) *pb.ModelProto { return maxModel(t, tensor.BFloat16) })

	violations["Range TYPES"] = violation{also: []string{"Range input"}, model: func(t testing.TB) *pb.ModelProto {
		h := func(v float32) *tensor.Tensor {
			return tensor.MustFromSlice(tensor.Float16sFromFloat32([]float32{v}), scalarShape...)
		}
		return rangeModel(t, h(0), h(5), h(1), 5)
	}}
	violations["Range input"] = model(func(t testing.TB) *pb.ModelProto { return rangeModel(t, f32(0), f32Scalar(5), f32Scalar(1), 5) })
	violations["Range "+sonnxrule.RangeDelta] = model(func(t testing.TB) *pb.ModelProto {
		return rangeModel(t, f32Scalar(0), f32Scalar(5), f32Scalar(0), 5)
	})

	violations["MatMul TYPES"] = model(func(t testing.TB) *pb.ModelProto {
		return matMulModel(t, tensor.BFloat16, []int64{2, 3}, []int64{3, 4}, []int64{2, 4})
	})
	violations["MatMul "+sonnxrule.MatMulRankA] = model(func(t testing.TB) *pb.ModelProto {
		return matMulModel(t, tensor.Float, []int64{2, 2, 3}, []int64{3, 4}, []int64{2, 2, 4})
	})
	violations["MatMul "+sonnxrule.MatMulRankB] = model(func(t testing.TB) *pb.ModelProto {
		return matMulModel(t, tensor.Float, []int64{2, 3}, []int64{2, 3, 4}, []int64{2, 2, 4})
	})
	violations["MatMul "+sonnxrule.MatMulInner] = model(func(t testing.TB) *pb.ModelProto {
		return matMulModel(t, tensor.Float, []int64{2, 3}, []int64{4, 5}, []int64{2, 5})
	})

	bn := []int64{1, 2, 2, 2}
	violations["BatchNormalization TYPES"] = model(func(t testing.TB) *pb.ModelProto {
		return batchNormModel(t, tensor.BFloat16, bn, 2, []float32{1, 2}, 1e-5, 0)
	})
	violations["BatchNormalization "+sonnxrule.BatchNormTraining] = model(func(t testing.TB) *pb.ModelProto {
		return batchNormModel(t, tensor.Float, bn, 2, []float32{1, 2}, 1e-5, 1)
	})
	violations["BatchNormalization "+sonnxrule.BatchNormEpsilon] = model(func(t testing.TB) *pb.ModelProto {
		return batchNormModel(t, tensor.Float, bn, 2, []float32{1, 2}, 0, 0)
	})
	violations["BatchNormalization "+sonnxrule.BatchNormRank] = model(func(t testing.TB) *pb.ModelProto {
		return batchNormModel(t, tensor.Float, []int64{}, 1, []float32{1}, 1e-5, 0)
	})
	violations["BatchNormalization "+sonnxrule.BatchNormParams] = model(func(t testing.TB) *pb.ModelProto {
		return batchNormModel(t, tensor.Float, bn, 3, []float32{1, 2}, 1e-5, 0)
	})
	violations["BatchNormalization "+sonnxrule.BatchNormVariance] = model(func(t testing.TB) *pb.ModelProto {
		return batchNormModel(t, tensor.Float, bn, 2, []float32{1, -2}, 1e-5, 0)
	})
}

// computeSatisfying returns the model meeting every rule of op, nil for an
// operator of another file.
func computeSatisfying(t testing.TB, op string) *pb.ModelProto {
	switch op {
	case "LeakyRelu":
		return leakyReluModel(t, tensor.Float, true)
	case "Clip":
		return clipModel(t, f32Scalar(0.5), f32Scalar(1.5))
	case "Max":
		return maxModel(t, tensor.Float)
	case "Range":
		return rangeModel(t, f32Scalar(0), f32Scalar(5), f32Scalar(1), 5)
	case "MatMul":
		return matMulModel(t, tensor.Float, []int64{2, 3}, []int64{3, 4}, []int64{2, 4})
	case "BatchNormalization":
		return batchNormModel(t, tensor.Float, []int64{1, 2, 2, 2}, 2, []float32{1, 2}, 1e-5, 0)
	}
	return nil
}

// Clip's specification for floats: with L' > M' every element is M', NaN
// included (ONNX's Min(max, Max(input, min)) keeps the NaN); a NaN bound
// is no bound. Both engines, under the profile.
func TestClipSONNXSemantics(t *testing.T) {
	nan := float32(math.NaN())
	cases := []struct {
		lo, hi float32
		want   []float32
	}{
		{2, 1, []float32{1, 1, 1, 1, 1, 1}},
		{nan, 1, []float32{-3, 0, 0.5, 1, 1, nan}},
		{0, nan, []float32{0, 0, 0.5, 2, 1e30, nan}},
	}
	x := tensor.MustFromSlice([]float32{-3, 0, 0.5, 2, 1e30, nan}, 2, 3)
	for _, c := range cases {
		m, err := graph.FromProto(clipModel(t, f32Scalar(c.lo), f32Scalar(c.hi)), "")
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range []graph.Engine{graph.EngineReference, graph.EngineFast} {
			out, err := m.Run(context.Background(), map[string]tensor.Value{"x": x}, &graph.RunOptions{Profile: ops.ProfileSONNX, Engine: e})
			if err != nil {
				t.Fatalf("[%v, %v], %s engine: %v", c.lo, c.hi, e, err)
			}
			got, _ := out.Map()["y"].(*tensor.Tensor).Float32s()
			for i := range got {
				if math.Float32bits(got[i]) != math.Float32bits(c.want[i]) {
					t.Errorf("[%v, %v], %s engine: got %v, want %v", c.lo, c.hi, e, got, c.want)
					break
				}
			}
		}
	}
}

// TestRuleResults: a report lists every rule that applies to the model
// with its status, passed ones included; CheckBytes records the model's
// SHA-256 and every report the tool.
func TestRuleResults(t *testing.T) {
	status := func(rep *Report) map[string]string {
		m := map[string]string{}
		for _, r := range rep.Rules {
			m[r.Rule] = r.Status
		}
		return m
	}
	inside := CheckProto(computeSatisfying(t, "MatMul"), "")
	s := status(inside)
	for _, key := range []string{"GR1", "GR4", "TYPES", "MatMul A [C1]", "MatMul A [C2]", "MatMul TYPES"} {
		if s[key] != RulePassed {
			t.Errorf("inside MatMul model: %s is %q, want passed (%v)", key, s[key], s)
		}
	}
	if _, ok := s["Clip L [C1]"]; ok {
		t.Errorf("a MatMul model lists Clip's rows")
	}
	if inside.Tool == "" || inside.ModelSHA256 != "" {
		t.Errorf("tool %q, model_sha256 %q", inside.Tool, inside.ModelSHA256)
	}
	outside := CheckProto(violations["MatMul "+sonnxrule.MatMulInner].model(t), "")
	if s := status(outside); s["MatMul A [C2]"] != RuleBroken || s["GR1"] != RulePassed {
		t.Errorf("violating model: %v", s)
	}
	m, _ := liftInitializers(t, violations["BatchNormalization "+sonnxrule.BatchNormVariance].model(t))
	if s := status(CheckProto(m, "")); s["BatchNormalization input_var [C3]"] != RuleUndecided || s["GR2"] != RulePassed {
		t.Errorf("variance known at run time: %v", s)
	}
	b, err := proto.Marshal(computeSatisfying(t, "Clip"))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := CheckBytes(b, "")
	if err != nil {
		t.Fatal(err)
	}
	if sum := sha256.Sum256(b); rep.ModelSHA256 != hex.EncodeToString(sum[:]) {
		t.Errorf("model_sha256 %q", rep.ModelSHA256)
	}
	if got := rep.RuleCounts(); !strings.HasPrefix(got, fmt.Sprint(len(rep.Rules), " passed")) {
		t.Errorf("RuleCounts %q for an inside model of %d rules", got, len(rep.Rules))
	}
}
