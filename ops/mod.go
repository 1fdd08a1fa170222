// Mod computes the remainder of A divided by B elementwise, with
// broadcasting.
//
// Versions: 10, and 13, which adds bfloat16. The attribute fmod chooses the
// sign of a nonzero remainder: fmod=0 (the default) takes the divisor's,
// as Python's %, and is for integers only ([fmod]: the spec requires
// fmod=1 for floats, as onnxruntime does); fmod=1 takes the dividend's, as
// C's fmod. An integer remainder by zero, undefined in the spec, is 0 (the
// reference evaluator's nan_to_num of numpy's result) under ONNX and
// refused under SONNX ([zero-divisor]); a float one is NaN.

package ops

import (
	"math"

	"github.com/onnxshape/onnxshape/ops/internal/elementwise"

	"github.com/onnxshape/onnxshape/tensor"
)

var modOp = &binaryOp{
	name: "Mod", types: versionTypes{10: numberTypes, 13: numberBFTypes},
	kernel: modKernel,
	check:  refuseZeroDivisor,
}

func init() {
	register("Mod", []int{10, 13}, [2]int{2, 2}, [2]int{1, 1}, modOp.node)
	declareAttrs("Mod", AttrSpec{Name: "fmod", Type: AttrInt})
}

var (
	truncatedMod = fixedKernels(numberBinaries([8]binaryKernel{
		truncatedModSpans[uint8](), truncatedModSpans[uint16](), truncatedModSpans[uint32](), truncatedModSpans[uint64](),
		truncatedModSpans[int8](), truncatedModSpans[int16](), truncatedModSpans[int32](), truncatedModSpans[int64](),
	}, elementwise.FmodF32, binaryFunc(math.Mod)))
	flooredMod = fixedKernels(map[tensor.DataType]binaryKernel{
		tensor.Uint8: truncatedModSpans[uint8](), tensor.Uint16: truncatedModSpans[uint16](),
		tensor.Uint32: truncatedModSpans[uint32](), tensor.Uint64: truncatedModSpans[uint64](),
		tensor.Int8: flooredModSpans[int8](), tensor.Int16: flooredModSpans[int16](),
		tensor.Int32: flooredModSpans[int32](), tensor.Int64: flooredModSpans[int64](),
	})
)

func modKernel(n *Node, dt tensor.DataType) (binaryKernel, error) {
	fmod, err := n.Int("fmod", 0)
	if err != nil {
		return nil, err
	}
	switch {
	case fmod != 0 && fmod != 1:
		return nil, n.op().errorf("fmod", "fmod is %d; it is 0 or 1", fmod)
	case fmod == 1:
		return truncatedMod(n, dt)
	case !dt.IsInteger():
		return nil, n.op().errorf("fmod", "fmod must be 1 for %v input", dt)
	}
	return flooredMod(n, dt)
}

// truncatedModSpans is C's %: the remainder has the dividend's sign.
func truncatedModSpans[T integer]() binarySpans[T, T, T] {
	return binaryFunc(func(a, b T) T {
		if b == 0 {
			return 0
		}
		return a % b
	})
}

// flooredModSpans is Python's %: the remainder has the divisor's sign.
func flooredModSpans[T signedInteger]() binarySpans[T, T, T] {
	return binaryFunc(func(a, b T) T {
		if b == 0 {
			return 0
		}
		r := a % b
		if r != 0 && (r < 0) != (b < 0) {
			r += b
		}
		return r
	})
}
