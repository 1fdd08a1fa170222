package profile

import (
	"slices"
	"strings"
	"testing"

	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/tensor"
	"google.golang.org/protobuf/proto"
)

// symbolicType is a tensor type whose dimensions are numbers or, for a
// string, a dim_param.
func symbolicType(dt tensor.DataType, dims ...any) *pb.TypeProto {
	tt := &pb.TypeProto_Tensor{ElemType: proto.Int32(int32(dt)), Shape: &pb.TensorShapeProto{}}
	for _, d := range dims {
		dim := &pb.TensorShapeProto_Dimension{}
		switch d := d.(type) {
		case int:
			dim.Value = &pb.TensorShapeProto_Dimension_DimValue{DimValue: int64(d)}
		case string:
			dim.Value = &pb.TensorShapeProto_Dimension_DimParam{DimParam: d}
		}
		tt.Shape.Dim = append(tt.Shape.Dim, dim)
	}
	return &pb.TypeProto{Value: &pb.TypeProto_TensorType{TensorType: tt}}
}

// symbolicModel is x [N,3] -> op -> y, y declared as given.
func symbolicModel(t *testing.T, op string, attrs []*pb.AttributeProto, y *pb.TypeProto) *pb.ModelProto {
	m := newModel(t, 21).node(op, names("x"), names("y"), attrs...).build()
	m.Graph.Input = []*pb.ValueInfoProto{valueInfo("x", symbolicType(tensor.Float, "N", 3))}
	m.Graph.Output = []*pb.ValueInfoProto{valueInfo("y", y)}
	return m
}

// rulesOf lists the rules of the findings and of the deferred nodes.
func rulesOf(rep *Report) (found, deferred []string) {
	for _, f := range rep.Findings {
		found = append(found, f.Rule)
	}
	for _, d := range rep.Deferred {
		deferred = append(deferred, d.Rules...)
	}
	return found, deferred
}

// A declared output [N,3] that inference derives as [N,3] from the input
// [N,3] is decided: no GR3 left to run time, where the check's own
// propagation, which cannot run Relu on a symbolic batch, knew not even
// the rank. The symbolic interface itself is outside the profile (GR2,
// every dimension a number), so the verdict stays outside on that rule
// alone.
func TestInferredSymbolicDeclarationDecided(t *testing.T) {
	rep := CheckProto(symbolicModel(t, "Relu", nil, symbolicType(tensor.Float, "N", 3)), "")
	found, deferred := rulesOf(rep)
	if slices.Contains(deferred, ruleGR3) || slices.Contains(found, ruleGR3) {
		t.Errorf("a declaration matching the inferred [N,3] is left undecided or contradicted:\n%s", rep)
	}
	for _, r := range found {
		if r != ruleGR2 {
			t.Errorf("finding under %s; want only the interface's GR2:\n%s", r, rep)
		}
	}
	// A symbol no graph input declares fixes nothing: it agrees as well.
	rep = CheckProto(symbolicModel(t, "Relu", nil, symbolicType(tensor.Float, "B", 3)), "")
	if found, deferred := rulesOf(rep); slices.Contains(deferred, ruleGR3) || slices.Contains(found, ruleGR3) {
		t.Errorf("declared [B,3]:\n%s", rep)
	}
}

// A declared output that inference contradicts is outside under GR3, the
// finding naming both shapes with their symbols: Transpose makes [N,3]
// into [3,N], and the model declares [N,3]. The check's own propagation
// knew only the rank and left the comparison to run time.
func TestInferredSymbolicDeclarationContradicted(t *testing.T) {
	for _, tc := range []struct {
		name string
		y    *pb.TypeProto
		msg  string
	}{
		{"symbol against number", symbolicType(tensor.Float, "N", 3), "declared with shape [N,3] but has shape [3,N]"},
		{"number against number", symbolicType(tensor.Float, 4, "N"), "declared with shape [4,N] but has shape [3,N]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep := CheckProto(symbolicModel(t, "Transpose", []*pb.AttributeProto{attrInts("perm", 1, 0)}, tc.y), "")
			var gr3 []Finding
			for _, f := range rep.Findings {
				if f.Rule == ruleGR3 {
					gr3 = append(gr3, f)
				}
			}
			if rep.Verdict() != VerdictOutside || len(gr3) != 1 || !strings.Contains(gr3[0].Message, tc.msg) {
				t.Errorf("want one GR3 finding %q:\n%s", tc.msg, rep)
			}
			if _, deferred := rulesOf(rep); slices.Contains(deferred, ruleGR3) {
				t.Errorf("a contradicted declaration is also left to run time:\n%s", rep)
			}
		})
	}
}

// A declared number that the inferred symbol may or may not equal stays
// for the run to compare: [N,3] declared [2,3] is right when N is 2.
func TestInferredSymbolAgainstDeclaredNumberUndecided(t *testing.T) {
	rep := CheckProto(symbolicModel(t, "Relu", nil, symbolicType(tensor.Float, 2, 3)), "")
	found, deferred := rulesOf(rep)
	if slices.Contains(found, ruleGR3) || !slices.Contains(deferred, ruleGR3) {
		t.Errorf("declared [2,3] for an inferred [N,3]: want GR3 left to run time:\n%s", rep)
	}
	// The reasons write the shapes with their symbols.
	for _, want := range []string{"not fully known: tensor(float)[N,3]", "declared tensor(float)[2,3] but is known only as tensor(float)[N,3]"} {
		if !strings.Contains(rep.String(), want) {
			t.Errorf("no reason reads %q:\n%s", want, rep)
		}
	}
}
