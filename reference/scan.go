// Scan (ONNX Scan 8, 9, 11, 16, 19, 21, 23, 24, 25): "Scan can be used to
// iterate over one or more scan_input tensors, constructing zero or more
// scan_output tensors". With N state inputs and M scan inputs (attribute
// num_scan_inputs), for t in 0 .. sequence_length-1 the body gets the
// states and slice t of each scan input along its axis
// (scan_input_axes; taken from the end when scan_input_directions says
// 1), and returns the next states and one element of each scan output;
// these are stacked along scan_output_axes, in reverse order when
// scan_output_directions says 1. Version 8 has a batch axis 0 on every
// input and output, scans axis 1 (attribute directions), and stops each
// batch item at its sequence_lens, the scan outputs' later steps left
// zero. Negative axes are taken from the back from version 11.
// [num_scan_inputs], [body], [axes], [directions], [sequence-length],
// [scan-output] as the fast kernel.

package reference

import (
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("Scan", []int{8, 9, 11, 16, 19, 21, 23, 24, 25}, scan)
}

func scan(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	batched := op.version == 8
	first := 0
	if batched {
		first = 1
	}
	m, err := intAttr(n, "num_scan_inputs", -1, "num_scan_inputs")
	if err != nil {
		return nil, err
	}
	if m < 1 || m > len(in)-first {
		return nil, op.errorf("num_scan_inputs", "num_scan_inputs is %d, the node has %d inputs", m, len(in)-first)
	}
	nState := len(in) - first - m
	g, err := graphAttr(op, n, "body")
	if err != nil {
		return nil, err
	}
	if g.Inputs != nState+m {
		return nil, op.errorf("body", "the body has %d inputs, the node %d state and %d scan inputs", g.Inputs, nState, m)
	}
	k := g.Outputs - nState
	if k < 0 {
		return nil, op.errorf("body", "the body has %d outputs, fewer than the %d states", g.Outputs, nState)
	}
	xs := make([]*tensor.Tensor, len(in))
	for i := range in {
		if batched && i == 0 && in[0] == nil {
			continue
		}
		if xs[i], err = requiredInput(op, in, i, "input"); err != nil {
			return nil, err
		}
	}
	list := func(name string, count int) ([]int, error) {
		v, ok, err := intsAttr(n, name, "attribute")
		if err != nil {
			return nil, err
		}
		if !ok {
			return make([]int, count), nil
		}
		if len(v) != count {
			rule := "directions"
			if name == "scan_input_axes" || name == "scan_output_axes" {
				rule = "axes"
			}
			return nil, op.errorf(rule, "%s has %d entries, the node %d", name, len(v), count)
		}
		return v, nil
	}
	var inAxes, inDirs, outAxes, outDirs []int
	if batched {
		if inDirs, err = list("directions", m); err != nil {
			return nil, err
		}
		inAxes, outAxes, outDirs = make([]int, m), make([]int, k), make([]int, k)
	} else {
		for _, p := range []struct {
			name  string
			count int
			dst   *[]int
		}{{"scan_input_axes", m, &inAxes}, {"scan_input_directions", m, &inDirs}, {"scan_output_axes", k, &outAxes}, {"scan_output_directions", k, &outDirs}} {
			if *p.dst, err = list(p.name, p.count); err != nil {
				return nil, err
			}
		}
	}
	for _, d := range append(append([]int{}, inDirs...), outDirs...) {
		if d != 0 && d != 1 {
			return nil, op.errorf("directions", "a direction is %d, not 0 or 1", d)
		}
	}
	s := scanBody{g: g, op: op, nState: nState, inAxes: inAxes, inDirs: inDirs, outAxes: outAxes, outDirs: outDirs, negative: op.version >= 11}
	if !batched {
		return s.run(opt, xs[:nState], xs[nState:], -1)
	}
	return s.batches(opt, xs[0], xs[1:1+nState], xs[1+nState:])
}

type scanBody struct {
	g                                *ops.Subgraph
	op                               opRef
	nState                           int
	inAxes, inDirs, outAxes, outDirs []int
	negative                         bool
}

