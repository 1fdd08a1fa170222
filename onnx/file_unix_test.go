//go:build unix

package onnx

import (
	"errors"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/onnxshape/onnxshape/internal/safefile"
	"github.com/onnxshape/onnxshape/tensor"
)

// withTimeout fails the test if f does not return within a few seconds:
// opening a named pipe for reading blocks until a writer comes.
func withTimeout(t *testing.T, what string, f func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		return err
	case <-time.After(5 * time.Second):
		t.Fatalf("%s: still blocked after 5 s", what)
		return nil
	}
}

func TestNamedPipesRefused(t *testing.T) {
	dir := t.TempDir()
	pipe := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(pipe, 0o644); err != nil {
		t.Skip("no named pipes here:", err)
	}
	err := withTimeout(t, "a pipe as model", func() error { _, err := ReadModel(pipe); return err })
	if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "a named pipe") {
		t.Errorf("a pipe as model: %v, want ErrNotRegular naming a named pipe", err)
	}
	tp := externalProto([]int64{1}, "pipe", "", "")
	err = withTimeout(t, "a pipe as external data", func() error { _, err := TensorFromProto(tp, dir); return err })
	if !errors.Is(err, ErrNotRegular) {
		t.Errorf("a pipe as external data: %v, want ErrNotRegular", err)
	}
	if err != nil && !errors.Is(err, tensor.ErrShape) && !strings.Contains(err.Error(), `external data "pipe"`) {
		t.Errorf("the error does not name the location: %v", err)
	}
}

func TestCreateFileRefusesPipes(t *testing.T) {
	pipe := filepath.Join(t.TempDir(), "out.npy")
	if err := syscall.Mkfifo(pipe, 0o644); err != nil {
		t.Skip("no named pipes here:", err)
	}
	err := withTimeout(t, "creating over a pipe", func() error { _, err := safefile.Create(pipe); return err })
	if !errors.Is(err, ErrNotRegular) {
		t.Errorf("a pipe as output: %v, want ErrNotRegular", err)
	}
	path := filepath.Join(t.TempDir(), "out.npy")
	f, err := safefile.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
}
