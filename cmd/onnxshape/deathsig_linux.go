package main

import (
	"os/exec"
	"syscall"
)

// dieWithParent makes the kernel kill the child when the thread that
// started it ends: a supervisor killed with SIGKILL (as
// exec.CommandContext does on cancel) takes its child with it.
func dieWithParent(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
}
