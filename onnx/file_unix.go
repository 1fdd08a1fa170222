//go:build unix

package onnx

import "syscall"

// openNonBlocking keeps open from waiting for a writer when a path turns
// into a named pipe between the check of its type and the open.
const openNonBlocking = syscall.O_NONBLOCK
