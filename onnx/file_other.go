//go:build !unix

package onnx

// openNonBlocking is 0 where named pipes do not block open; the type of
// the file is checked before it is opened.
const openNonBlocking = 0
