// Pad grows (or, with negative pads, crops) a tensor along each axis, filling
// the new elements with a constant or with elements of the tensor itself.
//
// Versions: 1 takes the pads as attribute paddings and the value as
// attribute value (a float); 2 calls the attribute pads. From 11 the pads
// (int64) and the optional constant_value (of the data's type) are inputs;
// 13 adds bfloat16, string and bool data; 18 adds the optional axes input
// (the axes the pads refer to); 19 adds mode wrap; 21, 23, 24 and 25 only
// add element types. Modes:
//
//	constant  the value (0, "" or false when not given)
//	edge      the nearest element of the axis
//	reflect   the mirror image about the first or last element
//	wrap      the elements from the other end, periodically
//
// Where ONNX defers to numpy's pad, onnxshape does what numpy does: reflect
// and wrap with pads as long as the axis or longer keep mirroring or
// repeating (onnxruntime 1.30 refuses the first and gets the second wrong,
// see docs/divergences.md); reflect of an axis of length 1 repeats the
// element, as edge does. A negative pad removes elements first, and the
// other modes then read the cropped tensor, as onnxruntime does. The
// constraints, in the order of the specification:
//
//	[pads]  2*r integers (2*len(axes) with axes): all begins, then all ends;
//	        each output dimension d + begin + end must be >= 0
//	[constant_value] a scalar (or one-element tensor) of the data's type
//	[axes]  each in [-r, r-1], none repeated after normalisation
//	[mode]  one of the modes of the version; edge, reflect and wrap need
//	        elements to read, so they refuse to pad an axis left empty
//
// Under the SONNX profile the mode attribute and, in constant mode, the
// constant_value input must be given explicitly (GR4).
//
// The kernel fills the output in three kinds of copyPlan: one for the
// interior (the input, cropped), then per axis, innermost first, the two
// borders. A border of axis k spans the interior of the axes before k and
// the whole of the axes after k: in constant mode it is a fill from the
// scalar (stride 0), otherwise a copy from the output itself, from the
// interior rows of axis k that the index map below picks. Going innermost
// first, the rows read are already complete along every later axis, so the
// outermost borders (the largest) are contiguous block copies.

package ops

import (
	"slices"

	"github.com/onnxshape/onnxshape/ops/internal/convert"
	"github.com/onnxshape/onnxshape/ops/internal/movement"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("Pad", []int{1, 2}, [2]int{1, 1}, [2]int{1, 1}, padNode)
	register("Pad", []int{11, 13}, [2]int{2, 3}, [2]int{1, 1}, padNode)
	register("Pad", []int{18, 19, 21, 23, 24, 25}, [2]int{2, 4}, [2]int{1, 1}, padNode)
}

// PadOptions are the parameters of Pad. The zero value pads nothing, in
// constant mode, with zeros.
type PadOptions struct {
	// Mode is "constant" (the default when empty), "edge", "reflect" or "wrap".
	Mode string
	// Pads holds the begins then the ends: [x1_begin, x2_begin, ...,
	// x1_end, x2_end, ...], one pair per axis of Axes (or of x when Axes
	// is nil). A negative pad removes elements.
	Pads []int
	// ConstantValue, in constant mode, is a one-element tensor of x's type;
	// nil means zero ("" for strings, false for bool).
	ConstantValue *tensor.Tensor
	// Axes lists the axes Pads refers to; negative values count from the
	// end. Nil means every axis.
	Axes []int
}

// Pad returns x padded as o says (ONNX Pad, version 25).
func Pad(x *tensor.Tensor, o PadOptions, opts ...Option) (*tensor.Tensor, error) {
	op := opRef{"Pad", 25}
	opt, err := callOptions(op, opts)
	if err != nil {
		return nil, err
	}
	mode := o.Mode
	if mode == "" {
		mode = "constant"
	}
	return pad(opt, op, nil, x, padParams{mode: mode, pads: o.Pads, axes: o.Axes, value: o.ConstantValue})
}

// padParams are the resolved parameters of one Pad call.
type padParams struct {
	mode  string
	pads  []int
	axes  []int // nil: every axis
	value *tensor.Tensor
}

func padNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	op := n.op()
	x, err := n.requiredInput(in, 0, "data")
	if err != nil {
		return nil, err
	}
	sonnx := opt.orDefault().Profile == ProfileSONNX
	if sonnx && !n.Has("mode") {
		return nil, op.errorf("GR4", "attribute mode must be given explicitly in the profile (ONNX's default is constant)")
	}
	var p padParams
	if p.mode, err = n.Str("mode", "constant"); err != nil {
		return nil, err
	}
	if n.Version < 11 {
		name := "pads"
		if n.Version == 1 {
			name = "paddings"
		}
		pads, ok, err := n.intsAttr(name, "pads")
		if err != nil {
			return nil, err
		} else if !ok {
			return nil, op.errorf("pads", "attribute %s is required", name)
		}
		p.pads = pads
		if n.Has("value") {
			v, err := n.Float("value", 0)
			if err != nil {
				return nil, err
			}
			if p.value, err = convert.ScalarOf(x.DataType(), float64(v)); err != nil {
				return nil, op.wrap("constant_value", err, "value %v for data of type %v", v, x.DataType())
			}
		}
	} else {
		if p.pads, _, err = n.int64ListInput(opt, in, 1, "pads", "pads", true); err != nil {
			return nil, err
		}
		if p.value, err = n.tensorInput(in, 2); err != nil {
			return nil, err
		}
		if n.Version >= 18 {
			if p.axes, err = padAxesInput(opt, n, in); err != nil {
				return nil, err
			}
		}
	}
	if sonnx && p.mode == "constant" && p.value == nil {
		what := "input constant_value"
		if n.Version < 11 {
			what = "attribute value"
		}
		return nil, op.errorf("GR4", "%s must be given explicitly in the profile (ONNX's default is 0)", what)
	}
	y, err := pad(opt, op, n, x, p)
	if err != nil {
		return nil, err
	}
	return opt.result(y), nil
}

// padAxesInput reads Pad's optional axes input, int32 or int64.
func padAxesInput(opt *Options, n *Node, in []tensor.Value) ([]int, error) {
	op := n.op()
	a, err := n.tensorInput(in, 3)
	if err != nil || a == nil {
		return nil, err
	}
	if a.Rank() > 1 || (opt.orDefault().Profile == ProfileSONNX && a.Rank() != 1) {
		return nil, op.errorf("axes", "axes must be a 1-D tensor, got shape %v", a.Shape())
	}
	a64, err := int64sOf(a)
	if err != nil {
		return nil, op.wrap("axes", err, "axes")
	}
	axes, err := toInts(a64)
	if err != nil {
		return nil, op.errorf("axes", "%v", err)
	}
	return axes, nil
}

// padModeValid reports whether version knows mode.
func padModeValid(version int, mode string) bool {
	switch mode {
	case "constant", "edge", "reflect":
		return true
	case "wrap":
		return version >= 19
	}
	return false
}

// padModes lists the modes version takes, for error messages.
func padModes(version int) string {
	if version >= 19 {
		return "constant, reflect, edge or wrap"
	}
	return "constant, reflect or edge"
}

// padAxis is what Pad does along one axis.
type padAxis struct {
	out      int // output length
	lo       int // first output index of the interior
	n        int // interior length: the input elements kept
	srcStart int // first input index kept
}

