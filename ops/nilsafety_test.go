package ops

import (
	"fmt"
	"testing"

	"github.com/onnxshape/onnxshape/tensor"
)

// Every exported function of the package, given a nil *tensor.Tensor or a
// zero tensor.Tensor{} where it takes a tensor, returns an error: never a
// panic, never a result.
func TestPublicAPINilAndZeroTensors(t *testing.T) {
	one := func() *tensor.Tensor { return tensor.MustNew(tensor.Float, 1, 1, 2, 2) }
	for _, bad := range []*tensor.Tensor{nil, {}} {
		cases := map[string]func() (any, error){
			"CenterCropPad": func() (any, error) { return CenterCropPad(bad, CenterCropPadOptions{Shape: []int{1}}) },
			"Concat":        func() (any, error) { return Concat([]*tensor.Tensor{bad}, ConcatOptions{}) },
			"Concat second": func() (any, error) { return Concat([]*tensor.Tensor{one(), bad}, ConcatOptions{}) },
			"Constant":      func() (any, error) { return Constant(ConstantOptions{Value: bad}) },
			"DepthToSpace":  func() (any, error) { return DepthToSpace(bad, DepthToSpaceOptions{Blocksize: 1}) },
			"Expand":        func() (any, error) { return Expand(bad, ExpandOptions{Shape: []int{1}}) },
			"Flatten":       func() (any, error) { return Flatten(bad, FlattenOptions{}) },
			"Identity":      func() (any, error) { return Identity(bad) },
			"MaxPool": func() (any, error) {
				y, _, err := MaxPool(bad, MaxPoolOptions{KernelShape: []int{1, 1}})
				return y, err
			},
			"MaxUnpool X": func() (any, error) {
				return MaxUnpool(bad, tensor.MustNew(tensor.Int64, 1, 1, 2, 2), MaxUnpoolOptions{KernelShape: []int{1, 1}})
			},
			"MaxUnpool I":  func() (any, error) { return MaxUnpool(one(), bad, MaxUnpoolOptions{KernelShape: []int{1, 1}}) },
			"Pad":          func() (any, error) { return Pad(bad, PadOptions{Pads: []int{0, 0}}) },
			"Pad value":    func() (any, error) { return Pad(one(), PadOptions{Pads: make([]int, 8), ConstantValue: bad}) },
			"Reshape":      func() (any, error) { return Reshape(bad, ReshapeOptions{Shape: []int{1}}) },
			"Resize":       func() (any, error) { return Resize(bad, ResizeOptions{Scales: []float32{1}}) },
			"Shape":        func() (any, error) { return Shape(bad, ShapeOptions{}) },
			"Size":         func() (any, error) { return Size(bad) },
			"Slice":        func() (any, error) { return Slice(bad, SliceOptions{Starts: []int64{0}, Ends: []int64{1}}) },
			"SpaceToDepth": func() (any, error) { return SpaceToDepth(bad, SpaceToDepthOptions{Blocksize: 1}) },
			"Split":        func() (any, error) { return Split(bad, SplitOptions{NumOutputs: 1}) },
			"Squeeze":      func() (any, error) { return Squeeze(bad, SqueezeOptions{}) },
			"Tile":         func() (any, error) { return Tile(bad, TileOptions{Repeats: []int{1}}) },
			"Transpose":    func() (any, error) { return Transpose(bad, TransposeOptions{}) },
			"Unsqueeze":    func() (any, error) { return Unsqueeze(bad, UnsqueezeOptions{Axes: []int{0}}) },
			"Upsample":     func() (any, error) { return Upsample(bad, UpsampleOptions{Scales: []float32{1}}) },
		}
		if bad == nil {
			delete(cases, "Pad value") // a nil constant value means zero
		}
		for name, f := range cases {
			label := fmt.Sprintf("%s(%v)", name, describeBad(bad))
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Errorf("%s panicked: %v", label, r)
					}
				}()
				y, err := f()
				if err == nil {
					t.Errorf("%s returned %v and no error", label, y)
				}
			}()
		}
	}
}

// Every registered kernel, given a zero tensor.Tensor{} as any input,
// returns an error rather than panicking.
func TestKernelsZeroTensorInputs(t *testing.T) {
	for _, s := range Schemas() {
		most := s.Inputs[1]
		if most < 0 {
			most = 3
		}
		for i := range most {
			in := make([]tensor.Value, most)
			for j := range in {
				in[j] = tensor.MustNew(tensor.Int64, 1)
			}
			in[i] = &tensor.Tensor{}
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Errorf("%s-%d with input %d zero panicked: %v", s.Name, s.Since, i, r)
					}
				}()
				n := &Node{OpType: s.Name, Version: s.Since, NumOutputs: s.Outputs[1]}
				if _, err := s.Run(nil, n, in); err == nil {
					t.Errorf("%s-%d with input %d zero: no error", s.Name, s.Since, i)
				}
			}()
		}
	}
}

// Every registered kernel refuses a nil node.
func TestKernelsNilNode(t *testing.T) {
	for _, s := range Schemas() {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("%s-%d with a nil node panicked: %v", s.Name, s.Since, r)
				}
			}()
			if _, err := s.Run(nil, nil, nil); err == nil {
				t.Errorf("%s-%d with a nil node: no error", s.Name, s.Since)
			}
		}()
	}
}

func describeBad(t *tensor.Tensor) string {
	if t == nil {
		return "nil"
	}
	return "tensor.Tensor{}"
}
