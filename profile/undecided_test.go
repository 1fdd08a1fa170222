package profile

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/onnx"
	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/tensor"
	"google.golang.org/protobuf/proto"
)

// A constant the check computes past its budget keeps its type and shape,
// but not its value: the node that reads it as a parameter is undecided.
func TestFoldBudget(t *testing.T) {
	m := newModel(t, 25).input("x", tensor.Float, 2, 3).
		ints("a", 3).ints("b", 2).
		node("Concat", names("a", "b"), names("shape"), attrInt("axis", 0)).
		node("Reshape", names("x", "shape"), names("y"), attrInt("allowzero", 0)).
		output("y", tensor.Float, 3, 2).build()
	if rep := CheckProto(m, ""); rep.Verdict() != VerdictInside {
		t.Fatalf("within the budget:\n%s", rep)
	}
	defer func(b int64) { foldBudget = b }(foldBudget)
	foldBudget = 8 // less than the folded shape's 16 bytes
	rep := CheckProto(m, "")
	if rep.Verdict() != VerdictUndecided || len(rep.Deferred) == 0 ||
		!strings.Contains(rep.Deferred[0].Reason, "past the check's budget") {
		t.Errorf("past the budget:\n%s", rep)
	}
}

// An operator onnxshape has no specification of is undecided, not
// outside; one the profile excludes is outside.
func TestUnimplementedOperatorUndecided(t *testing.T) {
	m := newModel(t, 25).input("x", tensor.Float, 2, 3).
		node("Frobnicate", names("x"), names("y")).
		output("y", tensor.Float, 2, 3).build()
	rep := CheckProto(m, "")
	if rep.Verdict() != VerdictUndecided || len(rep.Deferred) == 0 || !slices.Equal(rep.Deferred[0].Rules, []string{"OPS"}) ||
		!strings.Contains(rep.Deferred[0].Reason, "no specification in onnxshape") {
		t.Errorf("Frobnicate:\n%s", rep)
	}
	m = newModel(t, 25).input("x", tensor.Float, 2, 3).ints("reps", 1, 1).
		node("Tile", names("x", "reps"), names("y")).
		output("y", tensor.Float, 2, 3).build()
	if rep := CheckProto(m, ""); rep.Verdict() != VerdictOutside || reportKeys(rep)[0] != "OPS" {
		t.Errorf("Tile:\n%s", rep)
	}
}

// An initializer that is also a graph input is a default value (GR4,
// OP 016); under the profile, running the model without it is refused.
func TestInitializerInputIsADefault(t *testing.T) {
	m := reshapeModel(t, tensor.Float, []int64{2, 3}, []int64{3, 2}, 0, 3, 2).build()
	m.Graph.Input = append(m.Graph.Input, valueInfo(m.Graph.Initializer[0].GetName(), tensorType(tensor.Int64, []int64{2})))
	rep := CheckProto(m, "")
	if got := reportKeys(rep); !slices.Equal(got, []string{"GR4"}) || !strings.Contains(rep.Findings[0].Message, "also a graph input") {
		t.Fatalf("reported %q:\n%s", got, rep)
	}
}

// A node whose parameters are known only at run time still has a known
// output rank: a declaration of another rank is outside, one of the same
// rank is left to run time.
func TestRankOfUndecidedNodes(t *testing.T) {
	model := func(yDims ...int64) *Report {
		return CheckProto(newModel(t, 25).input("x", tensor.Float, 2, 3).input("axes", tensor.Int64, 1).
			node("Unsqueeze", names("x", "axes"), names("y")).
			output("y", tensor.Float, yDims...).build(), "")
	}
	if rep := model(2, 3); !slices.Equal(reportKeys(rep), []string{"Unsqueeze Y [C1]"}) {
		t.Errorf("rank 2 declared for rank 3:\n%s", rep)
	}
	if rep := model(2, 3, 1); rep.Verdict() != VerdictUndecided {
		t.Errorf("rank 3 declared:\n%s", rep)
	}
}

