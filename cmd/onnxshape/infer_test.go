package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/onnxshape/onnxshape/onnx"
)

func TestInferCommand(t *testing.T) {
	model := filepath.Join("..", "..", "infer", "testdata", "flatten.onnx")
	var out, errb bytes.Buffer
	if code := inferMain([]string{model}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "float[N,3*H*W]") {
		t.Errorf("the flattened shape is missing:\n%s", out.String())
	}
	out.Reset()
	if code := inferMain([]string{model, "--json", "--input-shape", "x=2,3,H,5"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var doc struct {
		Values []struct {
			Name  string `json:"name"`
			Type  string `json:"type"`
			Shape []any  `json:"shape"`
		} `json:"values"`
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	last := doc.Values[len(doc.Values)-1]
	if last.Type != "float" || len(last.Shape) != 2 || last.Shape[0] != 2.0 || last.Shape[1] != "15*H" {
		t.Errorf("the output is %+v, want float [2, \"15*H\"]", last)
	}
	if code := inferMain([]string{model, "--input-shape", "y=1"}, &out, &errb); code != 2 {
		t.Errorf("an input shape of no input: exit %d", code)
	}
	if code := inferMain([]string{model, "--input-shape", "x=1,?"}, &out, &errb); code != 2 {
		t.Errorf("a malformed input shape: exit %d", code)
	}
}

func TestFoldCommand(t *testing.T) {
	model := filepath.Join("..", "..", "infer", "testdata", "attention.onnx")
	dst := filepath.Join(t.TempDir(), "folded.onnx")
	var out, errb bytes.Buffer
	if code := foldMain([]string{model, "-o", dst, "--input-shape", "x=1,8,64", "--annotate"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "16 nodes") || !strings.Contains(out.String(), "9 nodes") {
		t.Errorf("fold printed:\n%s", out.String())
	}
	m, err := onnx.ReadModel(dst)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Graph.ValueInfo) == 0 {
		t.Error("--annotate wrote no value_info")
	}
	for _, n := range m.Graph.Node {
		if n.GetOpType() == "Shape" || n.GetOpType() == "Gather" || n.GetOpType() == "Concat" {
			t.Errorf("a %s node is left", n.GetOpType())
		}
	}
	if code := foldMain([]string{model}, &out, &errb); code != 2 {
		t.Errorf("fold without -o: exit %d", code)
	}
}

// Names come from the model file: infer's text output writes a newline, an
// escape sequence's ESC or a byte that is no UTF-8 as its Go escape, so a
// name cannot forge a line or reach the terminal.
func TestPrintableNames(t *testing.T) {
	for in, want := range map[string]string{
		"x":                     "x",
		"a\nforged: line":       `a\nforged: line`,
		"\x1b[31mred":           `\x1b[31mred`,
		"tab\there":             `tab\there`,
		"caf\u00e9 \u2028 end":  `café \u2028 end`,
		"bad\x9bbyte":           `bad\x9bbyte`,
		"quote \" and \\ stays": "quote \" and \\ stays",
	} {
		if got := printable(in); got != want {
			t.Errorf("printable(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestInferFoldIfPolicy: infer and fold share one exit status on a model
// shaped like silero VAD: a declaration contradicted inside an If branch
// that may not run is a note (exit 0), in text and JSON alike.
func TestInferFoldIfPolicy(t *testing.T) {
	model := filepath.Join("..", "..", "infer", "testdata", "vad_if.onnx")
	var out, errb bytes.Buffer
	if code := inferMain([]string{model, "--input-shape", "x=1,512"}, &out, &errb); code != 0 {
		t.Fatalf("infer: exit %d: %s%s", code, out.String(), errb.String())
	}
	if !strings.Contains(out.String(), "note: node rnn/Identity (Identity)") || strings.Contains(out.String(), "Unsqueeze") {
		t.Errorf("infer printed:\n%s", out.String())
	}
	out.Reset()
	if code := inferMain([]string{model, "--json", "--input-shape", "x=1,512"}, &out, &errb); code != 0 {
		t.Fatalf("infer --json: exit %d: %s", code, errb.String())
	}
	var doc struct {
		Problems []struct {
			Kind, Branch string
		} `json:"problems"`
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Problems) != 1 || doc.Problems[0].Kind != "note" || doc.Problems[0].Branch != "If_2's else_branch" {
		t.Errorf("infer --json problems: %+v", doc.Problems)
	}
	out.Reset()
	dst := filepath.Join(t.TempDir(), "folded.onnx")
	if code := foldMain([]string{model, "-o", dst, "--input-shape", "x=1,512"}, &out, &errb); code != 0 {
		t.Fatalf("fold: exit %d: %s%s", code, out.String(), errb.String())
	}
	if !strings.Contains(out.String(), "note: node rnn/Identity (Identity)") {
		t.Errorf("fold printed:\n%s", out.String())
	}
}
