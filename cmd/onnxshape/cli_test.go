package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/onnxshape/onnxshape/examples"
	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/onnx"
	"github.com/onnxshape/onnxshape/tensor"
)

func TestDispatch(t *testing.T) {
	var stderr bytes.Buffer
	if code := dispatch(nil, &stderr); code != 2 || !strings.Contains(stderr.String(), "usage: onnxshape COMMAND") {
		t.Errorf("no command: exit %d, %q", code, stderr.String())
	}
	stderr.Reset()
	if code := dispatch([]string{"frobnicate"}, &stderr); code != 2 || stderr.String() != "onnxshape: no command \"frobnicate\"; see onnxshape help\n" {
		t.Errorf("unknown command: exit %d, %q", code, stderr.String())
	}
	commands["panics"] = command{"panics", "", func([]string) int { panic("boom") }}
	defer delete(commands, "panics")
	stderr.Reset()
	if code := dispatch([]string{"panics"}, &stderr); code != exitInternal || stderr.String() != "onnxshape: internal error: boom\n" {
		t.Errorf("panic: exit %d, %q", code, stderr.String())
	}
}

func TestParseFlags(t *testing.T) {
	fs := commandFlags("t")
	p := fs.String("profile", "onnx", "")
	pos, err := parseFlags(fs, []string{"a", "--profile", "sonnx", "b", "--", "-c"})
	if err != nil || strings.Join(pos, ",") != "a,b,-c" || *p != "sonnx" {
		t.Fatalf("got %v %v %s", pos, err, *p)
	}
}

