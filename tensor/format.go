package tensor

import (
	"fmt"
	"strconv"
	"strings"
)

// Printing follows numpy: nested brackets, one row a line, and past
// printThreshold elements only the first and last printEdge items of every
// axis, with "..." between.
const (
	printThreshold = 1000
	printEdge      = 3
)

// String renders t like numpy's repr: its type and shape on the first line,
// then the elements, eliding the middle of large tensors.
//
//	tensor(float)[2 3]
//	[[1 2 3]
//	 [4 5 6]]
func (t *Tensor) String() string {
	if t == nil {
		return "<nil tensor>"
	}
	if !t.dtype.Valid() {
		return "<zero tensor>"
	}
	var b strings.Builder
	b.WriteString(t.Describe())
	b.WriteByte('\n')
	t.Format(&b, t.n > printThreshold)
	return b.String()
}

// Format writes t's elements, numpy style, to b; with elide, only the first
// and last three items of each axis.
func (t *Tensor) Format(b *strings.Builder, elide bool) {
	if t == nil || !t.dtype.Valid() {
		b.WriteString("[]")
		return
	}
	elem := t.elementFormatter()
	if len(t.shape) == 0 {
		b.WriteString(elem(0))
		return
	}
	strides := make([]int, len(t.shape))
	acc := 1
	for i := len(t.shape) - 1; i >= 0; i-- {
		strides[i] = acc
		acc *= t.shape[i]
	}
	var rec func(axis, off int)
	rec = func(axis, off int) {
		b.WriteByte('[')
		n := t.shape[axis]
		for i := 0; i < n; i++ {
			if elide && n > 2*printEdge && i == printEdge {
				if axis == len(t.shape)-1 {
					b.WriteString("... ")
				} else {
					b.WriteString("...\n" + strings.Repeat(" ", axis+1))
				}
				i = n - printEdge
			}
			if axis == len(t.shape)-1 {
				b.WriteString(elem(off + i*strides[axis]))
			} else {
				rec(axis+1, off+i*strides[axis])
			}
			if i < n-1 {
				if axis == len(t.shape)-1 {
					b.WriteByte(' ')
				} else {
					b.WriteString(strings.Repeat("\n", len(t.shape)-1-axis) + strings.Repeat(" ", axis+1))
				}
			}
		}
		b.WriteByte(']')
	}
	rec(0, 0)
}

// elementFormatter returns a function that renders element i.
func (t *Tensor) elementFormatter() func(i int) string {
	switch t.dtype {
	case String:
		return func(i int) string { return strconv.Quote(t.strs[i]) }
	case Bool:
		return func(i int) string {
			if t.data[i] != 0 {
				return "true"
			}
			return "false"
		}
	case Complex64:
		v, _ := Data[complex64](t)
		return func(i int) string { return fmt.Sprint(v[i]) }
	case Complex128:
		v, _ := Data[complex128](t)
		return func(i int) string { return fmt.Sprint(v[i]) }
	case Int64:
		v, _ := Data[int64](t)
		return func(i int) string { return strconv.FormatInt(v[i], 10) }
	case Uint64:
		v, _ := Data[uint64](t)
		return func(i int) string { return strconv.FormatUint(v[i], 10) }
	}
	bits := 64
	if t.dtype == Float {
		bits = 32
	}
	f, _ := t.Float64s()
	return func(i int) string { return strconv.FormatFloat(f[i], 'g', -1, bits) }
}
