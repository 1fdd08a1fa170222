package main

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/onnxshape/onnxshape/graph"
)

func TestPlan(t *testing.T) {
	const model = "../../examples/letterbox.onnx"
	m, err := graph.Load(model)
	if err != nil {
		t.Fatal(err)
	}
	want, err := m.MemoryPlan(context.Background(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := planMain([]string{model, "--steps"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	peak := want.Steps[want.PeakStep]
	head := fmt.Sprintf("peak: %d bytes (%s) at node %q (%s), step %d of %d", want.Peak, humanBytes(want.Peak), peak.Node, peak.Op, want.PeakStep+1, len(want.Steps))
	if lines[0] != head || len(lines) != 2+len(want.Steps) {
		t.Errorf("got\n%s\nwant the line %q and %d steps", stdout.String(), head, len(want.Steps))
	}

	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{model, "--shape", "image"}, 2, "want NAME=D,D,..."},
		{[]string{model, "--shape", "image=1,x"}, 2, "is not a count"},
		{[]string{model, "--shape", "nope=1"}, 1, `onnxshape plan: the model has no input "nope"`},
		{[]string{model, "--input-shape", "nope=1"}, 1, `onnxshape plan: the model has no input "nope"`},
		{[]string{model, "--input-shape", "image=1", "--shape", "image=2"}, 2, `the shape of "image" is given twice`},
		{[]string{model, "--max-run-bytes", "100"}, 1, "onnxshape plan: node"},
		{[]string{"does-not-exist.onnx"}, 1, "does-not-exist.onnx"},
		{nil, 2, "onnxshape plan: give one MODEL, not 0 (see onnxshape help plan)"},
	} {
		stdout.Reset()
		stderr.Reset()
		code := planMain(c.args, &stdout, &stderr)
		if code != c.code || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("%v: exit %d, %q; want %d, %q", c.args, code, stderr.String(), c.code, c.want)
		}
	}
	if got := humanBytes(3 << 30); got != "3.0 GiB" {
		t.Errorf("humanBytes: %s", got)
	}
}
