// Split cuts a tensor along one axis into consecutive parts, one per node
// output. Zero-sized parts are ordinary.
//
// Versions differ in how the sizes of the parts are given:
//   - 1: attribute split, or the same list as an optional second input
//     (of the data's float type in that version); axis defaults to 0;
//   - 2: attribute split only;
//   - 11: as 2, and axis may be negative, in [-r, r-1] (before: [0, r-1]);
//   - 13: split becomes an optional int64 input;
//   - 18: attribute num_outputs n, as an alternative to split: every part
//     is ceil(d/n) long and the last one takes what remains (it is smaller).
//
// Without split (and before 18 without num_outputs) the axis is cut into as
// many equal parts as the node has outputs, and it must divide evenly (ONNX
// shape inference: "the input is not evenly splittable"). Version 18 asks
// for split or num_outputs ("Either input 'split' or the attribute
// 'num_outputs' should be specified"); with neither, the ONNX reference
// evaluator cuts into as many parts as the node has outputs under the
// num_outputs rule, and so do we, except under ProfileSONNX, which refuses
// what the specification leaves to a default (GR4).
//
// Rules: [axis] the axis exists; [split] one non-negative size per output,
// adding up to the dimension; [num_outputs] n >= 1, equal to the node's
// outputs, and the uneven rule leaves no negative last part; [attribute] a
// node does not set an attribute its version lacks (split from 13,
// num_outputs before 18), as the ONNX checker refuses it.

package ops

import (
	"math"
	"slices"

	"github.com/onnxshape/onnxshape/ops/internal/movement"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("Split", []int{1}, [2]int{1, 2}, [2]int{1, -1}, splitNode)
	register("Split", []int{2, 11}, [2]int{1, 1}, [2]int{1, -1}, splitNode)
	register("Split", []int{13, 18}, [2]int{1, 2}, [2]int{1, -1}, splitNode)
}

// SplitOptions are the parameters of Split. Give Split or NumOutputs.
type SplitOptions struct {
	// Axis is the axis to cut; negative values count from the end.
	Axis int
	// Split is the size of each part, in order; nil when not given.
	Split []int
	// NumOutputs, when Split is nil, is the number of parts: each
	// ceil(d/NumOutputs) long, the last one smaller if d does not divide.
	NumOutputs int
}

// Split returns the parts of x cut along o.Axis (ONNX Split, version 18).
// The parts are new tensors; x is not modified.
func Split(x *tensor.Tensor, o SplitOptions, opts ...Option) ([]*tensor.Tensor, error) {
	op := opRef{"Split", 18}
	opt, err := callOptions(op, opts)
	if err != nil {
		return nil, err
	}
	if o.NumOutputs < 0 {
		return nil, op.errorf("num_outputs", "num_outputs is %d, expected at least 1", o.NumOutputs)
	}
	p := splitParams{axis: o.Axis, split: o.Split, numOutputs: o.NumOutputs}
	if len(p.split) == 0 {
		p.split = nil
	}
	return split(opt, op, x, p)
}

// splitParams are Split's parameters once read from a node.
type splitParams struct {
	axis       int
	split      []int // the size of each part; nil when not given
	numOutputs int   // attribute num_outputs; 0 when not given
	outputs    int   // the outputs the node declares; 0 when unknown
}

func splitNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	op := n.op()
	x, err := n.requiredInput(in, 0, "input")
	if err != nil {
		return nil, err
	}
	if opt.orDefault().Profile == ProfileSONNX && !n.Has("axis") {
		return nil, op.errorf("GR4", "attribute axis must be given explicitly in the profile (ONNX's default is 0)")
	}
	axis64, err := n.Int("axis", 0)
	if err != nil {
		return nil, err
	}
	// Attributes of other versions are refused, as the ONNX checker does.
	if n.Version >= 13 && n.Has("split") {
		return nil, op.errorf("attribute", "attribute split exists up to version 11; from 13 split is an input")
	}
	if n.Version < 18 && n.Has("num_outputs") {
		return nil, op.errorf("attribute", "attribute num_outputs exists from version 18 on")
	}
	p := splitParams{outputs: n.NumOutputs}
	if p.axis, err = toInt(axis64); err != nil {
		return nil, op.errorf("axis", "%v", err)
	}
	var sizes []int64
	if n.Version < 13 {
		if a, ok, err := n.Ints("split"); err != nil {
			return nil, err
		} else if ok {
			sizes = a
		}
	}
	if n.Version == 1 || n.Version >= 13 {
		s, err := n.tensorInput(in, 1)
		if err != nil {
			return nil, err
		}
		if s != nil {
			if sizes != nil {
				return nil, op.errorf("split", "split is given both as an attribute and as an input")
			}
			if sizes, err = splitInput(op, s); err != nil {
				return nil, err
			}
		}
	}
	// An empty list sets nothing: exporters write it for "not given".
	if len(sizes) > 0 {
		if p.split, err = toInts(sizes); err != nil {
			return nil, op.errorf("split", "%v", err)
		}
	}
	if n.Has("num_outputs") {
		v, err := n.Int("num_outputs", 0)
		if err != nil {
			return nil, err
		}
		if v < 1 || v > math.MaxInt32 {
			return nil, op.errorf("num_outputs", "num_outputs is %d, expected in [1, 2^31-1]", v)
		}
		p.numOutputs = int(v)
	}
	parts, err := split(opt, op, x, p)
	if err != nil {
		return nil, err
	}
	return values(parts...), nil
}

// splitInput reads the sizes given as an input: 1-D int64 from version 13;
// in version 1 the input has the data's (float) type and holds whole numbers.
func splitInput(op opRef, s *tensor.Tensor) ([]int64, error) {
	if s.Rank() != 1 {
		return nil, op.errorf("split", "split must be a 1-D tensor, got shape %v", s.Shape())
	}
	if op.version >= 13 {
		if s.DataType() != tensor.Int64 {
			return nil, op.errorf("split", "split must be int64, got %v", s.DataType())
		}
		return int64sOf(s)
	}
	if v, err := int64sOf(s); err == nil {
		return v, nil
	}
	f, err := s.Float64s()
	if err != nil {
		return nil, op.errorf("split", "split of type %v holds no sizes", s.DataType())
	}
	out := make([]int64, len(f))
	for i, x := range f {
		if x != math.Trunc(x) || math.Abs(x) > 1<<53 {
			return nil, op.errorf("split", "split[%d] = %v is not a whole number", i, x)
		}
		out[i] = int64(x)
	}
	return out, nil
}

// splitShapes checks the parameters against the input shape and returns the
// axis in [0, r-1] and the size of each part along it.
func splitShapes(opt *Options, op opRef, shape []int, p splitParams) (int, []int, error) {
	r := len(shape)
	lo := -r
	if op.version < 11 {
		lo = 0
	}
	if r == 0 {
		return 0, nil, op.errorf("axis", "a rank-0 input has no axis to split")
	}
	if p.axis < lo || p.axis >= r {
		return 0, nil, op.errorf("axis", "axis %d is outside [%d, %d] for an input of rank %d", p.axis, lo, r-1, r)
	}
	k := p.axis
	if k < 0 {
		k += r
	}
	d := shape[k]
	switch {
	case p.split != nil:
		if p.numOutputs != 0 {
			return 0, nil, op.errorf("split", "split and num_outputs are both given")
		}
		if p.outputs != 0 && len(p.split) != p.outputs {
			return 0, nil, op.errorf("split", "split has %d sizes but the node has %d outputs", len(p.split), p.outputs)
		}
		sum := 0
		for i, s := range p.split {
			if s < 0 {
				return 0, nil, op.errorf("split", "split[%d] = %d is negative", i, s)
			}
			if s > d-sum {
				return 0, nil, op.errorf("split", "the sizes %v add up to more than dimension %d (%d)", p.split, k, d)
			}
			sum += s
		}
		if sum != d {
			return 0, nil, op.errorf("split", "the sizes %v add up to %d, not to dimension %d (%d)", p.split, sum, k, d)
		}
		return k, p.split, nil
	case p.numOutputs != 0:
		if p.outputs != 0 && p.numOutputs != p.outputs {
			return 0, nil, op.errorf("num_outputs", "num_outputs is %d but the node has %d outputs", p.numOutputs, p.outputs)
		}
		sizes, err := unevenParts(opt, op, d, p.numOutputs)
		return k, sizes, err
	case p.outputs == 0:
		return 0, nil, op.errorf("num_outputs", "neither split nor num_outputs is given, and the number of outputs is unknown")
	case op.version >= 18:
		if opt.orDefault().Profile == ProfileSONNX {
			return 0, nil, op.errorf("GR4", "give split or num_outputs: the profile takes no default")
		}
		sizes, err := unevenParts(opt, op, d, p.outputs)
		return k, sizes, err
	default:
		if d%p.outputs != 0 {
			return 0, nil, op.errorf("split", "dimension %d (%d) does not split evenly into %d outputs", k, d, p.outputs)
		}
		sizes := make([]int, p.outputs)
		for i := range sizes {
			sizes[i] = d / p.outputs
		}
		return k, sizes, nil
	}
}

