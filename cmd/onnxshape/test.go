package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/onnxshape/onnxshape/conformance"
	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/ops"
)

const testUsage = `usage: onnxshape test [DIR...] [--profile onnx|sonnx] [--engine fast|reference] [--fail-on-skip] [--update-manifest] [--manifest FILE]

Runs every ONNX node test found under DIR (a folder holding model.onnx and
test_data_set_*/; subfolders are searched) and prints one line a case,
PASS, FAIL with why, or SKIP (operator or version not implemented) with
why, then "N passed, N failed, N skipped, N excluded". Without DIR it runs
$ONNXSHAPE_NODE_TESTS, or ../shared/onnx-node (from the root of a checkout
beside the node tests).

The manifest (--manifest, by default conformance/manifest.txt when it is
there) says what each case is expected to do: a case it excludes that does
not pass prints EXCLUDED with the manifest's reason and the case's own,
and fails nothing; an excluded case that passes prints "PASS NAME (excluded
in the manifest: refresh it)"; a case listed as pass, or not listed, that
fails is a failure.

Exits 1 if any case failed outside the manifest's exclusions, if no case
passed (all skipped or excluded, or none found: symbolic links to folders
are followed), and with --fail-on-skip if any case not excluded was
skipped.

--update-manifest rewrites the manifest from the results: pass for the
cases that passed, exclude with the reason for the others; hand-written
reasons of exclusions that still fail are kept. --engine picks the fast
kernels or the reference engine's (the default under --profile sonnx).`

func init() {
	register("test", "run ONNX node tests (model.onnx + test_data_set_*) and report each case", func(args []string) int {
		return testMain(args, os.Stdout, os.Stderr)
	})
}

func testMain(args []string, stdout, stderr io.Writer) int {
	fs := commandFlags("test")
	profile := fs.String("profile", "onnx", "rules the operators follow: onnx or sonnx")
	engineName := fs.String("engine", "", "kernels to run: fast or reference (default: reference under --profile sonnx, else fast)")
	update := fs.Bool("update-manifest", false, "rewrite the manifest from the results")
	failOnSkip := fs.Bool("fail-on-skip", false, "exit 1 when a case is skipped (for CI)")
	manifest := fs.String("manifest", filepath.Join("conformance", "manifest.txt"), "the manifest --update-manifest rewrites")
	dirs, code, ok := parseCommand(fs, testUsage, args, stdout, stderr)
	if !ok {
		return code
	}
	p, err := parseProfile(*profile)
	if err != nil {
		return usageError(stderr, "test", "%v", err)
	}
	engine, err := graph.ParseEngine(*engineName)
	if err != nil {
		return usageError(stderr, "test", "--engine: %v", err)
	}
	if *update && p != ops.ProfileONNX {
		return usageError(stderr, "test", "the manifest records ONNX results: --update-manifest takes no --profile sonnx")
	}
	manifestGiven := false
	fs.Visit(func(f *flag.Flag) { manifestGiven = manifestGiven || f.Name == "manifest" })
	expected, err := conformance.ReadManifest(*manifest)
	switch {
	case err == nil:
	case *update || (!manifestGiven && os.IsNotExist(err)):
		expected = nil // none yet, or not run from the repository's root
	default:
		return usageError(stderr, "test", "--manifest: %v", err)
	}
	if len(dirs) == 0 {
		dirs = []string{defaultNodeTests()}
		if _, err := os.Stat(dirs[0]); err != nil {
			return usageError(stderr, "test", "no DIR given and %s, the default, cannot be read (%v): give the folder of the ONNX node tests, set ONNXSHAPE_NODE_TESTS, or fetch them with scripts/fetch-node-tests.sh", dirs[0], err)
		}
	}
	cases, err := conformance.FindCases(dirs...)
	if err != nil {
		fmt.Fprintln(stderr, "onnxshape test:", oneLine(err.Error()))
		return 1
	}
	if len(cases) == 0 {
		fmt.Fprintln(stderr, oneLine(fmt.Sprintf("onnxshape test: no test case under %s (a case is a folder holding model.onnx and test_data_set_*/)", strings.Join(dirs, ", "))))
		return 1
	}
	o := &graph.RunOptions{Profile: p, Engine: engine}
	var results []conformance.Result
	counts := map[conformance.Status]int{}
	refresh := 0 // excluded cases that pass
	for _, c := range cases {
		r := conformance.RunCase(c, o)
		results = append(results, r)
		e, listed := expected[r.Name]
		excluded := listed && !e.Pass
		switch {
		case r.Status == conformance.Pass && excluded:
			counts[r.Status]++
			refresh++
			fmt.Fprintf(stdout, "PASS %s (excluded in the manifest: refresh it)\n", r.Name)
		case r.Status == conformance.Pass:
			counts[r.Status]++
			fmt.Fprintf(stdout, "PASS %s\n", r.Name)
		case excluded:
			counts[excludedStatus]++
			fmt.Fprintf(stdout, "EXCLUDED %s: %s (%s: %s)\n", r.Name, e.Reason, strings.ToLower(string(r.Status)), r.Reason)
		default:
			counts[r.Status]++
			fmt.Fprintf(stdout, "%s %s: %s\n", r.Status, r.Name, r.Reason)
		}
	}
	fmt.Fprintf(stdout, "%d passed, %d failed, %d skipped, %d excluded\n", counts[conformance.Pass], counts[conformance.Fail], counts[conformance.Skip], counts[excludedStatus])
	if refresh > 0 && !*update {
		fmt.Fprintf(stdout, "%d excluded case(s) now pass: go run ./cmd/onnxshape test --update-manifest refreshes %s\n", refresh, *manifest)
	}
	if *update {
		if err := conformance.UpdateFile(*manifest, results); err != nil {
			fmt.Fprintln(stderr, "onnxshape test:", oneLine(err.Error()))
			return 1
		}
		fmt.Fprintf(stderr, "%s rewritten from %d cases\n", *manifest, len(results))
	}
	switch {
	case counts[conformance.Fail] > 0:
		return 1
	case counts[conformance.Pass] == 0:
		fmt.Fprintln(stderr, "onnxshape test: no case passed")
		return 1
	case *failOnSkip && counts[conformance.Skip] > 0:
		fmt.Fprintf(stderr, "onnxshape test: %d skipped (--fail-on-skip)\n", counts[conformance.Skip])
		return 1
	}
	return 0
}

// excludedStatus counts the cases the manifest excludes that did not pass.
const excludedStatus conformance.Status = "EXCLUDED"

// defaultNodeTests is where the ONNX node tests are looked for when no
// folder is given: $ONNXSHAPE_NODE_TESTS, or shared/onnx-node beside the
// repository (the command runs from the repository's root).
func defaultNodeTests() string {
	if d := os.Getenv("ONNXSHAPE_NODE_TESTS"); d != "" {
		return d
	}
	return filepath.Join("..", "shared", "onnx-node")
}
