package infer_test

import (
	"context"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/infer"
	"github.com/onnxshape/onnxshape/internal/testsupport/hostile"
)

// TestHostileProbes infers every in-process hostile probe
// (internal/testsupport/hostile.Probes; graph's TestHostileProbes runs
// them): infer may refuse a probe or report problems, but must not panic,
// must return within seconds, and must not allocate what the probe
// announces (folding a ConstantOfShape of 10^12, say). What the loader
// refuses, it refuses or reports as a problem (a value produced twice it
// did not).
func TestHostileProbes(t *testing.T) {
	const allowed = 256 << 20
	for _, p := range hostile.Probes() {
		t.Run(p.Name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			start := time.Now()
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			res, err := infer.Bytes(ctx, p.Model, t.TempDir(), nil)
			elapsed := time.Since(start)
			runtime.ReadMemStats(&after)
			if err != nil && strings.Contains(err.Error(), "\n") {
				t.Errorf("the error has more than one line: %q", err)
			}
			if elapsed > 20*time.Second {
				t.Errorf("took %s", elapsed)
			}
			if got := after.TotalAlloc - before.TotalAlloc; got > allowed {
				t.Errorf("allocated %d MiB", got>>20)
			}
			// What the loader refuses, inference refuses or reports.
			if _, lerr := graph.LoadBytes(p.Model, t.TempDir()); lerr != nil && err == nil && (res == nil || len(res.Problems) == 0) {
				t.Errorf("the loader refuses (%v); infer reports no problem", lerr)
			}
			if testing.Verbose() {
				problems := 0
				if res != nil {
					problems = len(res.Problems)
				}
				t.Logf("%s in %s: %v (%d problems)", p.Name, elapsed.Round(time.Millisecond), err, problems)
			}
		})
	}
}
