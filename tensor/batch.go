package tensor

import (
	"fmt"
	"unsafe"
)

// Stack returns the tensors, all of one type and shape, as one tensor with
// a new first axis: shape [len(ts), shape...]. It copies; a batch of
// images for a model that takes [N, 3, H, W] is Stack of [3, H, W] tensors
// (FromImage's [1, 3, H, W] tensors are stacked by Concat, or reshaped).
func Stack(ts ...*Tensor) (*Tensor, error) {
	if len(ts) == 0 {
		return nil, fmt.Errorf("%w: Stack of no tensor", ErrShape)
	}
	for i, t := range ts {
		if t == nil {
			return nil, fmt.Errorf("Stack: tensor %d: %w", i, errNil)
		}
		if t.DataType() != ts[0].DataType() || !SameShape(t.Shape(), ts[0].Shape()) {
			return nil, fmt.Errorf("%w: Stack: tensor %d is %v %v, tensor 0 %v %v", ErrShape, i, t.DataType(), t.Shape(), ts[0].DataType(), ts[0].Shape())
		}
	}
	out, err := New(ts[0].DataType(), append([]int{len(ts)}, ts[0].Shape()...)...)
	if err != nil {
		return nil, err
	}
	n := ts[0].Len()
	for i, t := range ts {
		if out.strs != nil {
			copy(out.strs[i*n:], t.strs)
		} else {
			copy(out.data[i*len(t.data):], t.data)
		}
	}
	return out, nil
}

// Unstack splits t along its first axis: t[0], t[1], ..., each a copy of
// shape t.Shape()[1:]. It undoes Stack, and splits a model's batched output
// by item.
func Unstack(t *Tensor) ([]*Tensor, error) {
	if t == nil {
		return nil, fmt.Errorf("Unstack: %w", errNil)
	}
	s := t.Shape()
	if len(s) == 0 {
		return nil, fmt.Errorf("%w: Unstack of a scalar", ErrShape)
	}
	out := make([]*Tensor, s[0])
	n := 1
	for _, d := range s[1:] {
		n *= d
	}
	for i := range out {
		o, err := New(t.DataType(), s[1:]...)
		if err != nil {
			return nil, err
		}
		if o.strs != nil {
			copy(o.strs, t.strs[i*n:])
		} else {
			copy(o.data, t.data[i*len(o.data):])
		}
		out[i] = o
	}
	return out, nil
}

// FromSliceNoCopy returns a tensor over data itself, not a copy: no allocation, for
// inputs a program already holds (an audio buffer, a frame). With no shape
// the tensor is 1-D. onnxshape never writes into an input, but a run's
// outputs may share the input's storage (Identity, Reshape, ...): do not
// modify data while the tensor, or a value computed from it, is in use.
// data must start on an 8-byte boundary (every slice make returns does,
// except for 1-byte elements shorter than 8); strings cannot be viewed.
func FromSliceNoCopy[T Element](data []T, shape ...int) (*Tensor, error) {
	dt := TypeOf[T]()
	if dt == String {
		return nil, fmt.Errorf("%w: FromSliceNoCopy of strings: use FromSlice", ErrType)
	}
	if shape == nil {
		shape = []int{len(data)}
	}
	var buf []byte
	if len(data) > 0 {
		buf = unsafe.Slice((*byte)(unsafe.Pointer(&data[0])), len(data)*dt.Size())
	}
	t, err := Wrap(dt, shape, buf)
	if err != nil {
		return nil, fmt.Errorf("FromSliceNoCopy: %w", err)
	}
	return t, nil
}

// Float16sFromFloat32 rounds each of src to float16, to nearest, ties to
// even, as Cast does.
func Float16sFromFloat32(src []float32) []F16 {
	out := make([]F16, len(src))
	for i, v := range src {
		out[i] = F16FromFloat32(v)
	}
	return out
}

// Float32sFromFloat16 widens each of src to float32, exactly.
func Float32sFromFloat16(src []F16) []float32 {
	out := make([]float32, len(src))
	for i, v := range src {
		out[i] = v.Float32()
	}
	return out
}

// BFloat16sFromFloat32 rounds each of src to bfloat16, to nearest, ties to
// even, as Cast does.
func BFloat16sFromFloat32(src []float32) []BF16 {
	out := make([]BF16, len(src))
	for i, v := range src {
		out[i] = BF16FromFloat32(v)
	}
	return out
}

// Float32sFromBFloat16 widens each of src to float32, exactly.
func Float32sFromBFloat16(src []BF16) []float32 {
	out := make([]float32, len(src))
	for i, v := range src {
		out[i] = v.Float32()
	}
	return out
}
