// Package safefile opens, creates and reads files the way a program fed
// paths from outside must: only regular files (a named pipe or a device is
// refused at once instead of blocking or streaming forever), reads capped
// before they start. Packages onnx and the command line share it.
package safefile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
)

// ErrNotRegular is wrapped by the errors refusing a path that is not a
// regular file: a named pipe, a device such as /dev/zero, a socket or a
// folder. Reading one could block forever or never end.
var ErrNotRegular = errors.New("not a regular file")

// ErrTooLarge is wrapped by the errors refusing a file or a decoded model
// above the caps the caller set.
var ErrTooLarge = errors.New("too large")

// Open opens the file at path for reading only if it is a regular file,
// so that a named pipe or a device is refused at once instead of blocking
// or streaming forever. The file's type is checked before it is opened
// (opening a named pipe blocks until a writer comes), and again on the open
// file, which on Unix is opened non-blocking in case the path changed in
// between. The caller closes the file.
func Open(path string) (*os.File, fs.FileInfo, error) {
	info, err := os.Stat(path)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			pe.Op = "open" // as os.Open would say
		}
		return nil, nil, err
	}
	if err := Regular(path, info); err != nil {
		return nil, nil, err
	}
	f, err := os.OpenFile(path, os.O_RDONLY|OpenNonBlocking, 0)
	if err != nil {
		return nil, nil, err
	}
	opened, err := f.Stat()
	if err == nil {
		err = Regular(path, opened)
	}
	if err == nil && !os.SameFile(info, opened) {
		err = fmt.Errorf("%s changed while it was opened", path)
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, opened, nil
}

// Create creates the file at path for writing, or truncates it, only
// if it is (or will be) a regular file: a named pipe or a device in its
// place is refused at once, where opening it would wait for a reader or
// write somewhere else. The caller closes the file.
func Create(path string) (*os.File, error) {
	if info, err := os.Stat(path); err == nil {
		if err := Regular(path, info); err != nil {
			return nil, err
		}
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC|OpenNonBlocking, 0o644)
	if err != nil {
		return nil, err
	}
	if info, err := f.Stat(); err != nil || !info.Mode().IsRegular() {
		f.Close()
		if err == nil {
			err = Regular(path, info)
		}
		return nil, err
	}
	return f, nil
}

// Regular refuses every file type but a regular file, naming what the
// file at path is instead.
func Regular(path string, info fs.FileInfo) error {
	if info.Mode().IsRegular() {
		return nil
	}
	kind := "a special file"
	switch m := info.Mode(); {
	case m.IsDir():
		kind = "a folder"
	case m&fs.ModeNamedPipe != 0:
		kind = "a named pipe"
	case m&fs.ModeCharDevice != 0, m&fs.ModeDevice != 0:
		kind = "a device"
	case m&fs.ModeSocket != 0:
		kind = "a socket"
	}
	return fmt.Errorf("%s: %w (it is %s)", path, ErrNotRegular, kind)
}

// Read reads the regular file at path whole, refusing it before
// reading when it holds more than maxBytes bytes (negative: no cap). Data
// the file gains while it is read is not read past the cap either.
func Read(path string, maxBytes int64) ([]byte, error) {
	f, info, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if maxBytes >= 0 && info.Size() > maxBytes {
		return nil, fmt.Errorf("%s: %w: %d bytes, above the limit of %d", path, ErrTooLarge, info.Size(), maxBytes)
	}
	limit := info.Size()
	if limit >= math.MaxInt {
		return nil, fmt.Errorf("%s: %w: %d bytes do not fit in memory here", path, ErrTooLarge, limit)
	}
	b := make([]byte, 0, limit+1)
	b, err = readAllInto(b, io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("%s: the file grew while it was read", path)
	}
	return b, nil
}

// readAllInto appends what r holds to b, within b's capacity when it
// suffices.
func readAllInto(b []byte, r io.Reader) ([]byte, error) {
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
	}
}
