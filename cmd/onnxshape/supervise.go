package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"sync/atomic"
	"syscall"
)

// inProcessEnv, when set, makes onnxshape run its command in its own
// process instead of a supervised child; the child itself is started with
// it set.
const inProcessEnv = "ONNXSHAPE_IN_PROCESS"

// supervise runs onnxshape with args in a child process and returns the
// child's exit status. What the child writes to stderr passes through line
// by line until the Go runtime reports a crash (a panic outside the main
// goroutine, "fatal error: runtime: out of memory", ...): that report is
// replaced by one line and the status becomes exitInternal, so that no
// input can make onnxshape print a stack trace or exit with a status the
// documentation gives another meaning. It returns ok false when no child
// can be started (platforms without processes); the caller then runs the
// command itself.
func supervise(args []string, stderr io.Writer) (code int, ok bool) {
	exe, err := os.Executable()
	if err != nil {
		return 0, false
	}
	return superviseChild(exe, args, stderr)
}

// superviseChild is supervise with the child's executable given.
func superviseChild(exe string, args []string, stderr io.Writer) (code int, ok bool) {
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), inProcessEnv+"=1")
	cmd.Stdin, cmd.Stdout = os.Stdin, os.Stdout
	pipe, err := cmd.StderrPipe()
	if err != nil {
		return 0, false
	}
	// The parent passes interrupts on to the child and waits for it to end.
	// It takes them before the child starts: a shell starts a background
	// job with SIGINT ignored, and a child started while the parent still
	// ignored it would ignore it too (Notify installs a handler, and exec
	// resets handled signals to their default, not ignored ones).
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(signals)
	// The child dies with the parent where the system allows it (see
	// dieWithParent).
	defer dieWithParent(cmd)()
	if err := cmd.Start(); err != nil {
		return 0, false
	}
	var stoppedBy atomic.Value // the os.Signal passed on, if any
	go func() {
		for sig := range signals {
			stoppedBy.Store(sig)
			cmd.Process.Signal(sig)
		}
	}()
	crash := filterCrash(pipe, stderr)
	err = cmd.Wait()
	var exit *exec.ExitError
	switch {
	case err == nil && crash == "":
		return exitOK, true
	case crash != "":
		fmt.Fprintln(stderr, "onnxshape: internal error:", crash)
	case errors.As(err, &exit) && exit.Exited():
		return exit.ExitCode(), true
	case errors.As(err, &exit) && killedBy(exit, brokenPipe):
		// Its reader went away (onnxshape run ... | head): as quiet as
		// the child itself would have been.
		return exitError, true
	case stoppedBy.Load() != nil: // the user's interrupt, not a bug
		fmt.Fprintln(stderr, "onnxshape: stopped by", stoppedBy.Load())
		return exitError, true
	default: // killed by another signal (the kernel's OOM killer), or Wait failed
		fmt.Fprintln(stderr, "onnxshape: internal error:", oneLine(err.Error()))
	}
	return exitInternal, true
}

// crashPrefixes start the first line of the Go runtime's crash reports.
var crashPrefixes = []string{"panic: ", "fatal error: ", "runtime: ", "SIGSEGV", "SIGBUS", "unexpected fault address", "goroutine "}

// filterCrash copies r to w line by line until a line starts a crash
// report, then drops the rest, returning that line ("" when none came).
// A line longer than maxPassedLine is cut there, never dropped.
func filterCrash(r io.Reader, w io.Writer) string {
	crash := ""
	eachLine(r, maxPassedLine, func(line string) {
		if crash == "" {
			for _, p := range crashPrefixes {
				if strings.HasPrefix(line, p) {
					crash = oneLine(line)
				}
			}
			if crash == "" {
				fmt.Fprintln(w, line)
			}
		} else if strings.HasPrefix(line, "fatal error: ") {
			crash = oneLine(line) // "runtime: out of memory: ..." comes first
		}
	})
	return crash
}

// maxPassedLine is the longest line of the child's stderr the supervisor
// passes on whole: the child's own lines are cut at maxErrorLine, with
// room for their prefix and the note of what was cut.
const maxPassedLine = 2 * maxErrorLine

// eachLine calls f with every line of r (without its newline), reading
// lines of any length in bounded memory: the part of a line beyond limit
// bytes is counted, not kept, and f gets the line cut as capLine cuts it.
// An unterminated last line is passed too.
func eachLine(r io.Reader, limit int, f func(string)) {
	br := bufio.NewReaderSize(r, 64<<10)
	var line []byte
	more := 0 // the bytes of the line beyond limit
	for {
		chunk, err := br.ReadSlice('\n')
		end := len(chunk) > 0 && chunk[len(chunk)-1] == '\n'
		if end {
			chunk = chunk[:len(chunk)-1]
		}
		take := min(max(limit-len(line), 0), len(chunk))
		line = append(line, chunk[:take]...)
		more += len(chunk) - take
		last := err != nil && err != bufio.ErrBufferFull
		if end || (last && (len(line) > 0 || more > 0)) {
			f(cutLine(line, more))
			line, more = line[:0], 0
		}
		if last {
			return
		}
	}
}

// killedBy reports whether the process ended by signal sig.
func killedBy(exit *exec.ExitError, sig syscall.Signal) bool {
	ws, ok := exit.Sys().(interface {
		Signaled() bool
		Signal() syscall.Signal
	})
	return ok && ws.Signaled() && ws.Signal() == sig
}
