package ops_test

import (
	"context"
	"errors"
	"testing"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// plainCalls runs every exported operator function with the options given;
// the inputs are nil or tiny, since a refused context must stop each of
// them before it looks at its inputs.
var plainCalls = map[string]func(opts ...ops.Option) error{
	"Add":    func(o ...ops.Option) error { _, err := ops.Add(nil, nil, o...); return err },
	"ArgMax": func(o ...ops.Option) error { _, err := ops.ArgMax(nil, ops.ArgMaxOptions{}, o...); return err },
	"AveragePool": func(o ...ops.Option) error {
		_, err := ops.AveragePool(nil, ops.AveragePoolOptions{}, o...)
		return err
	},
	"Cast": func(o ...ops.Option) error {
		_, err := ops.Cast(nil, ops.CastOptions{To: tensor.Float}, o...)
		return err
	},
	"CenterCropPad": func(o ...ops.Option) error {
		_, err := ops.CenterCropPad(nil, ops.CenterCropPadOptions{}, o...)
		return err
	},
	"Clip":   func(o ...ops.Option) error { _, err := ops.Clip(nil, nil, nil, o...); return err },
	"Concat": func(o ...ops.Option) error { _, err := ops.Concat(nil, ops.ConcatOptions{}, o...); return err },
	"Constant": func(o ...ops.Option) error {
		_, err := ops.Constant(ops.ConstantOptions{ValueInts: []int64{1}}, o...)
		return err
	},
	"ConstantOfShape": func(o ...ops.Option) error {
		_, err := ops.ConstantOfShape([]int{2}, ops.ConstantOfShapeOptions{}, o...)
		return err
	},
	"DepthToSpace": func(o ...ops.Option) error {
		_, err := ops.DepthToSpace(nil, ops.DepthToSpaceOptions{}, o...)
		return err
	},
	"Div":     func(o ...ops.Option) error { _, err := ops.Div(nil, nil, o...); return err },
	"Expand":  func(o ...ops.Option) error { _, err := ops.Expand(nil, ops.ExpandOptions{}, o...); return err },
	"Flatten": func(o ...ops.Option) error { _, err := ops.Flatten(nil, ops.FlattenOptions{}, o...); return err },
	"Gather":  func(o ...ops.Option) error { _, err := ops.Gather(nil, nil, ops.GatherOptions{}, o...); return err },
	"GatherElements": func(o ...ops.Option) error {
		_, err := ops.GatherElements(nil, nil, ops.GatherElementsOptions{}, o...)
		return err
	},
	"GatherND":          func(o ...ops.Option) error { _, err := ops.GatherND(nil, nil, ops.GatherNDOptions{}, o...); return err },
	"GlobalAveragePool": func(o ...ops.Option) error { _, err := ops.GlobalAveragePool(nil, o...); return err },
	"Greater":           func(o ...ops.Option) error { _, err := ops.Greater(nil, nil, o...); return err },
	"Identity": func(o ...ops.Option) error {
		_, err := ops.Identity(tensor.MustFromSlice([]float32{1}), o...)
		return err
	},
	"MaxPool": func(o ...ops.Option) error { _, _, err := ops.MaxPool(nil, ops.MaxPoolOptions{}, o...); return err },
	"MaxUnpool": func(o ...ops.Option) error {
		_, err := ops.MaxUnpool(nil, nil, ops.MaxUnpoolOptions{}, o...)
		return err
	},
	"Mul":        func(o ...ops.Option) error { _, err := ops.Mul(nil, nil, o...); return err },
	"Pad":        func(o ...ops.Option) error { _, err := ops.Pad(nil, ops.PadOptions{}, o...); return err },
	"Pow":        func(o ...ops.Option) error { _, err := ops.Pow(nil, nil, o...); return err },
	"Range":      func(o ...ops.Option) error { _, err := ops.Range(nil, nil, nil, o...); return err },
	"ReduceMax":  func(o ...ops.Option) error { _, err := ops.ReduceMax(nil, ops.ReduceOptions{}, o...); return err },
	"ReduceMean": func(o ...ops.Option) error { _, err := ops.ReduceMean(nil, ops.ReduceOptions{}, o...); return err },
	"ReduceSum":  func(o ...ops.Option) error { _, err := ops.ReduceSum(nil, ops.ReduceOptions{}, o...); return err },
	"Relu":       func(o ...ops.Option) error { _, err := ops.Relu(nil, o...); return err },
	"Reshape":    func(o ...ops.Option) error { _, err := ops.Reshape(nil, ops.ReshapeOptions{}, o...); return err },
	"Resize":     func(o ...ops.Option) error { _, err := ops.Resize(nil, ops.ResizeOptions{}, o...); return err },
	"ScatterElements": func(o ...ops.Option) error {
		_, err := ops.ScatterElements(nil, nil, nil, ops.ScatterElementsOptions{}, o...)
		return err
	},
	"ScatterND": func(o ...ops.Option) error {
		_, err := ops.ScatterND(nil, nil, nil, ops.ScatterNDOptions{}, o...)
		return err
	},
	"Shape":   func(o ...ops.Option) error { _, err := ops.Shape(nil, ops.ShapeOptions{}, o...); return err },
	"Sigmoid": func(o ...ops.Option) error { _, err := ops.Sigmoid(nil, o...); return err },
	"Size":    func(o ...ops.Option) error { _, err := ops.Size(nil, o...); return err },
	"Slice":   func(o ...ops.Option) error { _, err := ops.Slice(nil, ops.SliceOptions{}, o...); return err },
	"Softmax": func(o ...ops.Option) error { _, err := ops.Softmax(nil, ops.SoftmaxOptions{}, o...); return err },
	"SpaceToDepth": func(o ...ops.Option) error {
		_, err := ops.SpaceToDepth(nil, ops.SpaceToDepthOptions{}, o...)
		return err
	},
	"Split":     func(o ...ops.Option) error { _, err := ops.Split(nil, ops.SplitOptions{}, o...); return err },
	"Squeeze":   func(o ...ops.Option) error { _, err := ops.Squeeze(nil, ops.SqueezeOptions{}, o...); return err },
	"Sub":       func(o ...ops.Option) error { _, err := ops.Sub(nil, nil, o...); return err },
	"Tile":      func(o ...ops.Option) error { _, err := ops.Tile(nil, ops.TileOptions{}, o...); return err },
	"Transpose": func(o ...ops.Option) error { _, err := ops.Transpose(nil, ops.TransposeOptions{}, o...); return err },
	"Unsqueeze": func(o ...ops.Option) error { _, err := ops.Unsqueeze(nil, ops.UnsqueezeOptions{}, o...); return err },
	"Upsample":  func(o ...ops.Option) error { _, err := ops.Upsample(nil, ops.UpsampleOptions{}, o...); return err },
	"Where":     func(o ...ops.Option) error { _, err := ops.Where(nil, nil, nil, o...); return err },
}

// Every plain operator function refuses a context that is already done,
// as its own error wrapping the context's.
func TestPlainFunctionsRefuseCancelledContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for name, call := range plainCalls {
		err := call(ops.WithContext(ctx))
		var oe *ops.Error
		if !errors.Is(err, context.Canceled) || !errors.As(err, &oe) || oe.Op != name || oe.Rule != "cancelled" {
			t.Errorf("%s under a cancelled context: %v, want %s's [cancelled] error", name, err, name)
		}
	}
}

