package conformance

import (
	"os"
	"path/filepath"
	"testing"
)

// The ONNX 1.12 test suite as Debian's package libonnx-testdata installs it:
// the node tests of that release and the model tests converted from PyTorch
// (pytorch-converted, pytorch-operator) and the simple models. The "real"
// folder (AlexNet, ResNet-50, ...) is left out: Debian ships only each
// model's download address (data.json), not the model; the whole networks
// onnxshape is measured on are the public models of scripts/models.sh and
// the generated zoo (bench/gen).
var onnx112Suites = []string{"node", "pytorch-converted", "pytorch-operator", "simple"}

// onnx112Dir is where the suite is: $ONNXSHAPE_ONNX112_TESTS, or Debian's
// path.
func onnx112Dir() string {
	if d := os.Getenv("ONNXSHAPE_ONNX112_TESTS"); d != "" {
		return d
	}
	return "/usr/share/libonnx-testdata/data"
}

// TestONNX112Suite runs every case of the ONNX 1.12 suite, when it is
// installed, and holds it to manifest-onnx112.txt, whose names are
// SUITE/CASE. With -update it rewrites that manifest from the results.
func TestONNX112Suite(t *testing.T) {
	root := onnx112Dir()
	if _, err := os.Stat(filepath.Join(root, "node")); err != nil {
		t.Skipf("the ONNX 1.12 test suite is not installed at %s (apt-get install libonnx-testdata, or set ONNXSHAPE_ONNX112_TESTS)", root)
	}
	const manifestPath = "manifest-onnx112.txt"
	manifest, err := ReadManifest(manifestPath)
	if err != nil && !*update {
		t.Fatal(err)
	}
	var results []Result
	for _, suite := range onnx112Suites {
		cases, err := FindCases(filepath.Join(root, suite))
		if err != nil {
			t.Fatal(err)
		}
		if len(cases) == 0 {
			t.Fatalf("no case under %s", filepath.Join(root, suite))
		}
		for _, c := range cases {
			r := RunCase(c, nil)
			r.Name = suite + "/" + r.Name
			results = append(results, r)
			if *update {
				continue
			}
			e, listed := manifest[r.Name]
			switch {
			case !listed:
				t.Errorf("%s %s: %s; the case is not in conformance/%s: run `go test ./conformance -update`", r.Status, r.Name, r.Reason, manifestPath)
			case e.Pass && r.Status != Pass:
				t.Errorf("%s %s: %s", r.Status, r.Name, r.Reason)
			case !e.Pass && r.Status == Pass:
				t.Logf("%s now passes: run `go test ./conformance -update`", r.Name)
			}
		}
	}
	if *update {
		if err := UpdateFile(manifestPath, results); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s rewritten from %d cases", manifestPath, len(results))
	}
}