// Implemented is not admitted: an operator of the set that onnxshape runs
// but whose SONNX specification is not transcribed is undecided under
// SPEC, never inside, whatever its inputs (the assessor's probes: Add with
// a broadcast initializer, Relu-6, Softmax-11), and Enforce refuses it, so
// that no run under the profile executes it with plain ONNX semantics.
func TestUnadmittedRefused(t *testing.T) {
	models := map[string]*pb.ModelProto{
		"Neg-13": newModel(t, 13).input("x", tensor.Float, 2, 3).
			node("Neg", names("x"), names("y")).output("y", tensor.Float, 2, 3).build(),
		"Gemm-13": newModel(t, 13).input("a", tensor.Float, 2, 3).input("b", tensor.Float, 3, 4).input("c", tensor.Float, 2, 4).
			node("Gemm", names("a", "b", "c"), names("y"), attrFloat("alpha", 1), attrFloat("beta", 1), attrInt("transA", 0), attrInt("transB", 0)).
			output("y", tensor.Float, 2, 4).build(),
	}
	for name, m := range models {
		rep := CheckProto(m, "")
		if rep.Inside() || !slices.ContainsFunc(rep.Deferred, func(d Deferred) bool { return slices.Contains(d.Rules, ruleSpec) }) {
			t.Errorf("%s: want undecided under SPEC, got:\n%s", name, rep)
		}
		err := enforce(m, "")
		var ue *UnadmittedError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), "[SPEC]") || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: Enforce = %v, want a one-line *UnadmittedError naming [SPEC]", name, err)
		}
	}
	for _, op := range admittedList() {
		if !admitted(op) || !operatorSet[op] {
			t.Errorf("admittedList has %s, which is not admitted", op)
		}
	}
}

// Check and loader agree: a default-domain opset newer than the newest
// onnxshape knows is refused by the loader, so the check puts the model
// outside (ONNX), never inside.
func TestNewerOpsetOutside(t *testing.T) {
	m := newModel(t, 25).input("x", tensor.Float, 2, 3).
		node("Transpose", names("x"), names("y"), attrInts("perm", 1, 0)).
		output("y", tensor.Float, 3, 2).build()
	m.OpsetImport[0].Version = proto.Int64(99)
	rep := CheckProto(m, "")
	if rep.Verdict() != VerdictOutside || !slices.Contains(reportKeys(rep), "ONNX") {
		t.Errorf("opset 99:\n%s", rep)
	}
}

// Two initializers, or two graph inputs, of one name: the loader refuses
// the model, so the check puts it outside (ONNX) instead of keeping the
// last.
func TestDuplicateNamesOutside(t *testing.T) {
	twoInits := newModel(t, 25).initializer("x", tensor.MustFromSlice([]float32{1, 2, 3, 4, 5, 6}, 2, 3)).
		node("Transpose", names("x"), names("y"), attrInts("perm", 1, 0)).
		output("y", tensor.Float, 3, 2).build()
	twoInits.Graph.Initializer = append(twoInits.Graph.Initializer, twoInits.Graph.Initializer[0])
	twoInputs := newModel(t, 25).input("x", tensor.Float, 2, 3).
		node("Transpose", names("x"), names("y"), attrInts("perm", 1, 0)).
		output("y", tensor.Float, 3, 2).build()
	twoInputs.Graph.Input = append(twoInputs.Graph.Input, twoInputs.Graph.Input[0])
	for name, m := range map[string]*pb.ModelProto{"two initializers": twoInits, "two inputs": twoInputs} {
		rep := CheckProto(m, "")
		if rep.Verdict() != VerdictOutside || !slices.Contains(reportKeys(rep), "ONNX") {
			t.Errorf("%s:\n%s", name, rep)
		}
		b, err := onnx.EncodeModel(m)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := graph.LoadBytes(b, ""); err == nil {
			t.Errorf("%s: the loader takes the model the check refuses", name)
		}
	}
}

func attrFloat(name string, v float32) *pb.AttributeProto {
	return &pb.AttributeProto{Name: proto.String(name), Type: pb.AttributeProto_FLOAT.Enum(), F: proto.Float32(v)}
}