// The context of NewOptions(WithContext(ctx)) reaches the kernel itself,
// which stops on it, not only the plain function's first look.
func TestNewOptionsContextReachesKernel(t *testing.T) {
	x := tensor.MustNew(tensor.Float, 1, 3, 512, 512)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	schema, err := ops.Lookup("", "Resize", 19)
	if err != nil {
		t.Fatal(err)
	}
	n := &ops.Node{OpType: "Resize", Version: 19, Attrs: map[string]ops.Attribute{"mode": {Type: ops.AttrString, String: "linear"}}}
	sizes := tensor.MustFromSlice([]int64{1, 3, 1024, 1024}, 4)
	_, err = schema.Run(ops.NewOptions(ops.WithContext(ctx)), n, []tensor.Value{x, nil, nil, sizes})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Resize's kernel under a cancelled context: %v", err)
	}
}

// WithMaxTensorBytes caps the output of a plain function, and only then.
func TestPlainFunctionHonoursTensorCap(t *testing.T) {
	x := tensor.MustNew(tensor.Float, 2, 3) // 24 bytes
	if _, err := ops.Transpose(x, ops.TransposeOptions{}, ops.WithMaxTensorBytes(16)); !errors.Is(err, ops.ErrLimit) {
		t.Errorf("Transpose of 24 bytes under a 16-byte cap: %v, want ErrLimit", err)
	}
	if _, err := ops.Transpose(x, ops.TransposeOptions{}, ops.WithMaxTensorBytes(24)); err != nil {
		t.Errorf("Transpose of 24 bytes under a 24-byte cap: %v", err)
	}
	if _, err := ops.Tile(x, ops.TileOptions{Repeats: []int{1000, 1000}}, ops.WithMaxTensorBytes(1<<20)); !errors.Is(err, ops.ErrLimit) {
		t.Errorf("Tile to 24 MB under a 1 MiB cap: %v, want ErrLimit", err)
	}
}

