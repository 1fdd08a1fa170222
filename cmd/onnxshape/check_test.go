package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/onnxshape/onnxshape/onnx"
	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/profile"
	"github.com/onnxshape/onnxshape/tensor"
	"google.golang.org/protobuf/proto"
)

// concatModelFile writes a model that concatenates two float [2,3] inputs
// along axis, and returns its path.
func concatModelFile(t *testing.T, axis int64) string {
	t.Helper()
	typ := func(dims ...int64) *pb.TypeProto {
		shape := &pb.TensorShapeProto{}
		for _, d := range dims {
			shape.Dim = append(shape.Dim, &pb.TensorShapeProto_Dimension{Value: &pb.TensorShapeProto_Dimension_DimValue{DimValue: d}})
		}
		return &pb.TypeProto{Value: &pb.TypeProto_TensorType{TensorType: &pb.TypeProto_Tensor{
			ElemType: proto.Int32(int32(tensor.Float)), Shape: shape}}}
	}
	m := &pb.ModelProto{
		IrVersion:   proto.Int64(10),
		OpsetImport: []*pb.OperatorSetIdProto{{Version: proto.Int64(13)}},
		Graph: &pb.GraphProto{
			Name: proto.String("concat"),
			Node: []*pb.NodeProto{{Name: proto.String("join"), OpType: proto.String("Concat"),
				Input: []string{"a", "b"}, Output: []string{"y"},
				Attribute: []*pb.AttributeProto{{Name: proto.String("axis"), Type: pb.AttributeProto_INT.Enum(), I: proto.Int64(axis)}}}},
			Input:  []*pb.ValueInfoProto{{Name: proto.String("a"), Type: typ(2, 3)}, {Name: proto.String("b"), Type: typ(2, 3)}},
			Output: []*pb.ValueInfoProto{{Name: proto.String("y"), Type: typ(4, 3)}},
		},
	}
	b, err := onnx.EncodeModel(m)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "model.onnx")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestCheckCommand(t *testing.T) {
	garbage := filepath.Join(t.TempDir(), "garbage.onnx")
	if err := os.WriteFile(garbage, []byte("not a model"), 0o644); err != nil {
		t.Fatal(err)
	}
	inside, outside := concatModelFile(t, 0), concatModelFile(t, -2)
	cases := []struct {
		name   string
		args   []string
		code   int
		stdout string // a substring of the output
	}{
		{"inside", []string{"--profile", "sonnx", inside}, 0, "inside the SONNX profile"},
		{"outside", []string{"--profile", "sonnx", outside}, 1, `node "join" (Concat-13) axis [C1]: axis -2 is negative`},
		{"flags after the model", []string{outside, "--profile", "sonnx"}, 1, "axis [C1]"},
		{"json", []string{"--json", outside}, 1, `"rule": "axis [C1]"`},
		{"unreadable", []string{"--profile", "sonnx", garbage}, 2, ""},
		{"missing file", []string{filepath.Join(t.TempDir(), "none.onnx")}, 2, ""},
		{"other profile", []string{"--profile", "onnx", inside}, 2, ""},
		{"no model", []string{"--profile", "sonnx"}, 2, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := checkMain(tc.args, &stdout, &stderr)
			if code != tc.code {
				t.Errorf("exit %d, want %d; stdout:\n%s\nstderr:\n%s", code, tc.code, stdout.String(), stderr.String())
			}
			if !strings.Contains(stdout.String(), tc.stdout) {
				t.Errorf("stdout lacks %q:\n%s", tc.stdout, stdout.String())
			}
			if tc.code == 2 && tc.name != "no model" && stderr.Len() == 0 {
				t.Errorf("no error message on stderr")
			}
		})
	}
}

func TestCheckCommandJSON(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := checkMain([]string{"--json", concatModelFile(t, -1)}, &stdout, &stderr); code != 1 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	path := concatModelFile(t, -1)
	var rep struct {
		Inside      bool
		Summary     string
		Findings    []profile.Finding
		Tool        string
		ModelSHA256 string `json:"model_sha256"`
		Rules       []profile.RuleResult
	}
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatalf("%v:\n%s", err, stdout.String())
	}
	join := profile.Place{Kind: profile.PlaceNode, Name: "join", Index: 0}
	if rep.Inside || len(rep.Findings) != 1 || rep.Findings[0].Rule != "axis [C1]" || rep.Findings[0].Op != "Concat" ||
		!reflect.DeepEqual(rep.Findings[0].Where, join) || rep.Findings[0].Fix == "" || rep.Summary == "" {
		t.Errorf("report %+v", rep)
	}
	// What an assessor files beside the verdict: the tool, the model's
	// hash, and every rule that applies with its status, passed included.
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if sum := sha256.Sum256(b); rep.ModelSHA256 != hex.EncodeToString(sum[:]) || !strings.HasPrefix(rep.Tool, "onnxshape") {
		t.Errorf("tool %q, model_sha256 %q", rep.Tool, rep.ModelSHA256)
	}
	status := map[string]string{}
	for _, r := range rep.Rules {
		status[r.Rule] = r.Status
	}
	if status["Concat axis [C1]"] != profile.RuleBroken || status["GR1"] != profile.RulePassed || status["Concat inputs [C2]"] != profile.RuleNotChecked {
		t.Errorf("rules %v", status)
	}
}

// TestCheckNodeTests runs the command on every ONNX node test: none may
// crash or fail to read.
func TestCheckNodeTests(t *testing.T) {
	dir := os.Getenv("ONNXSHAPE_NODE_TESTS")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "shared", "onnx-node")
	}
	models, _ := filepath.Glob(filepath.Join(dir, "*", "model.onnx"))
	if len(models) == 0 {
		t.Skipf("ONNX node tests not found at %s; set ONNXSHAPE_NODE_TESTS", dir)
	}
	for _, path := range models {
		var stdout, stderr bytes.Buffer
		if code := checkMain([]string{"--profile", "sonnx", path}, &stdout, &stderr); code == 2 || stderr.Len() > 0 {
			t.Errorf("%s: exit %d: %s", path, code, stderr.String())
		}
	}
}

// TestCheckSummaryAndShapes: --summary counts findings and undecided nodes
// by rule and by operator instead of the lines; --input-shape (and
// --shape) fixes an input's declared shape as for infer.
func TestCheckSummaryAndShapes(t *testing.T) {
	path := concatModelFile(t, -2)
	var stdout, stderr bytes.Buffer
	if code := checkMain([]string{"--summary", path}, &stdout, &stderr); code != 1 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	out := stdout.String()
	for _, want := range []string{"rule", "findings  undecided", "axis [C1]", "operator", "Concat", "outside the SONNX profile"} {
		if !strings.Contains(out, want) {
			t.Errorf("--summary lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "is negative") {
		t.Errorf("--summary prints the findings' lines:\n%s", out)
	}
	stdout.Reset()
	if code := checkMain([]string{"--input-shape", "a=2,3", "--shape", "b=2,3", path}, &stdout, &stderr); code != 1 ||
		!strings.Contains(stdout.String(), `checked with the input shapes "a" [2 3], "b" [2 3]`) {
		t.Errorf("exit %d:\n%s", code, stdout.String())
	}
	stderr.Reset()
	if code := checkMain([]string{"--input-shape", "nosuch=2,3", path}, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), "no graph input") {
		t.Errorf("an input shape for no input: exit %d, %s", code, stderr.String())
	}
}