// padPlan checks the parameters against the input shape and returns the
// per-axis plan, from which the output shape follows.
func padPlan(op opRef, in []int, p padParams) ([]padAxis, error) {
	r := len(in)
	if !padModeValid(op.version, p.mode) {
		return nil, op.errorf("mode", "unknown mode %q (want %s)", p.mode, padModes(op.version))
	}
	// begin[k], end[k] for every axis, from pads over axes.
	begin, end := make([]int, r), make([]int, r)
	if p.axes == nil {
		if len(p.pads) != 2*r {
			return nil, op.errorf("pads", "pads has %d values, expected 2*rank = %d", len(p.pads), 2*r)
		}
		copy(begin, p.pads[:r])
		copy(end, p.pads[r:])
	} else {
		na := len(p.axes)
		if len(p.pads) != 2*na {
			return nil, op.errorf("pads", "pads has %d values, expected 2*len(axes) = %d", len(p.pads), 2*na)
		}
		norm, err := normalizeAxes(op, p.axes, r, axisRules{rangeRule: "axes", repeatRule: "axes", rankOf: "input"})
		if err != nil {
			return nil, err
		}
		for i, k := range norm {
			begin[k], end[k] = p.pads[i], p.pads[na+i]
		}
	}
	plan := make([]padAxis, r)
	for k, d := range in {
		b, e := begin[k], end[k]
		out, ok := addInts(d, b)
		if ok {
			out, ok = addInts(out, e)
		}
		if !ok || out < 0 {
			return nil, op.errorf("pads", "axis %d of length %d padded by %d and %d would have a negative or impossible length", k, d, b, e)
		}
		first, last := max(0, -b), min(d, d+e) // input elements kept: [first, last)
		a := padAxis{out: out, lo: max(0, b), srcStart: first, n: max(0, last-first)}
		if a.n == 0 {
			a.lo = 0
		}
		if a.n == 0 && out > 0 && p.mode != "constant" {
			return nil, op.errorf("mode", "%s mode cannot pad axis %d: no element is left on it to read", p.mode, k)
		}
		plan[k] = a
	}
	return plan, nil
}

// addInts returns a+b, ok false when the sum overflows int.
func addInts(a, b int) (int, bool) {
	s := a + b
	if (b > 0 && s < a) || (b < 0 && s > a) {
		return 0, false
	}
	return s, true
}

// padShape returns the output shape of Pad, or the broken constraint.
func padShape(op opRef, in []int, p padParams) ([]int, error) {
	plan, err := padPlan(op, in, p)
	if err != nil {
		return nil, err
	}
	out := make([]int, len(plan))
	for k, a := range plan {
		out[k] = a.out
	}
	return out, nil
}

// pad pads x as p says. n, when not nil, is the node: it keeps the plan and
// the index tables of its last run (padKept), and the next run on an input
// of the same type and shape with the same mode, pads and axes takes them,
// charged as if built again.
func pad(opt *Options, op opRef, n *Node, x *tensor.Tensor, p padParams) (*tensor.Tensor, error) {
	if err := checkInput(op, "data", x); err != nil {
		return nil, err
	}
	if err := opt.positiveDims(op, "input data", x.Shape()); err != nil {
		return nil, err
	}
	dt := x.DataType()
	if p.value != nil && !p.value.DataType().Valid() {
		return nil, op.errorf("constant_value", "constant_value has no element type (a zero tensor.Tensor?)")
	}
	if p.value != nil && p.mode == "constant" {
		if p.value.DataType() != dt {
			return nil, op.errorf("constant_value", "constant_value is %v, data is %v", p.value.DataType(), dt)
		}
		if p.value.Len() != 1 || p.value.Rank() > 1 {
			return nil, op.errorf("constant_value", "constant_value must be a scalar, got shape %v", p.value.Shape())
		}
	}
	k := n.lastPad()
	if k == nil || !k.fits(x, p) {
		plan, err := padPlan(op, x.Shape(), p)
		if err != nil {
			return nil, err
		}
		outShape := make([]int, len(plan))
		for a, pa := range plan {
			outShape[a] = pa.out
		}
		k = &padKept{dt: dt, xs: slices.Clone(x.Shape()), mode: p.mode, pads: slices.Clone(p.pads), axes: slices.Clone(p.axes),
			plan: plan, out: outShape, nothing: padsNothing(x.Shape(), plan)}
	}
	outShape := k.out
	if err := opt.positiveDims(op, "output", outShape); err != nil {
		return nil, err
	}
	if k.nothing {
		// Every pad zero: the output is the input, a view of it as
		// Reshape's, which a prepared node replays without a copy.
		y, err := x.View(outShape...)
		if err != nil {
			return nil, op.wrap("shape", err, "output of shape %v", outShape)
		}
		return y, nil
	}
	y, err := opt.orDefault().newOverwritten(op, dt, outShape)
	if err != nil {
		return nil, err
	}
	if y.Len() == 0 {
		return y, nil
	}
	// One pass over the output, row by row: each axis maps its output
	// indices to the input (the interior to itself, the borders as the mode
	// says, or nowhere for constant mode), and the interior of each row is
	// one copy.
	if k.tables == nil {
		if k.tables, err = padTables(opt, op, x.Shape(), k.plan, p.mode); err != nil {
			return nil, err
		}
		k.zero = tensor.MustNew(dt, 1) // zero, or the empty string
		if n != nil {
			n.kept.Store(k)
		}
	} else if err := chargePadTables(opt, op, k.plan); err != nil {
		// The tables are the node's, built at an earlier run; the run is
		// charged for them as if it built them.
		return nil, err
	}
	fill := p.value
	if fill == nil {
		fill = k.zero
	}
	if err := (movement.Table{Tables: k.tables}).Run(opt.moves(), y, x, fill); err != nil {
		return nil, op.stopped(err)
	}
	return y, nil
}

