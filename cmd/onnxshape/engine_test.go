package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

// run and test take --engine fast|reference; both engines print the same
// outputs for the bundled example and pass the same node test, and an
// unknown engine is a usage error.
func TestEngineFlag(t *testing.T) {
	var outputs []string
	for _, e := range []string{"fast", "reference"} {
		var stdout, stderr bytes.Buffer
		if code := runMain([]string{"--engine", e}, &stdout, &stderr); code != 0 {
			t.Fatalf("run --engine %s: exit %d: %s", e, code, stderr.String())
		}
		outputs = append(outputs, stdout.String())
		stdout.Reset()
		if code := testMain([]string{filepath.Join(nodeTestsDir(t), "test_transpose_default"), "--engine", e}, &stdout, &stderr); code != 0 ||
			!strings.HasPrefix(stdout.String(), "PASS test_transpose_default") {
			t.Fatalf("test --engine %s: exit %d: %s%s", e, code, stdout.String(), stderr.String())
		}
	}
	if outputs[0] != outputs[1] {
		t.Errorf("the engines print different outputs:\n%s\n%s", outputs[0], outputs[1])
	}
	var stdout, stderr bytes.Buffer
	if code := runMain([]string{"--engine", "slow"}, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), "unknown engine") {
		t.Errorf("run --engine slow: exit %d, %q", code, stderr.String())
	}
	stderr.Reset()
	if code := testMain([]string{"--engine", "slow"}, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), "unknown engine") {
		t.Errorf("test --engine slow: exit %d, %q", code, stderr.String())
	}
}
