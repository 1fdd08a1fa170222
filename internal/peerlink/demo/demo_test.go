package demo

import (
	"strings"
	"testing"
)

func TestDemo(t *testing.T) {
	var out strings.Builder
	if err := Run(&out); err != nil {
		t.Fatal(err)
	}
	t.Log("\n" + out.String())
	for _, want := range []string{"missing: com.example.FusedThing (opset 1, 2 nodes)", "image: tensor(float)[1 3 6 8]", "step 2 [y stateN] [3 6]"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no %q in\n%s", want, out.String())
		}
	}
}
