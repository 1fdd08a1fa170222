//go:build unix

package main

import "syscall"

// brokenPipe is the signal that ends a process writing to a pipe whose
// reader has gone.
const brokenPipe = syscall.SIGPIPE
