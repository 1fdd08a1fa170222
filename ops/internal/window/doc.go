// Package window is the pooling engine: the geometry of sliding windows
// (kernel_shape, strides, pads, dilations, auto_pad, ceil_mode: their
// checks, the output length along each axis, and the per-axis tables of
// the real taps of every window) and the kernels that reduce the windows of
// a plane to sums (AveragePool, LpPool).
//
// MaxPool, MaxUnpool, AveragePool, LpPool (in package ops) use it, and the
// convolution operators (Conv, ConvTranspose, ConvInteger, QLinearConv,
// DeformConv, Col2Im) take their window geometry from it. The operators read
// the attributes, charge the tables and the output to the run, split the
// planes across the cores and check the context.
//
// It never writes into its inputs, never allocates anything that grows
// with the input except the tap tables of NewWindows and the row scratch
// of Pool2D (sized by the caller, who charges them first: see
// TableEntries), and never panics on attributes that passed Check.
package window

import "fmt"

// Error is a rule of the window attributes that a node breaks: Rule is the
// attribute's name (kernel_shape, strides, pads, ...), as the operators'
// errors name it.
type Error struct {
	Rule, Msg string
}

func (e *Error) Error() string { return e.Rule + ": " + e.Msg }

func errorf(rule, format string, args ...any) error {
	return &Error{Rule: rule, Msg: fmt.Sprintf(format, args...)}
}

// TableEntries is the number of ints NewWindows allocates for axes: two per
// output index of every axis, which pads and strides can make long even for
// an empty tensor.
func TableEntries(axes []Axis) int64 {
	var n int64
	for _, ax := range axes {
		n += 2 * int64(ax.Out)
	}
	return n
}

// Divisors returns, per axis and output index, the taps an average of w's
// windows counts: the real taps, or with includePad (count_include_pad=1)
// the taps inside [-PadBegin, In+PadEnd) (a window of the ceil mode may run
// past the end padding).
func Divisors(axes []Axis, w *Windows, includePad bool) [][]float64 {
	divisors := make([][]float64, len(axes))
	for k, ax := range axes {
		divisors[k] = make([]float64, ax.Out)
		for o := range ax.Out {
			n := w.Count[k][o]
			if includePad {
				start := o*ax.Stride - ax.PadBegin
				n = 0
				for t := range ax.Kernel {
					if start+t*ax.Dilation < ax.In+ax.PadEnd {
						n++
					}
				}
			}
			divisors[k][o] = float64(n)
		}
	}
	return divisors
}
