package conformance

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/internal/storage"
	"github.com/onnxshape/onnxshape/ops"
)

var update = flag.Bool("update", false, "rewrite manifest.txt from the current results")

// nodeTestsDir is where the ONNX node tests are: $ONNXSHAPE_NODE_TESTS, or
// shared/onnx-node beside the repository.
func nodeTestsDir() string {
	if d := os.Getenv("ONNXSHAPE_NODE_TESTS"); d != "" {
		return d
	}
	return filepath.Join("..", "..", "shared", "onnx-node")
}

// requireNodeTests returns the node tests' folder, or skips the test,
// saying where it looked, when the folder is missing.
// passCases returns the folders of the node tests the manifest marks
// pass; the test is skipped where the node tests are not found.
func passCases(t *testing.T) []string {
	t.Helper()
	cases, err := FindCases(requireNodeTests(t))
	if err != nil {
		t.Fatal(err)
	}
	manifest, err := ReadManifest("manifest.txt")
	if err != nil {
		t.Fatal(err)
	}
	var pass []string
	for _, c := range cases {
		if e, ok := manifest[filepath.Base(c)]; ok && e.Pass {
			pass = append(pass, c)
		}
	}
	return pass
}

func requireNodeTests(t *testing.T) string {
	t.Helper()
	dir := nodeTestsDir()
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("ONNX node tests not found at %s: scripts/fetch-node-tests.sh fetches them, or set ONNXSHAPE_NODE_TESTS", dir)
	}
	return dir
}

// TestNodeTests runs every ONNX node test and holds it to manifest.txt:
// a pass case must pass, and every case must be listed. With -update it
// rewrites the manifest from the results instead.
func TestNodeTests(t *testing.T) {
	dir := requireNodeTests(t)
	cases, err := FindCases(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) == 0 {
		t.Fatalf("no node-test case under %s", dir)
	}
	manifest, err := ReadManifest("manifest.txt")
	if err != nil {
		t.Fatal(err)
	}
	var results []Result
	for _, c := range cases {
		r := RunCase(c, nil)
		results = append(results, r)
		if *update {
			continue
		}
		t.Run(r.Name, func(t *testing.T) {
			e, listed := manifest[r.Name]
			switch {
			case !listed:
				t.Errorf("%s %s: %s; the case is not in conformance/manifest.txt: add `pass %s` or `exclude %s REASON`, or run `go run ./cmd/onnxshape test -update-manifest`",
					r.Status, r.Name, r.Reason, r.Name, r.Name)
			case e.Pass && r.Status != Pass:
				t.Errorf("%s %s: %s", r.Status, r.Name, r.Reason)
			case !e.Pass && r.Status == Pass:
				t.Logf("%s now passes: change its line in manifest.txt to `pass %s`", r.Name, r.Name)
			case !e.Pass:
				t.Logf("excluded (%s): %s %s", e.Reason, r.Status, r.Reason)
			}
		})
	}
	if *update {
		if err := UpdateFile("manifest.txt", results); err != nil {
			t.Fatal(err)
		}
		t.Logf("manifest.txt rewritten from %d cases", len(results))
	}
}

// Under the SONNX profile, a case whose model leaves the profile fails with
// the rule id, and one inside it passes exactly as under ONNX rules.
func TestRunCaseUnderProfile(t *testing.T) {
	dir := requireNodeTests(t)
	o := &graph.RunOptions{Profile: ops.ProfileSONNX}
	if r := RunCase(filepath.Join(dir, "test_tile"), o); r.Status != Fail || !strings.Contains(r.Reason, "[OPS]") {
		t.Errorf("Tile under the profile: %+v", r)
	}
	if r := RunCase(filepath.Join(dir, "test_concat_2d_axis_0"), o); r.Status != Pass {
		t.Errorf("Concat along axis 0 is inside the profile: %+v", r)
	}
	if r := RunCase(filepath.Join(dir, "test_concat_2d_axis_negative_1"), o); r.Status != Fail || !strings.Contains(r.Reason, "Concat") {
		t.Errorf("a negative Concat axis is outside the profile: %+v", r)
	}
}

// Every node test passes as well when its run recycles storage, from a pool
// or the run's own spares, which hands kernels memory full of garbage (here
// a pattern, storage.PoisonRecycled): no kernel may depend on fresh memory
// being zero.
func TestNodeTestsWithRecycledStorage(t *testing.T) {
	cases := passCases(t)
	storage.PoisonRecycled.Store(true)
	defer storage.PoisonRecycled.Store(false)
	for _, c := range cases {
		name := filepath.Base(c)
		if r := RunCase(c, &graph.RunOptions{Pool: graph.NewPool()}); r.Status != Pass {
			t.Errorf("%s with a pool: %s %s", name, r.Status, r.Reason)
		}
		if r := runCase(c, nil, true); r.Status != Pass {
			t.Errorf("%s run twice: %s %s", name, r.Status, r.Reason)
		}
	}
}
