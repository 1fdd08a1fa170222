// Package tensor holds the Tensor of onnxshape: an ONNX element type, a shape
// and row-major storage, plus the sequence, optional and map values that flow
// along a model's edges beside tensors.
//
// A Tensor is immutable once it has been handed to an operator or returned
// by one: operators never write into their inputs, and the shape-only
// operators (Reshape, Squeeze, Unsqueeze, Flatten, Identity) return views
// that share the input's storage. Build tensors with FromSlice, New or
// FromBytes; read them with ToSlice (a copy) or Data (a read-only view),
// both in the tensor's own element type, or converted to a computing type
// with Float32s, Float64s and Int64s. (The exact-type methods Uint8s,
// Bools, ... are deprecated wrappers of ToSlice.)
package tensor

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"unsafe"

	"github.com/onnxshape/onnxshape/internal/header"
	"github.com/onnxshape/onnxshape/internal/storage"
)

// ErrShape is wrapped by every error about an impossible shape: a negative
// dimension, a size that overflows, or data whose length does not match.
var ErrShape = errors.New("invalid shape")

// ErrType is wrapped by every error about an element type that does not fit.
var ErrType = errors.New("type mismatch")

// Tensor is an ONNX tensor: element type, shape and row-major storage.
// The zero value is not usable; see New.
type Tensor struct {
	dtype DataType
	shape []int
	n     int      // number of elements, the product of shape
	data  []byte   // element storage, 8-byte aligned; nil for String
	strs  []string // storage of a String tensor
}

// NumElements returns the product of the dimensions of shape (1 for rank 0),
// or an error if a dimension is negative or the product overflows int.
// (Errors here and below format a copy of shape, so that a caller's shape
// does not escape to the heap: a kernel's []int{m, n} stays on its stack.)
func NumElements(shape []int) (int, error) {
	empty := false
	for i, d := range shape {
		if d < 0 {
			return 0, fmt.Errorf("%w: dimension %d is %d", ErrShape, i, d)
		}
		empty = empty || d == 0
	}
	if empty { // whatever the other dimensions, also on 32-bit platforms
		return 0, nil
	}
	// The overflow test is a widening multiply, not n > MaxInt/d: a
	// division a dimension costs tens of cycles, and every output of every
	// node counts its elements a few times (a 4-way Split of a small tensor
	// spent 5% of its call here).
	n := uint(1)
	for _, d := range shape {
		hi, lo := bits.Mul(n, uint(d))
		if hi != 0 || lo > math.MaxInt {
			return 0, fmt.Errorf("%w: %v has more elements than an int can count", ErrShape, slices.Clone(shape))
		}
		n = lo
	}
	return int(n), nil
}

// ByteSize returns the bytes of storage a tensor of type dt and shape takes
// (for String, the element count), with the same checks as NumElements.
func ByteSize(dt DataType, shape []int) (int, error) {
	n, err := NumElements(shape)
	if err != nil {
		return 0, err
	}
	if dt == String {
		return n, nil
	}
	size := dt.Size()
	if size == 0 {
		return 0, fmt.Errorf("%w: %v is not an ONNX element type", ErrType, dt)
	}
	if n > math.MaxInt/size {
		return 0, fmt.Errorf("%w: %v of %v takes more bytes than an int can count", ErrShape, slices.Clone(shape), dt)
	}
	return n * size, nil
}

// maxAlloc is the most bytes New will ask the runtime for: beyond it make
// would panic rather than fail, so New returns an error instead.
const maxAlloc = min(1<<47, math.MaxInt/2)

