//go:build !linux

package main

import "os/exec"

// dieWithParent does nothing where the system has no parent-death signal:
// there a supervisor
// killed outright leaves its child to finish alone.
func dieWithParent(*exec.Cmd) (release func()) { return func() {} }
