package profile

import (
	"strings"
	"testing"

	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/tensor"
	"google.golang.org/protobuf/proto"
)

// satisfying returns a model inside the profile that uses the operator of
// rule key (the whole profile's model for a rule on every operator), every
// rule decided: each row of Rules has a model that meets it.
func satisfying(t testing.TB, key string) *pb.ModelProto {
	op, _, _ := strings.Cut(key, " ")
	if key == "MaxPool NaN" { // a constant X, searched, without NaN
		return newModel(t, 22).initializer("x", tensor.MustFromSlice(seq(16), 1, 1, 4, 4)).
			node("MaxPool", names("x"), names("y"), maxPoolAttrs()...).
			output("y", tensor.Float, 1, 1, 2, 2).build()
	}
	if m := elementwiseSatisfying(t, op, key); m != nil {
		return m
	}
	if m := computeSatisfying(t, op); m != nil {
		return m
	}
	switch op {
	case "Unsqueeze":
		return unsqueezeModel(t, []int64{0, 3}, 1, 2, 3, 1)
	case "Concat":
		return concatModel(t, []int64{2, 3}, []int64{2, 3}, tensor.Float, 0, 4, 3)
	case "Reshape":
		return reshapeModel(t, tensor.Float, []int64{2, 3}, []int64{3, -1}, 0, 3, 2).build()
	case "Flatten":
		return newModel(t, 25).input("x", tensor.Float, 2, 3, 4).
			node("Flatten", names("x"), names("y"), attrInt("axis", 1)).
			output("y", tensor.Float, 2, 12).build()
	case "Slice":
		return sliceModel(t, []int64{0, 3}, []int64{3, -5}, []int64{0, 1}, []int64{2, -1}, 2, 4)
	case "MaxPool":
		return maxPoolModel(t, tensor.Int8, []int64{1, 1, 4, 4}, maxPoolAttrs())
	case "Shape":
		return newModel(t, 25).input("x", tensor.Float, 2, 3).
			node("Shape", names("x"), names("y"), attrInt("start", 0), attrInt("end", 2)).
			output("y", tensor.Int64, 2).build()
	case "Constant":
		b := newModel(t, 25).initializer("v", tensor.MustFromSlice([]float32{1, 2}, 2))
		value := b.m.Graph.Initializer[0]
		b.m.Graph.Initializer = nil
		return b.node("Constant", nil, names("y"), attrTensor("value", value)).output("y", tensor.Float, 2).build()
	}
	return insideModel(t)
}

// TestSatisfied checks, for every row of Rules, that a model meeting it is
// inside the profile: check decides every rule and exits 0.
func TestSatisfied(t *testing.T) {
	for _, r := range Rules {
		t.Run(strings.ReplaceAll(r.Key(), " ", "_"), func(t *testing.T) {
			if rep := CheckProto(satisfying(t, r.Key()), ""); rep.Verdict() != VerdictInside {
				t.Errorf("verdict %s, want inside:\n%s", rep.Verdict(), rep)
			}
		})
	}
}

func attrTensor(name string, t *pb.TensorProto) *pb.AttributeProto {
	return &pb.AttributeProto{Name: proto.String(name), Type: pb.AttributeProto_TENSOR.Enum(), T: t}
}