// unevenParts applies version 18's rule: n parts of ceil(d/n), the last one
// what remains.
func unevenParts(opt *Options, op opRef, d, n int) ([]int, error) {
	// Each part costs a tensor header even when empty: bound their number
	// by the size limit before the list of sizes is made.
	if err := opt.scratch(op, "the sizes of the outputs", n, tensorHeaderBytes); err != nil {
		return nil, err
	}
	chunk := d / n
	if d%n != 0 {
		chunk++
	}
	last := d - chunk*(n-1)
	if last < 0 {
		return nil, op.errorf("num_outputs", "dimension %d cannot be cut into %d parts of %d with a smaller last part", d, n, chunk)
	}
	sizes := make([]int, n)
	for i := range sizes {
		sizes[i] = chunk
	}
	sizes[n-1] = last
	return sizes, nil
}

func split(opt *Options, op opRef, x *tensor.Tensor, p splitParams) ([]*tensor.Tensor, error) {
	if err := checkInput(op, "input", x); err != nil {
		return nil, err
	}
	if err := opt.positiveDims(op, "input", x.Shape()); err != nil {
		return nil, err
	}
	k, sizes, err := splitShapes(opt, op, x.Shape(), p)
	if err != nil {
		return nil, err
	}
	for i, s := range sizes {
		if s == 0 && opt.orDefault().Profile == ProfileSONNX {
			return nil, op.errorf(sonnxPositiveDims, "output %d would have length 0 on axis %d, and the profile's tensors have positive dimensions", i, k)
		}
	}
	// Each part holds a shape of the input's rank and a tensor header: a
	// rank-2000 input cut into 200k parts would take 3 GB of shapes alone.
	perPart := addCounts(mulCounts(x.Rank(), 8), tensorHeaderBytes)
	if err := opt.scratch(op, "the outputs' shapes and headers", len(sizes), perPart); err != nil {
		return nil, err
	}
	parts := make([]*tensor.Tensor, len(sizes))
	shape := slices.Clone(x.Shape()) // each part's header takes a copy
	for i, s := range sizes {
		shape[k] = s
		y, err := opt.orDefault().newOverwritten(op, x.DataType(), shape)
		if err != nil {
			return nil, err
		}
		parts[i] = y
	}
	if st, ok := movement.NewStitch(x, parts, k); ok {
		if err := st.Cut(opt.moves()); err != nil {
			return nil, op.stopped(err)
		}
		return parts, nil
	}
	// Narrow rows: each part is one box of the input, at its offset on
	// axis k, copied by a strided loop.
	at := make([]int, x.Rank())
	for _, y := range parts {
		if err := movement.BoxPlan(y.Shape(), x.Shape(), at, nil, y.Shape(), nil).Run(opt.moves(), y, x); err != nil {
			return nil, op.stopped(err)
		}
		at[k] += y.Shape()[k]
	}
	return parts, nil
}
