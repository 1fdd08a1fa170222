package main

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/onnxshape/onnxshape/profile"
)

// trace --json prints profile.Trace, one item per row of docs/sonnx.md's
// table (profile.Rules); profile's TestTraceNamesExist checks that every
// function and test it names exists.
func TestTraceCommand(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := traceMain([]string{"--json"}, &stdout, &stderr); code != 0 || stderr.Len() > 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var items []profile.TraceItem
	if err := json.Unmarshal(stdout.Bytes(), &items); err != nil {
		t.Fatal(err)
	}
	if len(items) != len(profile.Rules) || !reflect.DeepEqual(items, profile.Trace()) {
		t.Fatalf("%d items, %d rules", len(items), len(profile.Rules))
	}
	for _, it := range items {
		if it.Key == "Clip L [C1]" && (it.Refusers[0] != "reference.clipBoundsSONNX" || it.Checkers[0] != "ops.clipSONNX" ||
			!strings.Contains(it.Spec, "clip/clip.md, Clip version 13")) {
			t.Errorf("item %+v", it)
		}
	}
	stdout.Reset()
	if code := traceMain(nil, &stdout, &stderr); code != 0 || !strings.Contains(stdout.String(), "Clip L [C1]: ") {
		t.Errorf("text: exit %d, %q", code, stdout.String()[:min(200, stdout.Len())])
	}
	if code := traceMain([]string{"x"}, &stdout, &stderr); code != 2 {
		t.Errorf("an argument: exit %d", code)
	}
}
