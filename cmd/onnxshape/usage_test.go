package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/onnxshape/onnxshape/profile"
)

type commandMain func(args []string, stdout, stderr *bytes.Buffer) int

var ownCommands = map[string]commandMain{
	"test":  func(a []string, o, e *bytes.Buffer) int { return testMain(a, o, e) },
	"bench": func(a []string, o, e *bytes.Buffer) int { return benchMain(a, o, e) },
	"check": func(a []string, o, e *bytes.Buffer) int { return checkMain(a, o, e) },
	"ops":   func(a []string, o, e *bytes.Buffer) int { return opsMain(a, o, e) },
	"trace": func(a []string, o, e *bytes.Buffer) int { return traceMain(a, o, e) },
}

// -h prints the usage and the flags on stdout and exits 0.
func TestHelpOnStdout(t *testing.T) {
	for name, run := range ownCommands {
		for _, flag := range []string{"-h", "--help"} {
			var stdout, stderr bytes.Buffer
			if code := run([]string{flag}, &stdout, &stderr); code != 0 || stderr.Len() != 0 ||
				!strings.HasPrefix(stdout.String(), "usage: onnxshape "+name) || !strings.Contains(stdout.String(), "flags:") {
				t.Errorf("%s %s: exit %d, stdout %q, stderr %q", name, flag, code, stdout.String(), stderr.String())
			}
		}
	}
}

// Every usage error is one line saying why, exit status 2.
func TestUsageErrorsSayWhy(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		command string
		args    []string
		want    string
	}{
		{"test", []string{"--frobnicate"}, "flag provided but not defined: -frobnicate"},
		{"test", []string{"--profile", "strict", dir}, "--profile must be onnx or sonnx"},
		{"test", []string{"--engine", "turbo", dir}, "--engine"},
		{"bench", nil, "give at least one DIR"},
		{"bench", []string{"--threads", "-3", dir}, "--threads is -3"},
		{"bench", []string{"--runs", "0", dir}, "--runs is 0"},
		{"bench", []string{"--format", "csv", dir}, `--format is "csv"`},
		{"bench", []string{"--run", "(", dir}, "--run"},
		{"check", nil, "give one MODEL, not 0"},
		{"check", []string{"a.onnx", "b.onnx"}, "give one MODEL, not 2"},
		{"check", []string{"--profile", "onnx", "a.onnx"}, "--profile must be sonnx"},
		{"ops", []string{"--markdown", "Conv"}, "operator names cannot be given with --markdown"},
	} {
		var stdout, stderr bytes.Buffer
		code := ownCommands[tc.command](tc.args, &stdout, &stderr)
		msg := stderr.String()
		if code != 2 || stdout.Len() != 0 || strings.Count(msg, "\n") != 1 ||
			!strings.HasPrefix(msg, "onnxshape "+tc.command+": ") || !strings.Contains(msg, tc.want) ||
			!strings.Contains(msg, "see onnxshape help "+tc.command) {
			t.Errorf("%s %q: exit %d, stderr %q; want %q", tc.command, tc.args, code, msg, tc.want)
		}
	}
}

// A folder without cases is a failure, not zero passes; symbolic links to
// case folders are followed.
func TestNoCasesAndSymlinks(t *testing.T) {
	empty := t.TempDir()
	for _, name := range []string{"test", "bench"} {
		var stdout, stderr bytes.Buffer
		if code := ownCommands[name]([]string{empty}, &stdout, &stderr); code != 1 || !strings.Contains(stderr.String(), "no ") {
			t.Errorf("%s on an empty folder: exit %d, stderr %q", name, code, stderr.String())
		}
	}

	real := filepath.Join(t.TempDir(), "elsewhere")
	writeCase(t, real, nil)
	links := t.TempDir()
	if err := os.Symlink(real, filepath.Join(links, "test_linked")); err != nil {
		t.Skip(err)
	}
	os.Symlink(links, filepath.Join(links, "loop")) // a cycle must end
	var stdout, stderr bytes.Buffer
	if code := testMain([]string{links}, &stdout, &stderr); code != 0 || stdout.String() != "PASS test_linked\n1 passed, 0 failed, 0 skipped, 0 excluded\n" {
		t.Errorf("linked case: exit %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}
}

// check --json prints the library's JSON of the report.
func TestCheckJSONIsTheLibrarys(t *testing.T) {
	path := concatModelFile(t, -1)
	var stdout, stderr bytes.Buffer
	checkMain([]string{"--json", path}, &stdout, &stderr)
	rep, err := profile.CheckFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if strings.TrimSpace(stdout.String()) != string(want) {
		t.Errorf("check --json:\n%s\njson.MarshalIndent(profile.CheckFile):\n%s", stdout.String(), want)
	}
	for _, field := range []string{`"verdict": "outside"`, `"inside": false`, `"summary": `, `"findings": [`} {
		if !strings.Contains(string(want), field) {
			t.Errorf("the library's JSON lacks %s", field)
		}
	}
}
