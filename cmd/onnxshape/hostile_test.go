//go:build unix

package main

import (
	"bytes"
	"context"
	"errors"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/onnxshape/onnxshape/internal/testsupport/hostile"
)

// buildCLI builds the onnxshape command into a folder the test removes
// and returns its path.
func buildCLI(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "onnxshape")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Skipf("cannot build the command: %v\n%s", err, out)
	}
	return bin
}

// headBuffer keeps the first max bytes written to it and counts them all.
type headBuffer struct {
	bytes.Buffer
	max, total int
}

func (h *headBuffer) Write(p []byte) (int, error) {
	h.total += len(p)
	if room := h.max - h.Len(); room > 0 {
		h.Buffer.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}

// loadFactor is how much longer than hostile.Seconds a case may take on
// the clock before it is killed as hung, for machines busy with other work:
// the time limit itself is on the CPU time the command uses (a hang on a
// pipe uses none and meets the clock's limit; quadratic work uses CPU).
const loadFactor = 3

// runLimited runs the built command with args under `ulimit -v`, in its
// own process group so that the timeout ends every process of it, the
// supervised child included. It fails the test when the command uses more
// than hostile.Seconds of CPU, or runs loadFactor times that on the clock.
func runLimited(t *testing.T, bin string, args []string, limitKiB int) (code int, stdout, stderr *headBuffer, cpu time.Duration) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), loadFactor*hostile.Seconds*time.Second)
	defer cancel()
	script := "ulimit -v " + strconv.Itoa(limitKiB) + ` && exec "$0" "$@"`
	cmd := exec.CommandContext(ctx, "bash", append([]string{"-c", script, bin}, args...)...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = time.Second
	stdout, stderr = &headBuffer{max: 1 << 20}, &headBuffer{max: 1 << 20}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("still running after %d s (killed)", loadFactor*hostile.Seconds)
	}
	// The CPU time of the process and of the children it waited for: the
	// supervised child.
	cpu = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	if cpu > hostile.Seconds*time.Second {
		t.Errorf("used %v of CPU, above %d s", cpu, hostile.Seconds)
	}
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit):
		code = exit.ExitCode()
	default:
		t.Fatalf("running the command: %v", err)
	}
	return code, stdout, stderr, cpu
}

// TestHostileCorpus runs the command on every file of the hostile corpus
// under `ulimit -v 4194304` and a limit of 20 s (of CPU; see
// runLimited): each must be
// refused with exit status 1 and one line on stderr, or, where the file is
// valid but large, succeed with bounded output.
func TestHostileCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("the hostile corpus takes tens of seconds; skipped under -short")
	}
	if raceEnabled {
		t.Skip("the hostile corpus runs the command without the race detector; skipped under -race")
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash to set ulimit")
	}
	bin := buildCLI(t)
	dir := t.TempDir()
	cases, err := hostile.Write(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			t.Logf("the hostile-file audit, class %q: onnxshape %s", c.Class, strings.Join(c.Args, " "))
			if c.Skipped != "" {
				t.Skip("not built on this machine:", c.Skipped)
			}
			limit := hostile.Limit
			if c.LimitKiB > 0 {
				limit = c.LimitKiB
			}
			code, stdout, stderr, cpu := runLimited(t, bin, c.Args, limit)
			t.Logf("exit %d after %v of CPU; stderr %q", code, cpu.Round(time.Millisecond), stderr.String())
			exits := c.Exits
			if exits == nil {
				exits = []int{1}
			}
			if !slices.Contains(exits, code) {
				t.Errorf("exit %d, want one of %v; stderr:\n%.2000s", code, exits, stderr.String())
			}
			oneLine := stderr.total <= stderr.max && strings.Count(stderr.String(), "\n") == 1 && strings.HasSuffix(stderr.String(), "\n")
			switch {
			case c.Report && stderr.total > 0 && !oneLine:
				t.Errorf("stderr is more than one line: %.2000q", stderr.String())
			case !c.Report && code != 0 && !oneLine:
				t.Errorf("stderr is not one line: %.2000q", stderr.String())
			case !c.Report && code == 0 && stderr.total != 0:
				t.Errorf("stderr of a success: %.2000q", stderr.String())
			}
			if (code == 0 || c.Report) && stdout.total > c.MaxStdout {
				t.Errorf("stdout has %d bytes, above %d", stdout.total, c.MaxStdout)
			}
		})
	}
}
