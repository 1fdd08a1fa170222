package main

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/onnxshape/onnxshape/bench"
)

// writeStandard writes the standard cases named, at batch size 1, in a
// temporary folder.
func writeStandard(t *testing.T, names ...string) string {
	t.Helper()
	dir := t.TempDir()
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	for _, s := range bench.Standards() {
		if want[s.Name] {
			if err := s.Write(dir, 1); err != nil {
				t.Fatal(err)
			}
			delete(want, s.Name)
		}
	}
	if len(want) != 0 {
		t.Fatalf("no standard cases %v", want)
	}
	return dir
}

func TestBenchTSV(t *testing.T) {
	dir := writeStandard(t, "unsqueeze", "reshape")
	var out, errOut bytes.Buffer
	// Flags after the folder, as the usage line shows them.
	code := benchMain([]string{dir, "--format", "tsv", "--runs", "2", "--min-time", "0", "--threads", "1"}, &out, &errOut)
	if code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, errOut.String())
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if lines[0] != "case\tmedian_ms\tmin_ms\tbytes" {
		t.Errorf("header %q", lines[0])
	}
	if len(lines) != 3 {
		t.Fatalf("want a header and 2 cases, got:\n%s", out.String())
	}
	for i, name := range []string{"reshape", "unsqueeze"} {
		f := strings.Split(lines[i+1], "\t")
		if len(f) != 4 || f[0] != name || f[3] != "3211264" {
			t.Errorf("line %q: want %s with 3211264 bytes", lines[i+1], name)
		}
	}
}

func TestBenchTextAndRun(t *testing.T) {
	dir := writeStandard(t, "unsqueeze", "reshape")
	var out, errOut bytes.Buffer
	code := benchMain([]string{"--runs", "1", "--min-time", "0", "--run", "^unsq", dir}, &out, &errOut)
	if code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, errOut.String())
	}
	text := out.String()
	for _, want := range []string{"median ms", "allocs/op", "B/op", "unsqueeze"} {
		if !strings.Contains(text, want) {
			t.Errorf("text output lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "reshape") {
		t.Errorf("--run ^unsq also ran reshape:\n%s", text)
	}
}

func TestBenchUsage(t *testing.T) {
	for _, args := range [][]string{
		nil,
		{"--format", "csv", "x"},
		{"--runs", "0", "x"},
		{"--no-such-flag", "x"},
	} {
		var out, errOut bytes.Buffer
		if code := benchMain(args, &out, &errOut); code != 2 {
			t.Errorf("bench %q: exit %d, want 2", args, code)
		}
	}
	var out, errOut bytes.Buffer
	if code := benchMain([]string{t.TempDir() + "/missing"}, &out, &errOut); code != 1 {
		t.Errorf("a missing folder: exit %d, want 1", code)
	}
}

func TestBenchCPUProfile(t *testing.T) {
	dir := writeStandard(t, "unsqueeze")
	prof := t.TempDir() + "/cpu.prof"
	var out, errOut bytes.Buffer
	if code := benchMain([]string{dir, "--runs", "1", "--min-time", "0", "--cpuprofile", prof}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, errOut.String())
	}
	if fi, err := os.Stat(prof); err != nil || fi.Size() == 0 {
		t.Errorf("no profile written: %v", err)
	}
}

func TestBenchPool(t *testing.T) {
	dir := writeStandard(t, "tile_1122")
	var out, errOut bytes.Buffer
	if code := benchMain([]string{dir, "--pool", "--format", "tsv", "--runs", "2", "--min-time", "0"}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, errOut.String())
	}
	if !strings.Contains(out.String(), "tile_1122\t") {
		t.Errorf("no tile_1122 line:\n%s", out.String())
	}
}

// --nodes adds, after the table, the time per operator type and the
// slowest nodes of each case.
func TestBenchNodes(t *testing.T) {
	dir := writeStandard(t, "reshape")
	var out, errOut bytes.Buffer
	code := benchMain([]string{dir, "--runs", "2", "--min-time", "0", "--threads", "1", "--nodes", "3"}, &out, &errOut)
	if code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, errOut.String())
	}
	s := out.String()
	for _, want := range []string{"reshape: 1 nodes,", "ms/run", "share", "Reshape  ", "1x64x112x112 3 -> 1x64x12544", "the 1 slowest nodes:", "100.0%"} {
		if !strings.Contains(s, want) {
			t.Errorf("no %q in:\n%s", want, s)
		}
	}
	if code := benchMain([]string{dir, "--nodes", "-1"}, &out, &errOut); code == 0 {
		t.Errorf("--nodes -1 accepted")
	}
}
