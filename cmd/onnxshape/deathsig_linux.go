package main

import (
	"os/exec"
	"runtime"
	"syscall"
)

// dieWithParent makes the kernel kill the child when the thread that
// started it ends, so that a supervisor killed with SIGKILL (as
// exec.CommandContext does on cancel) takes its child with it. The
// parent-death signal follows the thread, not the process, so the calling
// goroutine keeps its thread until the returned release is called, after
// the child is done. (Not on 32-bit x86, whose runs under qemu-user, the
// way this project tests them, crash forking from a locked thread or with
// the signal set.)
func dieWithParent(cmd *exec.Cmd) (release func()) {
	runtime.LockOSThread()
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
	return runtime.UnlockOSThread
}