// WithProfile applies the SONNX rules: a negative Concat axis, which ONNX
// takes, is refused under SONNX with its rule id.
func TestPlainFunctionHonoursProfile(t *testing.T) {
	a := tensor.MustFromSlice([]float32{1, 2}, 1, 2)
	if _, err := ops.Concat([]*tensor.Tensor{a, a}, ops.ConcatOptions{Axis: -1}); err != nil {
		t.Fatalf("ONNX Concat on axis -1: %v", err)
	}
	_, err := ops.Concat([]*tensor.Tensor{a, a}, ops.ConcatOptions{Axis: -1}, ops.WithProfile(ops.ProfileSONNX))
	var oe *ops.Error
	if !errors.As(err, &oe) || oe.Op != "Concat" || oe.Rule != "axis [C1]" {
		t.Errorf("SONNX Concat on axis -1: %v, want Concat's axis [C1]", err)
	}
}

// WithThreads sets the thread count the kernels see, and a plain function
// gives the same result on one thread as on several.
func TestPlainFunctionHonoursThreads(t *testing.T) {
	if got := ops.NewOptions(ops.WithThreads(3)).Threads; got != 3 {
		t.Fatalf("WithThreads(3) set Threads %d", got)
	}
	x := tensor.MustNew(tensor.Float, 64, 64, 64)
	f, _ := tensor.ToSlice[float32](x)
	for i := range f {
		f[i] = float32(i)
	}
	one, err := ops.Transpose(x, ops.TransposeOptions{Perm: []int{2, 0, 1}}, ops.WithThreads(1))
	if err != nil {
		t.Fatal(err)
	}
	three, err := ops.Transpose(x, ops.TransposeOptions{Perm: []int{2, 0, 1}}, ops.WithThreads(3))
	if err != nil {
		t.Fatal(err)
	}
	a, _ := tensor.ToSlice[float32](one)
	b, _ := tensor.ToSlice[float32](three)
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("element %d: %v on one thread, %v on three", i, a[i], b[i])
		}
	}
}

// Options.Context and Options.Charge are safe on nil and on the zero value:
// a kernel run by hand without a run needs neither.
func TestOptionsAccessorsWithoutRun(t *testing.T) {
	var nilOpt *ops.Options
	if nilOpt.Context() == nil || (&ops.Options{}).Context() == nil {
		t.Error("Context of nil or zero Options is nil, want context.Background()")
	}
	if err := nilOpt.Charge(1 << 40); err != nil {
		t.Errorf("Charge without a budget: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if got := ops.NewOptions(ops.WithContext(ctx)).Context(); got != ctx {
		t.Error("Context does not return WithContext's context")
	}
}