// padKept is what Pad derives from the input's type and shape, the mode,
// the pads and the axes before any work: the plan, the output shape, the
// index tables and the zero fill. A node keeps the one of its last run
// that copied (Node.kept), never modified once stored: a small tensor's
// tables took as long to build as its copy.
type padKept struct {
	dt         tensor.DataType
	xs         []int
	mode       string
	pads, axes []int
	plan       []padAxis
	out        []int
	nothing    bool // padsNothing
	tables     [][]int
	zero       *tensor.Tensor // the fill without constant_value
}

// lastPad is the Pad state the node kept, nil for none (or no node).
func (n *Node) lastPad() *padKept {
	if n == nil {
		return nil
	}
	k, _ := n.kept.Load().(*padKept)
	return k
}

// fits reports whether k was made for x and p.
func (k *padKept) fits(x *tensor.Tensor, p padParams) bool {
	return k.dt == x.DataType() && tensor.SameShape(k.xs, x.Shape()) && k.mode == p.mode &&
		slices.Equal(k.pads, p.pads) && (k.axes == nil) == (p.axes == nil) && slices.Equal(k.axes, p.axes)
}

// padsNothing reports whether plan keeps every element of an input of
// shape in where it is and adds none.
func padsNothing(in []int, plan []padAxis) bool {
	for k, a := range plan {
		if a.out != in[k] || a.lo != 0 || a.srcStart != 0 || a.n != in[k] {
			return false
		}
	}
	return true
}

// padTables returns, for every axis, the input offset (index times stride)
// each output index reads, -1 where constant mode fills. The tables take 8
// bytes an entry, which the size limit bounds as it bounds tensors.
func padTables(opt *Options, op opRef, in []int, plan []padAxis, mode string) ([][]int, error) {
	if err := chargePadTables(opt, op, plan); err != nil {
		return nil, err
	}
	strides := movement.ContiguousStrides(in)
	tables := make([][]int, len(plan))
	for k, a := range plan {
		t := make([]int, a.out)
		for j := range t {
			if i := padSource(mode, a, j); i < 0 {
				t[j] = -1
			} else {
				t[j] = (a.srcStart + i) * strides[k]
			}
		}
		tables[k] = t
	}
	return tables, nil
}

// chargePadTables checks and charges the size of plan's index tables
// (padTables).
func chargePadTables(opt *Options, op opRef, plan []padAxis) error {
	entries := 0
	for _, a := range plan {
		entries = addCounts(entries, a.out)
	}
	return opt.scratch(op, "the index tables", entries, 8)
}

// padSource returns the interior index (0 for the first input element kept)
// that output index j of axis a reads, or -1 for a constant fill.
func padSource(mode string, a padAxis, j int) int {
	t := j - a.lo // the position relative to the interior
	if t >= 0 && t < a.n {
		return t
	}
	switch mode {
	case "edge":
		return min(max(t, 0), a.n-1)
	case "wrap":
		return ((t % a.n) + a.n) % a.n
	case "reflect":
		if a.n == 1 {
			return 0
		}
		period := 2 * (a.n - 1)
		m := ((t % period) + period) % period
		if m >= a.n {
			m = period - m
		}
		return m
	}
	return -1
}
