//go:build !unix

package main

import "syscall"

// brokenPipe is a signal no process ends by where pipes raise no signal.
const brokenPipe = ^syscall.Signal(0)
