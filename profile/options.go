package profile

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/infer"
	"github.com/onnxshape/onnxshape/onnx"
)

// Options are the settings of CheckFileWith; the zero value, like nil,
// checks the model as CheckFile does.
type Options struct {
	// InputShapes replaces the declared shapes of graph inputs, by name,
	// as infer.Options.InputShapes does ({"x": {graph.Const(1),
	// graph.Const(3), graph.Const(224), graph.Const(224)}}): the check
	// reads the model as if it declared them, so that what fixed sizes
	// settle is decided before the run. Report.InputShapes records them.
	InputShapes map[string][]graph.Dim
}

// CheckFileWith is CheckFile under opt. Its error is also for an input
// shape given for a name that is no tensor input of the graph.
func CheckFileWith(path string, opt *Options) (*Report, error) {
	// Only a regular file, within the default caps (onnx.ReadModel): a
	// named pipe or a device is refused, not read.
	m, err := onnx.ReadModel(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) {
			return nil, err
		}
		return nil, fmt.Errorf("%w: %w", graph.ErrInvalidModel, err)
	}
	var shapes map[string][]graph.Dim
	if opt != nil && len(opt.InputShapes) > 0 {
		shapes = opt.InputShapes
		if m, err = infer.WithInputShapes(m, shapes); err != nil {
			return nil, err
		}
	}
	rep := CheckProto(m, filepath.Dir(path))
	rep.InputShapes = shapes
	if rep.ModelSHA256, err = fileSHA256(path); err != nil {
		return nil, err
	}
	return rep, nil
}
