package profile

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/onnx"
)

// CheckFile reads the model in the file at path and checks it as Check
// does, external data read relative to the file's folder. The error is for
// a file that cannot be read (an io/fs error) or does not decode as ONNX
// (errors.Is(err, graph.ErrInvalidModel)); whatever decodes gets a Report.
func CheckFile(path string) (*Report, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	rep, err := CheckBytes(b, filepath.Dir(path))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return rep, nil
}

// CheckBytes is CheckFile for a model in memory; baseDir is the folder of
// its external data files ("" refuses external data).
func CheckBytes(b []byte, baseDir string) (*Report, error) {
	m, err := onnx.DecodeModel(b)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", graph.ErrInvalidModel, err)
	}
	return Check(m, baseDir), nil
}