// New returns a zero-filled tensor of type dt and the given shape.
func New(dt DataType, shape ...int) (*Tensor, error) {
	if !dt.Valid() {
		return nil, fmt.Errorf("%w: %v is not an ONNX element type", ErrType, dt)
	}
	size, err := ByteSize(dt, shape)
	if err != nil {
		return nil, err
	}
	n, _ := NumElements(shape)
	if size > maxAlloc || (dt == String && n > maxAlloc/16) {
		return nil, fmt.Errorf("%w: %v of shape %v is too large to allocate", ErrShape, dt, slices.Clone(shape))
	}
	t := newHeader(dt, shape, n)
	if dt == String {
		t.strs = make([]string, n)
	} else {
		t.data = storage.Aligned(size) // 8-byte aligned: readable as any element type
	}
	return t, nil
}

// Wrap returns a tensor of type dt and shape whose storage is buf itself,
// not a copy: the caller hands buf over and must not touch it again. buf
// must be 8-byte aligned and exactly as long as the tensor's storage; its
// contents are the elements in the machine's byte order. It exists for
// allocators that recycle storage (graph.Pool); FromBytes is the safe form.
func Wrap(dt DataType, shape []int, buf []byte) (*Tensor, error) {
	if dt == String || !dt.Valid() {
		return nil, fmt.Errorf("%w: Wrap takes a non-string ONNX type, not %v", ErrType, dt)
	}
	size, err := ByteSize(dt, shape)
	if err != nil {
		return nil, err
	}
	if len(buf) != size {
		return nil, fmt.Errorf("%w: %d bytes for %v of shape %v (%d bytes)", ErrShape, len(buf), dt, slices.Clone(shape), size)
	}
	if size > 0 && uintptr(unsafe.Pointer(&buf[0]))%8 != 0 {
		return nil, fmt.Errorf("Wrap: storage is not 8-byte aligned")
	}
	if size == 0 {
		buf = []byte{}
	}
	n, _ := NumElements(shape)
	t := newHeader(dt, shape, n)
	t.data = buf
	return t, nil
}

// headerWithDims is a Tensor and room for the dims of a tensor of rank at
// most 4, allocated together: a run of many small nodes makes a header
// for nearly every output, and one allocation is cheaper than two.
type headerWithDims struct {
	t    Tensor
	dims [4]int
}

// newHeader returns a header of type dt, a copy of shape and n elements,
// without storage.
func newHeader(dt DataType, shape []int, n int) *Tensor {
	if len(shape) > len(headerWithDims{}.dims) {
		return &Tensor{dtype: dt, shape: append([]int{}, shape...), n: n}
	}
	h := &headerWithDims{}
	h.t = Tensor{dtype: dt, shape: h.dims[:len(shape):len(shape)], n: n}
	copy(h.t.shape, shape)
	return &h.t
}

// MustNew is New for shapes known to be valid; it panics on error. It is
// meant for tests and examples, never for shapes read from outside.
func MustNew(dt DataType, shape ...int) *Tensor {
	t, err := New(dt, shape...)
	if err != nil {
		panic(err)
	}
	return t
}

// FromSlice returns a tensor of the given shape holding a copy of data.
// With no shape, the tensor is 1-D with len(data) elements.
func FromSlice[T Element](data []T, shape ...int) (*Tensor, error) {
	if shape == nil {
		shape = []int{len(data)}
	}
	dt := TypeOf[T]()
	t, err := New(dt, shape...)
	if err != nil {
		return nil, err
	}
	if t.n != len(data) {
		return nil, fmt.Errorf("%w: %d values for shape %v (%d elements)", ErrShape, len(data), slices.Clone(shape), t.n)
	}
	if dt == String {
		copy(t.strs, any(data).([]string))
		return t, nil
	}
	if len(data) > 0 {
		copy(t.data, unsafe.Slice((*byte)(unsafe.Pointer(&data[0])), len(t.data)))
	}
	for _, b := range t.data {
		if !validSubByte(dt, b) {
			return nil, fmt.Errorf("%w: value out of range for %v", ErrType, dt)
		}
	}
	return t, nil
}

// MustFromSlice is FromSlice that panics on error, for tests and examples.
func MustFromSlice[T Element](data []T, shape ...int) *Tensor {
	t, err := FromSlice(data, shape...)
	if err != nil {
		panic(err)
	}
	return t
}

