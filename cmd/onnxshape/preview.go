package main

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/onnxshape/onnxshape/tensor"
)

// The preview of an output is bounded whatever the output's size: numpy's
// summarisation (the first and last edgeItems of every axis longer than
// twice that, once the tensor has more than previewElements elements),
// tightened from the outermost axis in until at most previewShown elements
// remain (a [6]^10 tensor shows 216 elements, not 60 million), each
// element formatted on its own (no conversion of the whole tensor) and
// strings cut at previewChars characters. Sequences show their first and
// last edgeItems items.
const (
	previewElements = 64
	previewShown    = 256
	edgeItems       = 3
	previewChars    = 40
)

// preview writes a value's type and shape, then its elements numpy style.
// previewItems writes items 0..n-1 of a sequence, each after its index
// by item(i), the first and last edgeItems only when there are more.
func previewItems(b *bytes.Buffer, n int, item func(i int)) {
	for i := 0; i < n; i++ {
		if n > 2*edgeItems && i == edgeItems {
			fmt.Fprintf(b, "  ... (%d items)\n", n-2*edgeItems)
			i = n - edgeItems
		}
		fmt.Fprintf(b, "  [%d] ", i)
		item(i)
	}
}

func preview(b *bytes.Buffer, v tensor.Value) {
	switch v := v.(type) {
	case *tensor.Tensor:
		fmt.Fprintf(b, "%s\n", v.Describe())
		previewTensor(b, v)
		b.WriteByte('\n')
	case *tensor.Sequence:
		fmt.Fprintf(b, "%s\n", v.Describe())
		previewItems(b, len(v.Items), func(i int) { preview(b, v.Items[i]) })
	case *tensor.Optional:
		if v.Value == nil {
			fmt.Fprintf(b, "%s\n", v.Describe())
			return
		}
		b.WriteString("optional ")
		preview(b, v.Value)
	case *tensor.MapSequence:
		fmt.Fprintf(b, "%s\n", v.Describe())
		previewItems(b, len(v.Items), func(i int) {
			previewMap(b, v.Items[i])
			b.WriteByte('\n')
		})
	case *tensor.Map:
		fmt.Fprintf(b, "%s\n", v.Describe())
		previewMap(b, v)
		b.WriteByte('\n')
	default:
		fmt.Fprintf(b, "%v\n", v)
	}
}

// previewMap writes a map's entries in its order, {key: value, ...}: all of
// them up to previewElements, the first and last edgeItems of a longer map;
// string keys and values quoted.
func previewMap(b *bytes.Buffer, m *tensor.Map) {
	if m.Check() != nil {
		b.WriteString(m.Describe())
		return
	}
	n := m.Len()
	b.WriteByte('{')
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		if n > previewElements && i == edgeItems {
			fmt.Fprintf(b, "... (%d entries), ", n-2*edgeItems)
			i = n - edgeItems
		}
		b.WriteString(formatElement(m.Keys, i))
		b.WriteString(": ")
		b.WriteString(formatElement(m.Values, i))
	}
	b.WriteByte('}')
}

// window is what the preview shows of one axis: the first head items, then
// "..." and the last tail items when head+tail is less than the axis.
type window struct{ head, tail int }

func (w window) shown() int { return w.head + w.tail }

// previewWindows chooses the window of every axis of shape.
func previewWindows(shape []int, elements int) []window {
	ws := make([]window, len(shape))
	for i, d := range shape {
		ws[i] = window{head: d}
		if elements > previewElements && d > 2*edgeItems {
			ws[i] = window{head: edgeItems, tail: edgeItems}
		}
	}
	for axis := 0; axis < len(ws); {
		total := 1
		for _, w := range ws {
			total *= w.shown() // at most 6 per axis once capped, rank at most a few thousand
			if total > previewShown {
				break
			}
		}
		if total <= previewShown {
			break
		}
		switch w := ws[axis]; {
		case w.shown() > 2:
			ws[axis] = window{head: 1, tail: 1}
		case w.shown() == 2:
			ws[axis] = window{head: 1}
		default:
			axis++
		}
	}
	return ws
}

// previewTensor writes t's elements, the middle of each axis elided as its
// window says.
func previewTensor(b *bytes.Buffer, t *tensor.Tensor) {
	shape := t.Shape()
	if len(shape) == 0 {
		b.WriteString(formatElement(t, 0))
		return
	}
	elements := t.Len()
	if elements == 0 {
		// No element, but the other axes may be of any length (2^62):
		// elide them as a large tensor's, or the walk prints without end.
		elements = math.MaxInt
	}
	ws := previewWindows(shape, elements)
	strides := make([]int, len(shape))
	acc := 1
	for i := len(shape) - 1; i >= 0; i-- {
		strides[i] = acc
		acc *= shape[i]
	}
	last := len(shape) - 1
	var rec func(axis, off int)
	rec = func(axis, off int) {
		b.WriteByte('[')
		n, w := shape[axis], ws[axis]
		for i := 0; i < n; i++ {
			if i == w.head && w.shown() < n {
				if w.tail == 0 {
					b.WriteString("...")
					break
				}
				if axis == last {
					b.WriteString("... ")
				} else {
					b.WriteString("...\n" + strings.Repeat(" ", axis+1))
				}
				i = n - w.tail
			}
			if axis == last {
				b.WriteString(formatElement(t, off+i*strides[axis]))
			} else {
				rec(axis+1, off+i*strides[axis])
			}
			if i < n-1 {
				b.WriteString(separator(axis, last))
			}
		}
		b.WriteByte(']')
	}
	rec(0, 0)
}

// separator is what follows an item of axis: a space between elements, a
// newline per axis closed and the indentation of the next item between
// rows.
func separator(axis, last int) string {
	if axis == last {
		return " "
	}
	return strings.Repeat("\n", last-axis) + strings.Repeat(" ", axis+1)
}

// formatElement renders element i of t as tensor.Format does, from a
// one-element copy, and cuts strings at previewChars characters.
func formatElement(t *tensor.Tensor, i int) string {
	if t.DataType() == tensor.String {
		s := t.Strings()[i]
		if utf8.RuneCountInString(s) <= previewChars {
			return strconv.Quote(s)
		}
		cut := 0
		for range previewChars {
			_, size := utf8.DecodeRuneInString(s[cut:])
			cut += size
		}
		return strconv.Quote(s[:cut]) + fmt.Sprintf("...(%d bytes)", len(s))
	}
	size := t.DataType().Size()
	one, err := tensor.FromBytes(t.DataType(), t.Bytes()[i*size:(i+1)*size])
	if err != nil {
		return "?"
	}
	var sb strings.Builder
	one.Format(&sb, false)
	return sb.String()
}
