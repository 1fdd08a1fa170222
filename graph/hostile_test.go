package graph_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/internal/testsupport/hostile"
	"github.com/onnxshape/onnxshape/tensor"
)

// TestHostileProbes loads and runs every in-process hostile probe
// (internal/testsupport/hostile.Probes: dims near 2^63, cycles, a value
// produced twice, 10^5 nodes, If nested 10^4 deep, tensors and attributes
// that announce 2^40 elements, external data out of the folder, truncated
// and garbage protobuf, operators asked for 10^12 elements, Loop and Scan
// counts of 10^12): each is refused with a one-line error, or runs, within
// seconds, with the process's allocations bounded. The run has a context
// of a few seconds, which a Loop without outputs must obey.
func TestHostileProbes(t *testing.T) {
	dir := t.TempDir()
	// A folder holding the model, one level down, so that the escaping
	// paths have somewhere to escape to.
	modelDir := filepath.Join(dir, "models")
	if err := os.MkdirAll(modelDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "escape.bin"), make([]byte, 16), 0o644); err != nil {
		t.Fatal(err)
	}
	const allowed = 256 << 20 // bytes a probe may allocate in all
	for _, p := range hostile.Probes() {
		t.Run(p.Name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			start := time.Now()
			err := loadAndRun(p, modelDir)
			elapsed := time.Since(start)
			runtime.ReadMemStats(&after)
			if err == nil && !p.Runs {
				t.Errorf("accepted; want a refusal")
			}
			if err != nil && strings.Contains(err.Error(), "\n") {
				t.Errorf("the error has more than one line: %q", err)
			}
			if elapsed > 20*time.Second {
				t.Errorf("took %s", elapsed)
			}
			if got := after.TotalAlloc - before.TotalAlloc; got > allowed && !p.Churn {
				t.Errorf("allocated %d MiB", got>>20)
			}
			if testing.Verbose() {
				t.Logf("%s in %s: %v", p.Name, elapsed.Round(time.Millisecond), err)
			}
		})
	}
}

func loadAndRun(p hostile.Probe, dir string) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = errors.New("PANIC") // reported as a failure below
			panic(r)
		}
	}()
	m, err := graph.LoadBytes(p.Model, dir)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	in := map[string]tensor.Value{}
	for k, v := range p.Inputs {
		in[k] = v
	}
	_, err = m.Run(ctx, in, &graph.RunOptions{Threads: 1})
	return err
}