// Scalar returns a rank-0 tensor holding v.
func Scalar[T Element](v T) *Tensor {
	return MustFromSlice([]T{v}, []int{}...)
}

// FromBytes returns a tensor of type dt and shape whose storage is a copy of
// b, the elements in the machine's byte order, one byte per element for the
// sub-byte types; the arguments come in FromSlice's order, the data before
// the shape. It fails for String and when len(b) does not fit.
func FromBytes(dt DataType, b []byte, shape ...int) (*Tensor, error) {
	if dt == String {
		return nil, fmt.Errorf("%w: string tensors are built with FromSlice([]string, shape...)", ErrType)
	}
	t, err := New(dt, shape...)
	if err != nil {
		return nil, err
	}
	if len(b) != len(t.data) {
		return nil, fmt.Errorf("%w: %d bytes for %v of shape %v (%d bytes)", ErrShape, len(b), dt, slices.Clone(shape), len(t.data))
	}
	for _, v := range b {
		if !validSubByte(dt, v) {
			return nil, fmt.Errorf("%w: byte %#x is not a %v", ErrType, v, dt)
		}
	}
	copy(t.data, b)
	return t, nil
}

// ToSlice returns a copy of t's elements as a []T, T matching t's type.
func ToSlice[T Element](t *Tensor) ([]T, error) {
	v, err := Data[T](t)
	if err != nil {
		return nil, err
	}
	return append([]T{}, v...), nil
}

// Data returns t's elements as a []T without copying. The slice shares t's
// storage, which other tensors may share too: it must not be modified.
func Data[T Element](t *Tensor) ([]T, error) {
	if t == nil {
		return nil, errNil
	}
	if want := TypeOf[T](); want != t.dtype {
		return nil, fmt.Errorf("%w: tensor is %v, not %v", ErrType, t.dtype, want)
	}
	if t.dtype == String {
		return any(t.strs).([]T), nil
	}
	if t.n == 0 {
		return []T{}, nil
	}
	return unsafe.Slice((*T)(unsafe.Pointer(&t.data[0])), t.n), nil
}

// errNil is the error of the functions given a nil *Tensor.
var errNil = fmt.Errorf("%w: nil tensor", ErrType)

// DataType returns the element type; Undefined for a nil or zero Tensor.
func (t *Tensor) DataType() DataType {
	if t == nil {
		return Undefined
	}
	return t.dtype
}

// Shape returns the dimensions. The slice is t's own: it must not be
// modified. A nil Tensor has none.
func (t *Tensor) Shape() []int {
	if t == nil {
		return nil
	}
	return t.shape
}

// Rank returns the number of dimensions.
func (t *Tensor) Rank() int {
	if t == nil {
		return 0
	}
	return len(t.shape)
}

// Len returns the number of elements; 0 for a nil or zero Tensor.
func (t *Tensor) Len() int {
	if t == nil {
		return 0
	}
	return t.n
}

// Bytes returns the storage of a non-String tensor, in the machine's byte
// order. It is shared, not copied: only the code that created t with New may
// write into it, and only before handing t on.
func (t *Tensor) Bytes() []byte {
	if t == nil {
		return nil
	}
	return t.data
}

// Strings returns the storage of a String tensor, shared like Bytes.
func (t *Tensor) Strings() []string {
	if t == nil {
		return nil
	}
	return t.strs
}

// ByteLen returns the bytes of storage t occupies (for String tensors, the
// total length of the strings).
func (t *Tensor) ByteLen() int {
	if t == nil {
		return 0
	}
	if t.dtype != String {
		return len(t.data)
	}
	n := 0
	for _, s := range t.strs {
		n += len(s)
	}
	return n
}