func TestRunExample(t *testing.T) {
	var stdout, stderr bytes.Buffer
	out := t.TempDir()
	if code := runMain([]string{"--out", out}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	text := stdout.String()
	for _, want := range []string{"pixels: tensor(float)[1 4 12 12]\n[[[[0 0 0 ... 0 0 0]", "square: tensor(uint8)[1 4 6 6]\n[[[[0 0 0 0 0 0]\n", "wrote " + filepath.Join(out, "pixels.npy")} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q:\n%s", want, text)
		}
	}
	f, err := os.Open(filepath.Join(out, "square.npy"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	square, err := tensor.ReadNPY(f)
	if err != nil || !tensor.SameShape(square.Shape(), []int{1, 4, 6, 6}) {
		t.Fatalf("square.npy: %v %v", square, err)
	}
}

// writeCase writes the example model as a node-test case in dir, with its
// outputs as the expected ones, changed by edit if it is not nil.
func writeCase(t *testing.T, dir string, edit func(name string, v *tensor.Tensor) *tensor.Tensor) {
	t.Helper()
	m, err := graph.LoadBytes(examples.Model(), "")
	if err != nil {
		t.Fatal(err)
	}
	in, _ := examples.Inputs()
	out, err := m.Run(context.Background(), in, nil)
	if err != nil {
		t.Fatal(err)
	}
	set := filepath.Join(dir, "test_data_set_0")
	if err := os.MkdirAll(set, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(name string, v tensor.Value, file string) {
		b, err := onnx.EncodeValue(v, name)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(set, file), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("image", in["image"], "input_0.pb")
	for k, o := range m.Outputs() {
		v := out.Map()[o.Name].(*tensor.Tensor)
		if edit != nil {
			v = edit(o.Name, v)
		}
		write(o.Name, v, "output_"+string(rune('0'+k))+".pb")
	}
	if err := os.WriteFile(filepath.Join(dir, "model.onnx"), examples.Model(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestRunModelFolderAndInputs(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "test_letterbox")
	writeCase(t, dir, nil)
	npy := filepath.Join(t.TempDir(), "img.npy")
	var b bytes.Buffer
	in, _ := examples.Inputs()
	tensor.WriteNPY(&b, in["image"].(*tensor.Tensor))
	os.WriteFile(npy, b.Bytes(), 0o644)

	for _, tc := range []struct {
		name string
		args []string
		code int
		want string // in stdout when code is 0, in stderr otherwise
	}{
		{"folder with test data", []string{dir}, 0, "square: tensor(uint8)[1 4 6 6]"},
		{"model file, npy input", []string{filepath.Join(dir, "model.onnx"), "--input", "image=" + npy}, 0, "pixels: tensor(float)[1 4 12 12]"},
		{"unnamed input", []string{"--input", npy, filepath.Join(dir, "model.onnx")}, 0, "pixels: tensor(float)[1 4 12 12]"},
		{"pb input", []string{dir, "--input", "image=" + filepath.Join(dir, "test_data_set_0", "input_0.pb")}, 0, "pixels"},
		{"unknown input", []string{dir, "--input", "img=" + npy}, 1, `the model has no input "img" (it has "image")`},
		{"wrong file type", []string{dir, "--input", "image=" + filepath.Join(dir, "model.onnx")}, 1, "inputs are .npy or .pb files"},
		{"missing file", []string{dir, "--input", "image=/nonexistent.npy"}, 1, "nonexistent.npy"},
		{"input of another type", []string{dir, "--input", "image=" + filepath.Join(dir, "test_data_set_0", "output_1.pb")}, 1, `input "image"`},
		{"size limit", []string{dir, "--max-bytes", "100"}, 1, "above the limit of 100"},
		{"missing model", []string{"/nonexistent/model.onnx"}, 1, "onnxshape run: open /nonexistent/model.onnx"},
		{"two models", []string{dir, dir}, 2, "onnxshape run: give one MODEL, not 2"},
		{"bad profile", []string{dir, "--profile", "strict"}, 2, "--profile must be onnx or sonnx"},
		{"bad flag", []string{"--frobnicate"}, 2, "flag provided but not defined"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := runMain(tc.args, &stdout, &stderr)
			got := stdout.String()
			if tc.code != 0 {
				got = stderr.String()
			}
			if code != tc.code || !strings.Contains(got, tc.want) {
				t.Fatalf("exit %d (want %d), stdout:\n%s\nstderr:\n%s", code, tc.code, stdout.String(), stderr.String())
			}
			if code == 1 && strings.Count(stderr.String(), "\n") != 1 {
				t.Errorf("error is not one line: %q", stderr.String())
			}
		})
	}
}

func TestTestCommand(t *testing.T) {
	root := t.TempDir()
	writeCase(t, filepath.Join(root, "test_good"), nil)
	writeCase(t, filepath.Join(root, "nested", "test_bad"), func(name string, v *tensor.Tensor) *tensor.Tensor {
		if name != "square" {
			return v
		}
		b := append([]uint8{}, v.Bytes()...)
		b[4*6*6-1] = 7
		return tensor.MustFromSlice(b, v.Shape()...)
	})
	// A case whose model uses an operator onnxshape lacks is skipped.
	skip := filepath.Join(root, "test_skip")
	writeCase(t, skip, nil)
	p, _ := onnx.DecodeModel(examples.Model())
	p.Graph.Node[4].OpType = func(s string) *string { return &s }("Frobnicate")
	b, _ := onnx.EncodeModel(p)
	os.WriteFile(filepath.Join(skip, "model.onnx"), b, 0o644)

	var stdout, stderr bytes.Buffer
	manifest := filepath.Join(t.TempDir(), "manifest.txt")
	code := testMain([]string{root, "--update-manifest", "--manifest", manifest}, &stdout, &stderr)
	want := `FAIL test_bad: output 1 "square": element [0 3 5 5] is 0, want 7
PASS test_good
SKIP test_skip: node "upscale" (Frobnicate): unsupported operator: Frobnicate (model opset 21)
`
	if code != 1 || !strings.HasPrefix(stdout.String(), want) || !strings.HasSuffix(stdout.String(), "\n1 passed, 1 failed, 1 skipped, 0 excluded\n") {
		t.Fatalf("exit %d, stdout:\n%s\nstderr:\n%s", code, stdout.String(), stderr.String())
	}
	m, err := os.ReadFile(manifest)
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`(?m)^exclude test_bad fail: output 1 "square".*\npass test_good\nexclude test_skip skip: .*Frobnicate`).Match(m) {
		t.Fatalf("manifest:\n%s", m)
	}

	// Held to that manifest, the excluded failure and skip are reported
	// with their reasons and fail nothing.
	stdout.Reset()
	if code := testMain([]string{root, "--manifest", manifest}, &stdout, &stderr); code != 0 ||
		!strings.Contains(stdout.String(), `EXCLUDED test_bad: fail: output 1 "square"`) ||
		!strings.Contains(stdout.String(), "EXCLUDED test_skip: skip: ") ||
		!strings.HasSuffix(stdout.String(), "\n1 passed, 0 failed, 0 skipped, 2 excluded\n") {
		t.Fatalf("held to the manifest: exit %d, stdout:\n%s\nstderr:\n%s", code, stdout.String(), stderr.String())
	}
	// A case listed as pass that fails is a failure; an excluded case
	// that passes asks for the manifest to be refreshed.
	hand := filepath.Join(t.TempDir(), "manifest.txt")
	os.WriteFile(hand, []byte("pass test_bad\nexclude test_good a reason written by hand\nexclude test_skip Frobnicate is no operator\n"), 0o644)
	stdout.Reset()
	if code := testMain([]string{root, "--manifest", hand}, &stdout, &stderr); code != 1 ||
		!strings.Contains(stdout.String(), "FAIL test_bad: ") ||
		!strings.Contains(stdout.String(), "PASS test_good (excluded in the manifest: refresh it)\n") ||
		!strings.Contains(stdout.String(), "EXCLUDED test_skip: Frobnicate is no operator (skip: ") ||
		!strings.Contains(stdout.String(), "1 excluded case(s) now pass: go run ./cmd/onnxshape test --update-manifest refreshes") {
		t.Fatalf("a hand-written manifest: exit %d, stdout:\n%s", code, stdout.String())
	}
	if code := testMain([]string{root, "--manifest", filepath.Join(t.TempDir(), "none.txt")}, &stdout, &stderr); code != 2 {
		t.Fatalf("a manifest that is not there: exit %d", code)
	}

	// The example normalises with Cast, outside the profile's operator
	// set: under the profile its case fails naming the rule.
	stdout.Reset()
	if code := testMain([]string{filepath.Join(root, "test_good"), "--profile", "sonnx"}, &stdout, &stderr); code != 1 ||
		!strings.HasPrefix(stdout.String(), "FAIL test_good: the model is outside the SONNX profile") || !strings.Contains(stdout.String(), "(Cast-21) [OPS]") {
		t.Fatalf("exit %d, stdout:\n%s", code, stdout.String())
	}
	if code := testMain([]string{"--update-manifest", "--profile", "sonnx", root}, &stdout, &stderr); code != 2 {
		t.Fatalf("--update-manifest with sonnx: exit %d", code)
	}
	inside := filepath.Join(nodeTestsDir(t), "test_transpose_all_permutations_0")
	stdout.Reset()
	if code := testMain([]string{inside, "--profile", "sonnx"}, &stdout, &stderr); code != 0 ||
		stdout.String() != "PASS test_transpose_all_permutations_0\n1 passed, 0 failed, 0 skipped, 0 excluded\n" {
		t.Fatalf("a case inside the profile: exit %d, stdout:\n%s", code, stdout.String())
	}
}

func TestOpsCommand(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := opsMain(nil, &stdout, &stderr); code != 0 {
		t.Fatal(stderr.String())
	}
	if !regexp.MustCompile(`(?m)^OPERATOR +DOMAIN +SINCE VERSIONS\n`).MatchString(stdout.String()) ||
		!regexp.MustCompile(`(?m)^Unsqueeze +ai\.onnx +1 11 13 21`).MatchString(stdout.String()) {
		t.Fatalf("plain table:\n%s", stdout.String())
	}
	stdout.Reset()
	if code := opsMain([]string{"--markdown"}, &stdout, &stderr); code != 0 ||
		!strings.Contains(stdout.String(), "| Unsqueeze | ai.onnx | 1, 11, 13, 21") {
		t.Fatalf("markdown table:\n%s", stdout.String())
	}

	readme := filepath.Join(t.TempDir(), "README.md")
	os.WriteFile(readme, []byte("# x\n<!-- ops:begin -->\nold\n<!-- ops:end -->\nrest\n"), 0o644)
	if code := opsMain([]string{"--update-readme", readme}, &stdout, &stderr); code != 0 {
		t.Fatal(stderr.String())
	}
	b, _ := os.ReadFile(readme)
	if want := "# x\n<!-- ops:begin -->\n" + opsMarkdown() + "<!-- ops:end -->\nrest\n"; string(b) != want {
		t.Fatalf("got\n%s", b)
	}
}

// TestReadmeCoverageTable fails when README.md's operator table is not the
// one `onnxshape ops --markdown` prints, i.e. when an operator was added
// without refreshing it.
func TestReadmeCoverageTable(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	table, _, _, err := readmeTable(string(b))
	if err != nil {
		t.Fatal("README.md: ", err)
	}
	if strings.TrimSpace(table) != strings.TrimSpace(opsMarkdown()) {
		t.Fatalf("README.md's operator table is stale: run\n\tgo run ./cmd/onnxshape ops --update-readme README.md\nfrom the repository root. Current table:\n%s", opsMarkdown())
	}
}

func TestFileNames(t *testing.T) {
	dir := t.TempDir()
	x := tensor.MustFromSlice([]int64{1})
	outs := []graph.ValueInfo{{Name: "a/b"}, {Name: "a_b"}, {Name: ".."}, {Name: "bf"}}
	wide := tensor.MustFromSlice([]string{strings.Repeat("x", 100), "", "", ""})
	outs = append(outs, graph.ValueInfo{Name: "wide"}, graph.ValueInfo{Name: "narrow"})
	vals := map[string]tensor.Value{"a/b": x, "a_b": x, "..": x, "bf": tensor.MustNew(tensor.BFloat16, 2),
		"wide": wide, "narrow": tensor.MustFromSlice([]string{"ab", "c"})}
	var log bytes.Buffer
	// The .npy form of "wide" (4 strings of 100 UTF-32 characters) passes
	// the cap: it is written as .pb.
	if err := writeOutputs(dir, outs, vals, 1000, &log); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"a_b.npy", "a_b_2.npy", "output.npy", "bf.pb", "wide.pb", "narrow.npy"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("%s not written: %v\n%s", f, err, log.String())
		}
	}
}

// Under --profile sonnx, run refuses a model outside the profile before it
// runs, with the rule id, and runs one inside it.
func TestRunUnderProfile(t *testing.T) {
	var stdout, stderr bytes.Buffer
	// The bundled example normalises with Cast, outside the operator set.
	if code := runMain([]string{"--profile", "sonnx"}, &stdout, &stderr); code != 1 ||
		!strings.Contains(stderr.String(), "(Cast-21) [OPS]") || stdout.Len() != 0 {
		t.Fatalf("the bundled example under the profile: exit %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}
	inside := filepath.Join(nodeTestsDir(t), "test_transpose_all_permutations_0")
	stdout.Reset()
	stderr.Reset()
	if code := runMain([]string{"--profile", "sonnx", inside}, &stdout, &stderr); code != 0 {
		t.Fatalf("a model inside the profile: exit %d: %s", code, stderr.String())
	}
	tile := filepath.Join(nodeTestsDir(t), "test_tile")
	stdout.Reset()
	stderr.Reset()
	if code := runMain([]string{"--profile", "sonnx", tile}, &stdout, &stderr); code != 1 ||
		!strings.Contains(stderr.String(), "[OPS]") || stdout.Len() != 0 {
		t.Fatalf("Tile under the profile: exit %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}
	if code := runMain([]string{tile}, &stdout, &stderr); code != 0 {
		t.Fatalf("Tile under ONNX rules: exit %d: %s", code, stderr.String())
	}
}

// nodeTestsDir returns the ONNX node tests' folder, skipping the test when
// it is missing.
func nodeTestsDir(t *testing.T) string {
	dir := os.Getenv("ONNXSHAPE_NODE_TESTS")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "shared", "onnx-node")
	}
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("ONNX node tests not found at %s: scripts/fetch-node-tests.sh fetches them, or set ONNXSHAPE_NODE_TESTS", dir)
	}
	return dir
}

// run's help goes to stdout (for -h and `help run`), its usage errors to
// stderr as one line with the reason, exit 2, as every command's do.
func TestRunHelpAndUsageErrors(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := runMain([]string{"-h"}, &stdout, &stderr); code != 0 || !strings.HasPrefix(stdout.String(), "usage: onnxshape run") || stderr.Len() != 0 {
		t.Errorf("run -h: exit %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"m.onnx", "image=x.npy"}, "onnxshape run: give one MODEL, not 2 (m.onnx image=x.npy); inputs go with --input NAME=FILE"},
		{[]string{"a.onnx", "b.onnx"}, "onnxshape run: give one MODEL, not 2"},
		{[]string{"--threads", "-3"}, "onnxshape run: --threads is -3; give 0 (all cores) or more"},
		{[]string{"--engine", "warp"}, "onnxshape run: --engine:"},
		{[]string{"--nope"}, "onnxshape run: flag provided but not defined: -nope"},
	} {
		stdout.Reset()
		stderr.Reset()
		code := runMain(tc.args, &stdout, &stderr)
		if code != 2 || !strings.HasPrefix(stderr.String(), tc.want) || strings.Count(stderr.String(), "\n") != 1 ||
			!strings.Contains(stderr.String(), "(see onnxshape help run)") || stdout.Len() != 0 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and %q", tc.args, code, stdout.String(), stderr.String(), tc.want)
		}
	}
}

// --out is checked before the model runs: a destination that cannot take
// the outputs fails the command with nothing printed on stdout.
func TestRunOutCheckedFirst(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	readOnly := filepath.Join(dir, "ro")
	if err := os.Mkdir(readOnly, 0o555); err != nil {
		t.Fatal(err)
	}
	cases := []struct{ out, want string }{
		{filepath.Join(dir, "missing", "deeper"), "no such file or directory"},
		{file, "not a folder"},
	}
	if os.Getuid() != 0 { // root writes anywhere
		cases = append(cases, struct{ out, want string }{readOnly, "cannot write there"})
	}
	for _, tc := range cases {
		var stdout, stderr bytes.Buffer
		code := runMain([]string{"--out", tc.out}, &stdout, &stderr)
		if code != 1 || stdout.Len() != 0 || !strings.HasPrefix(stderr.String(), "onnxshape run: --out "+tc.out) ||
			!strings.Contains(stderr.String(), tc.want) {
			t.Errorf("--out %s: exit %d, stdout %q, stderr %q; want exit 1, nothing printed, %q", tc.out, code, stdout.String(), stderr.String(), tc.want)
		}
	}
	// A missing last folder is created, and the run writes there.
	fresh := filepath.Join(dir, "fresh")
	var stdout, stderr bytes.Buffer
	if code := runMain([]string{"--out", fresh}, &stdout, &stderr); code != 0 {
		t.Fatalf("--out %s: exit %d: %s", fresh, code, stderr.String())
	}
	entries, _ := os.ReadDir(fresh)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".onnxshape") {
			t.Errorf("the write test left %s behind", e.Name())
		}
	}
}

