package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/onnxshape/onnxshape/graph"
)

func TestVersionCommand(t *testing.T) {
	var out, errb bytes.Buffer
	if code := versionMain(nil, &out, &errb); code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
	if !strings.HasPrefix(out.String(), "onnxshape "+graph.Version) || strings.Count(out.String(), "\n") != 1 {
		t.Fatalf("printed %q, want one line starting %q", out.String(), "onnxshape "+graph.Version)
	}
	out.Reset()
	if code := versionMain([]string{"extra"}, &out, &errb); code != 2 {
		t.Fatalf("an argument: exit %d, want 2", code)
	}
}