// Reshape returns a view of t with a new shape of the same element count,
// read as ONNX Reshape reads its shape input (allowzero=0): a 0 copies t's
// dimension at the same index, and one dimension may be -1, inferred from
// the others. The view shares t's storage and costs O(rank), whatever t's
// size. View takes a shape literally, a 0 meaning a dimension of length 0.
func (t *Tensor) Reshape(shape ...int) (*Tensor, error) {
	if t == nil || !t.dtype.Valid() {
		return nil, errNil
	}
	shape = append([]int{}, shape...)
	for i, d := range shape {
		if d != 0 {
			continue
		}
		if i >= len(t.shape) {
			return nil, fmt.Errorf("%w: dimension %d of %v is 0, a copy of t's, but t has rank %d", ErrShape, i, slices.Clone(shape), len(t.shape))
		}
		shape[i] = t.shape[i]
	}
	shape, err := inferDim(shape, t.n)
	if err != nil {
		return nil, err
	}
	return t.View(shape...)
}

// View returns a view of t with exactly the given shape, of the same
// element count (no -1 to infer, a 0 is a dimension of length 0): the form
// for shapes computed by code.
func (t *Tensor) View(shape ...int) (*Tensor, error) {
	if t == nil || !t.dtype.Valid() {
		return nil, errNil
	}
	n, err := NumElements(shape)
	if err != nil {
		return nil, err
	}
	if n != t.n {
		return nil, fmt.Errorf("%w: cannot view %v (%d elements) as %v (%d elements)", ErrShape, t.shape, t.n, slices.Clone(shape), n)
	}
	v := newHeader(t.dtype, shape, n)
	v.data, v.strs = t.data, t.strs
	return v, nil
}

// SharesStorage reports whether t and u are views of the same storage.
func (t *Tensor) SharesStorage(u *Tensor) bool {
	if t == nil || u == nil {
		return false
	}
	if t.dtype == String {
		return len(t.strs) > 0 && len(u.strs) > 0 && &t.strs[0] == &u.strs[0]
	}
	return len(t.data) > 0 && len(u.data) > 0 && &t.data[0] == &u.data[0]
}

// Clone returns a deep copy of t.
func (t *Tensor) Clone() *Tensor {
	if t == nil {
		return nil
	}
	c := newHeader(t.dtype, t.shape, t.n)
	if t.dtype == String {
		c.strs = append([]string{}, t.strs...)
	} else {
		c.data = storage.Aligned(len(t.data))
		copy(c.data, t.data)
	}
	return c
}

// Equal reports whether t and u have the same type, shape and elements, bit
// for bit (so NaN equals a NaN of the same bits, and 0 differs from -0).
func (t *Tensor) Equal(u *Tensor) bool {
	if t == nil || u == nil {
		return t == u
	}
	if t.dtype != u.dtype || !SameShape(t.shape, u.shape) {
		return false
	}
	if t.dtype == String {
		for i := range t.strs {
			if t.strs[i] != u.strs[i] {
				return false
			}
		}
		return true
	}
	return string(t.data) == string(u.data)
}

// SameShape reports whether a and b are the same shape.
func SameShape(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func init() {
	header.Rewrap = func(dst any, buf []byte) bool {
		t, ok := dst.(*Tensor)
		if !ok || t == nil || t.dtype == String || !t.dtype.Valid() || len(buf) != t.n*t.dtype.Size() {
			return false
		}
		if len(buf) > 0 && uintptr(unsafe.Pointer(&buf[0]))%8 != 0 {
			return false
		}
		if len(buf) == 0 {
			buf = []byte{}
		}
		t.data = buf
		return true
	}
	header.Detach = func(dst any) {
		if t, ok := dst.(*Tensor); ok && t != nil {
			t.data, t.strs = nil, nil
		}
	}
	header.Review = func(dst, src any) bool {
		t, ok := dst.(*Tensor)
		u, ok2 := src.(*Tensor)
		if !ok || !ok2 || t == nil || u == nil || t.dtype != u.dtype || !t.dtype.Valid() || t.n != u.n {
			return false
		}
		t.data, t.strs = u.data, u.strs
		return true
	}
}
