package bench

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/onnxshape/onnxshape/onnx"
	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/tensor"
)

// A Case is a benchmark case read from a node-test folder: the model and
// the values of test_data_set_0.
type Case struct {
	Name  string // the folder's name
	Dir   string
	Model *pb.ModelProto
	// Bytes, when set, is the encoded model of a case built in memory
	// (OperatorCases), which has no Dir.
	Bytes []byte
	// InputNames are the graph inputs that are not initializers, in the
	// model's order: input_K.pb holds the K-th.
	InputNames []string
	Inputs     map[string]tensor.Value
	// OutputNames are the graph outputs, in the model's order.
	OutputNames []string
}

// ModelPath is the path of the case's model file.
func (c *Case) ModelPath() string { return filepath.Join(c.Dir, "model.onnx") }

// Output returns the declared element type and shape of graph output i; ok
// is false when the model does not declare a tensor with a fixed shape.
func (c *Case) Output(i int) (dt tensor.DataType, shape []int, ok bool) {
	tt := c.Model.GetGraph().GetOutput()[i].GetType().GetTensorType()
	if tt == nil || tt.GetShape() == nil {
		return 0, nil, false
	}
	for _, d := range tt.GetShape().GetDim() {
		v, isValue := d.GetValue().(*pb.TensorShapeProto_Dimension_DimValue)
		if !isValue || v.DimValue < 0 {
			return 0, nil, false
		}
		shape = append(shape, int(v.DimValue))
	}
	return tensor.DataType(tt.GetElemType()), shape, true
}

// ReadCase reads the case in dir: dir/model.onnx and the inputs in
// dir/test_data_set_0.
func ReadCase(dir string) (*Case, error) {
	m, err := onnx.ReadModel(filepath.Join(dir, "model.onnx"))
	if err != nil {
		return nil, err
	}
	c := &Case{Name: filepath.Base(filepath.Clean(dir)), Dir: dir, Model: m, Inputs: map[string]tensor.Value{}}
	init := map[string]bool{}
	for _, t := range m.GetGraph().GetInitializer() {
		init[t.GetName()] = true
	}
	for _, out := range m.GetGraph().GetOutput() {
		c.OutputNames = append(c.OutputNames, out.GetName())
	}
	for _, in := range m.GetGraph().GetInput() {
		if init[in.GetName()] {
			continue
		}
		k := len(c.InputNames)
		b, err := os.ReadFile(filepath.Join(dir, "test_data_set_0", fmt.Sprintf("input_%d.pb", k)))
		if err != nil {
			return nil, fmt.Errorf("%s: input %s: %w", c.Name, in.GetName(), err)
		}
		v, _, err := onnx.DecodeValue(b, in.GetType())
		if err != nil {
			return nil, fmt.Errorf("%s: input_%d.pb: %w", c.Name, k, err)
		}
		c.InputNames = append(c.InputNames, in.GetName())
		c.Inputs[in.GetName()] = v
	}
	return c, nil
}
