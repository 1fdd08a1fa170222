package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// supervisorEnv makes TestSupervisorProcess act as a supervisor of a shell
// that records its pid in the named file and sleeps.
const supervisorEnv = "ONNXSHAPE_TEST_SUPERVISOR"

func TestSupervisorProcess(t *testing.T) {
	pidFile := os.Getenv(supervisorEnv)
	if pidFile == "" {
		t.Skip("run by TestChildDiesWithSupervisor as a child process")
	}
	var stderr bytes.Buffer
	superviseChild("/bin/sh", []string{"-c", "echo $$ > " + pidFile + "; exec sleep 60"}, &stderr)
}

// A supervisor killed outright (SIGKILL, as exec.CommandContext does on
// cancel) takes its child with it.
func TestChildDiesWithSupervisor(t *testing.T) {
	if os.Getenv("ONNXSHAPE_EMULATED") != "" {
		t.Skip("starts processes, which qemu-user's emulation does not survive reliably (see TestSupervise)")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	pidFile := filepath.Join(t.TempDir(), "child.pid")
	sup := exec.Command(exe, "-test.run=^TestSupervisorProcess$")
	sup.Env = append(os.Environ(), supervisorEnv+"="+pidFile)
	if err := sup.Start(); err != nil {
		t.Skip(err)
	}
	var pid int
	for deadline := time.Now().Add(10 * time.Second); pid == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			sup.Process.Kill()
			t.Fatal("the supervised child never started")
		}
		b, _ := os.ReadFile(pidFile)
		pid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
	}
	sup.Process.Kill()
	sup.Wait()
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if err := syscall.Kill(pid, 0); err != nil {
			return // gone
		}
		if b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat"); strings.Contains(string(b), ") Z ") {
			return // a zombie: dead, waiting for init to reap it
		}
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("child %d outlived its supervisor by 5 s", pid)
		}
	}
}