// `onnxshape help run` prints run's help on stdout, as run -h does.
func TestHelpRunOnStdout(t *testing.T) {
	var stderr bytes.Buffer
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	saved := os.Stdout
	os.Stdout = w
	code := dispatch([]string{"help", "run"}, &stderr)
	os.Stdout = saved
	w.Close()
	out, _ := io.ReadAll(r)
	if code != 0 || !strings.HasPrefix(string(out), "usage: onnxshape run") || stderr.Len() != 0 {
		t.Errorf("help run: exit %d, stdout %q, stderr %q", code, out, stderr.String())
	}
}

func TestOpsNamesAndModel(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := opsMain([]string{"conv", "ai.onnx.Relu", "Frobnicate"}, &stdout, &stderr); code != 1 ||
		!regexp.MustCompile(`^OPERATOR +DOMAIN +SINCE VERSIONS\nConv +ai\.onnx +1 11 22\nRelu +ai\.onnx +1 6 13 14\n$`).MatchString(stdout.String()) ||
		stderr.String() != "onnxshape ops: not implemented: Frobnicate\n" {
		t.Fatalf("exit %d, stdout:\n%s\nstderr: %s", code, stdout.String(), stderr.String())
	}

	// The example model, one node turned into an operator onnxshape lacks.
	p, _ := onnx.DecodeModel(examples.Model())
	p.Graph.Node[4].OpType = func(s string) *string { return &s }("Frobnicate")
	b, _ := onnx.EncodeModel(p)
	path := filepath.Join(t.TempDir(), "model.onnx")
	os.WriteFile(path, b, 0o644)
	stdout.Reset()
	stderr.Reset()
	if code := opsMain([]string{"--model", path}, &stdout, &stderr); code != 1 ||
		!regexp.MustCompile(`(?m)^Frobnicate +ai\.onnx +21 +1 +not supported\n`).MatchString(stdout.String()) ||
		!regexp.MustCompile(`(?m)^Transpose +ai\.onnx +21 +\d+ +Transpose-21\n`).MatchString(stdout.String()) ||
		!strings.Contains(stderr.String(), "operators are not supported: Frobnicate\n") {
		t.Fatalf("exit %d, stdout:\n%s\nstderr: %s", code, stdout.String(), stderr.String())
	}
	stdout.Reset()
	if code := opsMain([]string{"--model", path, "Conv"}, &stdout, &stderr); code != 2 {
		t.Fatalf("--model with names: exit %d", code)
	}
}

