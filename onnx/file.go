package onnx

import "github.com/onnxshape/onnxshape/internal/safefile"

// ErrNotRegular is wrapped by the errors refusing a path that is not a
// regular file: a named pipe, a device such as /dev/zero, a socket or a
// folder. Reading one could block forever or never end.
var ErrNotRegular = safefile.ErrNotRegular

// ErrTooLarge is wrapped by the errors refusing a file or a decoded model
// above the caps the caller set.
var ErrTooLarge = safefile.ErrTooLarge
