package reference

// HannWindow, HammingWindow and BlackmanWindow (version 17), after the ONNX
// specification: "Generates a Hann window as described in the paper
// https://ieeexplore.ieee.org/document/1455106", "... a Hamming window"
// (α = 25/46, β = 1 - α), "... a Blackman window", each
//
//	w[n] = a0 - a1 cos(2πn/N) + a2 cos(4πn/N),  n = 0 .. size-1,
//
// with "periodic: If 1, returns a window to be used as periodic function.
// If 0, return a symmetric window. When 'periodic' is specified,
// hann computes a window of length size + 1 and returns the first size
// points" (so N = size when periodic, size-1 when symmetric; a symmetric
// window of one point is [1], as torch's). "output_datatype: The data type
// of the output tensor. Strictly must be one of the values from DataType
// enum in TensorProto whose values correspond to T2. The default value is
// 1 = FLOAT."

import (
	"math"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("HannWindow", []int{17}, window(0.5, 0.5, 0))
	register("HammingWindow", []int{17}, window(25.0/46, 21.0/46, 0))
	register("BlackmanWindow", []int{17}, window(0.42, 0.5, 0.08))
}

func window(a0, a1, a2 float64) ops.Kernel {
	return func(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
		op := opOf(n)
		st, err := requiredInput(op, in, 0, "size")
		if err != nil {
			return nil, err
		}
		periodic, err := n.Int("periodic", 1)
		if err != nil {
			return nil, err
		}
		dt, err := n.Int("output_datatype", int64(tensor.Float))
		if err != nil {
			return nil, err
		}
		if (st.DataType() != tensor.Int32 && st.DataType() != tensor.Int64) || st.Len() != 1 || st.Rank() > 1 {
			return nil, op.errorf("size", "size must be an integer scalar")
		}
		size := exactValue(st, 0).i
		if size < 0 || size > math.MaxInt32 {
			return nil, op.errorf("size", "size %d", size)
		}
		out := tensor.DataType(dt)
		if !(out.IsFloat() || out.IsInteger()) || castFirstVersion(out) > 17 {
			return nil, op.errorf("output_datatype", "output_datatype %d", dt)
		}
		y, err := newTensor(opt, op, out, []int{int(size)})
		if err != nil {
			return nil, err
		}
		N := float64(size)
		if periodic == 0 {
			N = float64(size - 1)
		}
		for i := range int(size) {
			w := 1.0
			if N != 0 {
				w = a0 - a1*math.Cos(2*math.Pi*float64(i)/N) + a2*math.Cos(4*math.Pi*float64(i)/N)
			}
			storeValue(y, y, i, number{kind: 'f', f: w}, castAttrs{saturate: true, roundMode: "up"})
		}
		return values(y), nil
	}
}