// run is one scan of xs from states, stopped after limit steps when limit
// is not negative (the rest of the scan outputs' steps are zeros).
func (s *scanBody) run(opt *ops.Options, states, xs []*tensor.Tensor, limit int) ([]tensor.Value, error) {
	op := s.op
	axes := make([]int, len(xs))
	length := -1
	for j, x := range xs {
		a := s.inAxes[j]
		if a < 0 && s.negative {
			a += x.Rank()
		}
		if a < 0 || a >= x.Rank() {
			return nil, op.errorf("axes", "scan input %d's axis %d is outside its rank %d", j, s.inAxes[j], x.Rank())
		}
		axes[j] = a
		if length >= 0 && x.Shape()[a] != length {
			return nil, op.errorf("sequence-length", "scan input %d has %d steps, scan input 0 has %d", j, x.Shape()[a], length)
		}
		length = x.Shape()[a]
	}
	steps := length
	if limit >= 0 && limit < length {
		steps = limit
	}
	state := make([]tensor.Value, len(states))
	for i, t := range states {
		state[i] = t
	}
	scans := make([][]*tensor.Tensor, len(s.outAxes))
	for t := 0; t < steps; t++ {
		if err := cancelled(opt, op); err != nil {
			return nil, err
		}
		args := append([]tensor.Value{}, state...)
		for j, x := range xs {
			at := t
			if s.inDirs[j] == 1 {
				at = steps - 1 - t
			}
			slice, err := sliceAt(opt, op, x, axes[j], at)
			if err != nil {
				return nil, err
			}
			args = append(args, slice)
		}
		out, err := s.g.Run(opt, args)
		if err != nil {
			return nil, err
		}
		if len(out) != s.g.Outputs {
			return nil, op.errorf("body", "the body produced %d outputs, it declares %d", len(out), s.g.Outputs)
		}
		for i, v := range out[:s.nState] {
			if t, ok := v.(*tensor.Tensor); !ok || t == nil {
				return nil, op.errorf("type", "state output %d is not a tensor", i)
			}
			state[i] = v
		}
		for j, v := range out[s.nState:] {
			e, err := keepScanElement(opt, op, j, v, scans[j])
			if err != nil {
				return nil, err
			}
			scans[j] = append(scans[j], e)
		}
	}
	res := state
	for j, list := range scans {
		if s.outDirs[j] == 1 {
			rev := make([]*tensor.Tensor, len(list))
			for i, t := range list {
				rev[len(list)-1-i] = t
			}
			list = rev
		}
		for len(list) > 0 && len(list) < length {
			z, err := newTensor(opt, op, list[0].DataType(), list[0].Shape())
			if err != nil {
				return nil, err
			}
			list = append(list, z)
		}
		axis := 0
		if len(list) > 0 {
			axis = s.outAxes[j]
			if axis < 0 && s.negative {
				axis += list[0].Rank() + 1
			}
			if axis < 0 || axis > list[0].Rank() {
				return nil, op.errorf("axes", "scan output %d's axis %d is outside its rank %d", j, s.outAxes[j], list[0].Rank()+1)
			}
		}
		y, err := stackAlong(opt, op, list, axis, s.g.OutputTypes, s.nState+j)
		if err != nil {
			return nil, err
		}
		res = append(res, y)
	}
	return res, nil
}

// batches is Scan 8: each batch item b scanned along axis 1 on its own,
// for sequence_lens[b] steps, the results stacked along axis 0.
func (s *scanBody) batches(opt *ops.Options, lens *tensor.Tensor, states, xs []*tensor.Tensor) ([]tensor.Value, error) {
	op := s.op
	batch := -1
	for _, x := range append(append([]*tensor.Tensor{}, states...), xs...) {
		if x.Rank() < 1 || (batch >= 0 && x.Shape()[0] != batch) {
			return nil, op.errorf("sequence-length", "every state and scan input needs the batch axis 0 of one size, got %s", x.Describe())
		}
		batch = x.Shape()[0]
	}
	for _, x := range xs {
		if x.Rank() < 2 {
			return nil, op.errorf("sequence-length", "a scan input needs a batch and a sequence axis, got %s", x.Describe())
		}
	}
	var limits []int64
	if lens != nil {
		if lens.DataType() != tensor.Int64 || lens.Rank() != 1 || lens.Len() != batch {
			return nil, op.errorf("sequence-length", "sequence_lens must be %d int64, got %s", batch, lens.Describe())
		}
		limits, _ = lens.Int64s()
		for _, l := range limits {
			if l < 0 || l > int64(xs[0].Shape()[1]) {
				return nil, op.errorf("sequence-length", "a sequence length is %d, outside [0, %d]", l, xs[0].Shape()[1])
			}
		}
	}
	results := make([][]*tensor.Tensor, s.nState+len(s.outAxes))
	for b := 0; b < batch; b++ {
		var st, sx []*tensor.Tensor
		for _, x := range states {
			t, err := sliceAt(opt, op, x, 0, b)
			if err != nil {
				return nil, err
			}
			st = append(st, t)
		}
		for _, x := range xs {
			t, err := sliceAt(opt, op, x, 0, b)
			if err != nil {
				return nil, err
			}
			sx = append(sx, t)
		}
		limit := -1
		if limits != nil {
			limit = int(limits[b])
		}
		out, err := s.run(opt, st, sx, limit)
		if err != nil {
			return nil, err
		}
		for i, v := range out {
			results[i] = append(results[i], v.(*tensor.Tensor))
		}
	}
	res := make([]tensor.Value, len(results))
	for i, list := range results {
		y, err := stackAlong(opt, op, list, 0, s.g.OutputTypes, i)
		if err != nil {
			return nil, err
		}
		res[i] = y
	}
	return res, nil
}

// sliceAt returns x[..., at, ...] with axis axis removed: a fresh tensor.
func sliceAt(opt *ops.Options, op opRef, x *tensor.Tensor, axis, at int) (*tensor.Tensor, error) {
	shape := x.Shape()
	yshape := append(append([]int{}, shape[:axis]...), shape[axis+1:]...)
	y, err := newTensor(opt, op, x.DataType(), yshape)
	if err != nil {
		return nil, err
	}
	outer, inner := 1, 1
	for _, d := range shape[:axis] {
		outer *= d
	}
	for _, d := range shape[axis+1:] {
		inner *= d
	}
	for o := 0; o < outer; o++ {
		for i := 0; i < inner; i++ {
			copyElement(y, o*inner+i, x, (o*shape[axis]+at)*inner+i)
		}
	}
	return y, nil
}
