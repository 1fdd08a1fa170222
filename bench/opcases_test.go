package bench

import (
	"flag"
	"os"
	"testing"

	"github.com/onnxshape/onnxshape/ops"
)

var benchLarge = flag.Bool("bench-large", false, "also build and run the large size of every operator case")

// TestEveryOperatorHasACase fails for a registered operator that the
// every-operator benchmark does not measure: a new operator
// comes with its case in OperatorCases.
func TestEveryOperatorHasACase(t *testing.T) {
	has := map[string]bool{}
	names := map[string]bool{}
	for _, c := range OperatorCases() {
		has[c.Op] = true
		if names[c.Name] {
			t.Errorf("two cases named %s", c.Name)
		}
		names[c.Name] = true
	}
	for _, s := range ops.Schemas() {
		if s.Domain == "" && !has[s.Name] {
			t.Errorf("operator %s has no case in OperatorCases (bench/opcases.go)", s.Name)
		}
	}
}

// TestOperatorCasesRun builds every case at its small size and runs it
// once in onnxshape (Case does): each is a valid model whose outputs are
// tensors. The large sizes run with -bench-large (slow).
func TestOperatorCasesRun(t *testing.T) {
	dir := NodeTestsDir()
	_, err := os.Stat(dir)
	nodeTests := err == nil
	for _, c := range OperatorCases() {
		if !c.HasLarge() && !nodeTests {
			continue // the node tests are not here
		}
		for _, large := range []bool{false, true} {
			if large && (!*benchLarge || !c.HasLarge()) {
				continue
			}
			cs, err := c.Case(large, dir)
			if err != nil {
				t.Errorf("%s (large %v): %v", c.Name, large, err)
				continue
			}
			if !c.HasLarge() {
				r := RunOurs(cs, RunOptions{MeasureOptions: MeasureOptions{Runs: 1, MaxRuns: 1}})
				if r.Err != nil || r.Skipped != "" {
					t.Errorf("%s: %v %s", c.Name, r.Err, r.Skipped)
				}
			}
		}
	}
}
