package profile

import (
	"path/filepath"

	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/internal/safefile"
	"github.com/onnxshape/onnxshape/onnx"
	"github.com/onnxshape/onnxshape/ops"
)

// Load reads the model at path and returns it unless it is outside the
// profile (then the *ViolationError of Enforce). Run it with RunOptions, so
// that the rules the check left undecided are checked on the values the
// run meets: every operator's constraints, and every node's outputs against
// the model's declarations.
func Load(path string) (*graph.Model, error) {
	b, err := safefile.Read(path, onnx.DefaultMaxModelBytes) // regular files only: a pipe would block
	if err != nil {
		return nil, err
	}
	return LoadBytes(b, filepath.Dir(path))
}

// LoadBytes is Load for a model in memory; baseDir is the folder of its
// external data files ("" refuses external data).
func LoadBytes(b []byte, baseDir string) (*graph.Model, error) {
	m, err := onnx.DecodeModel(b)
	if err != nil {
		return nil, err
	}
	if err := enforce(m, baseDir); err != nil {
		return nil, err
	}
	return graph.FromProto(m, baseDir)
}

// RunOptions returns the run options of the profile: every operator checks
// the SONNX constraints and refuses what the profile leaves undefined.
func RunOptions() *graph.RunOptions {
	return &graph.RunOptions{Profile: ops.ProfileSONNX}
}
