package builder

import (
	"fmt"
	"io"
	"os"

	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/tensor"
	"google.golang.org/protobuf/proto"
)

// Dim is one dimension of an input declared with InputDims: a fixed size
// (Fixed) or a symbolic name (Sym), which the model leaves for each run to
// choose, as ONNX's dim_param does.
type Dim = graph.Dim

// Fixed is a dimension of size n.
func Fixed(n int) Dim { return Dim{Size: n} }

// Sym is a symbolic dimension called name: "N", "height". Dimensions with
// the same name have the same length in a run.
func Sym(name string) Dim { return Dim{Size: -1, Name: name} }

// InputDims declares a graph input whose dimensions may be symbolic, so
// that one model serves every image size:
//
//	img := b.InputDims("image", tensor.Uint8, builder.Fixed(1), builder.Sym("H"), builder.Sym("W"), builder.Fixed(3))
//
// Model checks the graph by running it on zeros twice, each symbolic
// dimension given two different lengths (ProbeSize sets the first); an
// output dimension that follows a symbolic one is declared by its name,
// one that changes otherwise is left unknown.
func (b *Builder) InputDims(name string, dt tensor.DataType, dims ...Dim) Value {
	v := b.claim(name)
	if b.err != nil {
		return v
	}
	if !dt.Valid() {
		b.fail("input %q: %d is not an ONNX element type", name, dt)
		return v
	}
	pdims := make([]*pb.TensorShapeProto_Dimension, len(dims))
	for i, d := range dims {
		switch {
		case d.Name == "" && d.Size >= 0:
			pdims[i] = &pb.TensorShapeProto_Dimension{Value: &pb.TensorShapeProto_Dimension_DimValue{DimValue: int64(d.Size)}}
		case d.Name != "" && d.Size < 0:
			pdims[i] = &pb.TensorShapeProto_Dimension{Value: &pb.TensorShapeProto_Dimension_DimParam{DimParam: d.Name}}
		default:
			b.fail("input %q: dimension %d (%+v) is neither a size >= 0 (Fixed) nor a name (Sym)", name, i, d)
			return v
		}
	}
	b.g.Input = append(b.g.Input, &pb.ValueInfoProto{
		Name: proto.String(name),
		Type: &pb.TypeProto{Value: &pb.TypeProto_TensorType{TensorType: &pb.TypeProto_Tensor{
			ElemType: proto.Int32(int32(dt)),
			Shape:    &pb.TensorShapeProto{Dim: pdims},
		}}},
	})
	return v
}

// ProbeSize sets the length the symbolic dimension name takes in the first
// of Model's two check runs (the second doubles it). By default each name
// takes a distinct small prime; set it when the graph needs a larger
// length (a crop of 100 rows needs H >= 100) or a multiple of something.
func (b *Builder) ProbeSize(name string, n int) {
	if n < 1 {
		b.fail("probe size of %q is %d, not a positive length", name, n)
		return
	}
	if b.probeSizes == nil {
		b.probeSizes = map[string]int{}
	}
	b.probeSizes[name] = n
}

// probeLengths returns the length of each symbolic dimension of the
// inputs in check run 0 or 1.
func (b *Builder) probeLengths(inputs []*pb.ValueInfoProto, run int) map[string]int {
	primes := []int{17, 19, 23, 29, 31, 37, 41, 43, 47, 53}
	lengths := map[string]int{}
	for _, in := range inputs {
		for _, d := range in.GetType().GetTensorType().GetShape().GetDim() {
			p := d.GetDimParam()
			if p == "" {
				continue
			}
			if _, ok := lengths[p]; ok {
				continue
			}
			n, ok := b.probeSizes[p]
			if !ok {
				n = 59 + 2*len(lengths)
				if len(lengths) < len(primes) {
					n = primes[len(lengths)]
				}
			}
			lengths[p] = n
		}
	}
	if run == 1 {
		for p, n := range lengths {
			lengths[p] = 2 * n
		}
	}
	return lengths
}

// probeShape is the shape of a check run's zero input declared with dims.
func probeShape(dims []*pb.TensorShapeProto_Dimension, lengths map[string]int) []int {
	shape := make([]int, len(dims))
	for i, d := range dims {
		shape[i] = int(d.GetDimValue())
		if p := d.GetDimParam(); p != "" {
			shape[i] = lengths[p]
		}
	}
	return shape
}

// declaredDims compares a value's shapes in the two check runs: a
// dimension equal in both is fixed, one that is a symbolic dimension's
// length in both runs takes its name, any other is unknown.
func declaredDims(first, second []int, lengths0, lengths1 map[string]int) []*pb.TensorShapeProto_Dimension {
	dims := make([]*pb.TensorShapeProto_Dimension, len(first))
	for i, d := range first {
		dims[i] = &pb.TensorShapeProto_Dimension{}
		if second == nil || d == second[i] {
			dims[i].Value = &pb.TensorShapeProto_Dimension_DimValue{DimValue: int64(d)}
			continue
		}
		for p, n := range lengths0 {
			if n == d && lengths1[p] == second[i] {
				dims[i].Value = &pb.TensorShapeProto_Dimension_DimParam{DimParam: p}
				break
			}
		}
	}
	return dims
}

// Build returns the model loaded and ready to run, as graph.Load would
// return it from the bytes of Encode.
func (b *Builder) Build() (*graph.Model, error) {
	data, err := b.Encode()
	if err != nil {
		return nil, err
	}
	return graph.LoadBytes(data, "")
}

// WriteTo writes the model's bytes (those of Encode) to w.
func (b *Builder) WriteTo(w io.Writer) (int64, error) {
	data, err := b.Encode()
	if err != nil {
		return 0, err
	}
	n, err := w.Write(data)
	return int64(n), err
}

// Save writes the model to a .onnx file at path. Nothing is written when
// the model does not build.
func (b *Builder) Save(path string) error {
	data, err := b.Encode()
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return fmt.Errorf("builder: %w", err)
	}
	return nil
}

// Node adds a node of operator op reading inputs (None for an optional
// input left out) and returns its one output: Op with the inputs and the
// attributes typed apart, so that a misplaced argument does not compile.
func (b *Builder) Node(op string, inputs []Value, attrs ...Attr) Value {
	out := b.NodeN(op, 1, inputs, attrs...)
	if len(out) == 0 {
		return Value{}
	}
	return out[0]
}

// NodeN is Node for an operator with n outputs.
func (b *Builder) NodeN(op string, n int, inputs []Value, attrs ...Attr) []Value {
	args := make([]any, 0, len(inputs)+len(attrs))
	for _, v := range inputs {
		args = append(args, v)
	}
	for _, a := range attrs {
		args = append(args, a)
	}
	return b.OpN(op, n, args...)
}
