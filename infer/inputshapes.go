package infer

import (
	"fmt"
	"slices"

	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/onnx/pb"
	"google.golang.org/protobuf/proto"
)

// WithInputShapes returns a copy of mp whose graph inputs named in shapes
// declare those shapes (a number as a dim_value, a symbol or an expression
// as a dim_param), as Fold writes Options.InputShapes into the model it
// folds; mp is not modified. It fails for a name that is no tensor input
// of the main graph. A tool that reads declarations (the SONNX check) sees
// the model as inference does under the same InputShapes.
func WithInputShapes(mp *pb.ModelProto, shapes map[string][]graph.Dim) (*pb.ModelProto, error) {
	names := make([]string, 0, len(shapes))
	for name := range shapes {
		names = append(names, name)
	}
	slices.Sort(names) // the same error for the same mistake
	for _, name := range names {
		i := slices.IndexFunc(mp.GetGraph().GetInput(), func(vi *pb.ValueInfoProto) bool { return vi.GetName() == name })
		if i < 0 {
			return nil, fmt.Errorf("an input shape is given for %q, which is no graph input", name)
		}
		if mp.GetGraph().GetInput()[i].GetType().GetTensorType() == nil {
			return nil, fmt.Errorf("an input shape is given for %q, which is no tensor", name)
		}
	}
	m := proto.Clone(mp).(*pb.ModelProto)
	for _, in := range m.GetGraph().GetInput() {
		if dims, ok := shapes[in.GetName()]; ok {
			setShape(in, dims)
		}
	}
	return m, nil
}
