package profile

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"

	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/onnx"
)

// CheckFile reads the model in the file at path and checks it as Check
// does, though it need not load; external data is read relative to the
// file's folder. The error is for a file that cannot be read (an io/fs
// error) or does not decode as ONNX (errors.Is(err,
// graph.ErrInvalidModel)); whatever decodes gets a Report.
func CheckFile(path string) (*Report, error) { return CheckFileWith(path, nil) }

// fileSHA256 is the SHA-256 of the file at path, read in blocks.
func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// CheckBytes is CheckFile for a model in memory; baseDir is the folder of
// its external data files ("" refuses external data).
func CheckBytes(b []byte, baseDir string) (*Report, error) {
	m, err := onnx.DecodeModel(b)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", graph.ErrInvalidModel, err)
	}
	rep := CheckProto(m, baseDir)
	rep.ModelSHA256 = sha256Hex(b)
	return rep, nil
}
