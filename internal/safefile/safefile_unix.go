//go:build unix

package safefile

import "syscall"

// OpenNonBlocking keeps open from waiting for a writer when a path turns
// into a named pipe between the check of its type and the open.
const OpenNonBlocking = syscall.O_NONBLOCK