// A folder whose every case is skipped is no success, and --fail-on-skip
// fails on any skip.
func TestTestCommandSkips(t *testing.T) {
	root := t.TempDir()
	skip := filepath.Join(root, "test_skip")
	writeCase(t, skip, nil)
	p, _ := onnx.DecodeModel(examples.Model())
	p.Graph.Node[4].OpType = func(s string) *string { return &s }("Frobnicate")
	b, _ := onnx.EncodeModel(p)
	os.WriteFile(filepath.Join(skip, "model.onnx"), b, 0o644)
	var stdout, stderr bytes.Buffer
	if code := testMain([]string{root}, &stdout, &stderr); code != 1 || stderr.String() != "onnxshape test: no case passed\n" {
		t.Errorf("all skipped: exit %d, stderr %q", code, stderr.String())
	}
	writeCase(t, filepath.Join(root, "test_good"), nil)
	stderr.Reset()
	if code := testMain([]string{root}, &stdout, &stderr); code != 0 {
		t.Errorf("one pass, one skip: exit %d, stderr %q", code, stderr.String())
	}
	if code := testMain([]string{root, "--fail-on-skip"}, &stdout, &stderr); code != 1 || !strings.Contains(stderr.String(), "1 skipped (--fail-on-skip)") {
		t.Errorf("--fail-on-skip: exit %d, stderr %q", code, stderr.String())
	}
}
