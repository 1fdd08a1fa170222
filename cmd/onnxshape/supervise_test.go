package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"
)

// crashEnv makes TestCrashingChild crash the process as the Go runtime
// does when a goroutine panics: the child of TestSupervise.
const crashEnv = "ONNXSHAPE_TEST_CRASH"

func TestCrashingChild(t *testing.T) {
	switch os.Getenv(crashEnv) {
	case "":
		t.Skip("run by TestSupervise as a child process")
	case "panic":
		os.Stderr.WriteString("a line before the crash\n")
		go func() { panic("boom in a goroutine") }()
		time.Sleep(10 * time.Second)
	case "exit3":
		os.Stderr.WriteString("onnxshape check: undecided\n")
		os.Exit(3)
	}
}

func TestSupervise(t *testing.T) {
	if os.Getenv("ONNXSHAPE_EMULATED") != "" {
		// scripts/portability.sh's 32-bit run under qemu-user: the
		// emulator crashes now and then in a multi-threaded process that
		// forks ("morestack on g0" in exitsyscall), whatever the child.
		t.Skip("starts a child process, which qemu-user's emulation does not survive reliably")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	run := func(mode string) (int, string) {
		t.Setenv(crashEnv, mode)
		var stderr bytes.Buffer
		code, ok := superviseChild(exe, []string{"-test.run=^TestCrashingChild$"}, &stderr)
		if !ok {
			t.Skip("no child processes here")
		}
		return code, stderr.String()
	}
	code, stderr := run("panic")
	if code != exitInternal || stderr != "a line before the crash\nonnxshape: internal error: panic: boom in a goroutine\n" {
		t.Errorf("a crashing child: exit %d, stderr %q", code, stderr)
	}
	code, stderr = run("exit3")
	if code != 3 || stderr != "onnxshape check: undecided\n" {
		t.Errorf("a child exiting 3: exit %d, stderr %q", code, stderr)
	}
}

func TestFilterCrash(t *testing.T) {
	report := "runtime: out of memory: cannot allocate 4194304-byte block (3997696 in use)\nfatal error: out of memory\n\ngoroutine 1 gp=0xc000002380 m=0 mp=0x9b6f60 [running]:\nruntime.throw(...)\n"
	var out bytes.Buffer
	crash := filterCrash(strings.NewReader("onnxshape run: first\n"+report), &out)
	if crash != "fatal error: out of memory" || out.String() != "onnxshape run: first\n" {
		t.Errorf("crash %q, passed on %q", crash, out.String())
	}
	out.Reset()
	if crash := filterCrash(strings.NewReader("onnxshape run: refused\n"), &out); crash != "" || out.String() != "onnxshape run: refused\n" {
		t.Errorf("no crash: %q, passed on %q", crash, out.String())
	}
}
