// Scan runs its body once per slice of its scan inputs, carrying state
// values from one step to the next, and stacks the body's scan outputs
// of every step.
//
// Versions: 8 (inputs and outputs have a batch axis 0 and the sequence
// axis 1; an optional first input, sequence_lens, gives each batch item's
// length: the steps past it leave the state as it is and the scan outputs
// zero; attribute directions); 9 (no batch axis: scan_input_axes,
// scan_input_directions, scan_output_axes, scan_output_directions, axes
// non-negative); 11 (negative axes, counted from the back); 16, 19, 21,
// 23, 24 and 25 add element types. The body has N state inputs and M
// scan inputs (one slice each), N state outputs and K scan outputs.
//
// Constraints, in order: [num_scan_inputs] the attribute is at least 1
// and at most the inputs; [body] the body is set and has N+M inputs and at
// least N outputs; [axes] each axis attribute has one entry per scan input
// or output, each within the rank; [directions] 0 or 1; [sequence-length]
// every scan input has the same length on its axis (version 8: the same
// batch and sequence length, and sequence_lens within it); [scan-output]
// a scan output has one shape and type at every step.

package ops

import (
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("Scan", []int{8, 9, 11, 16, 19, 21, 23, 24, 25}, [2]int{1, -1}, [2]int{1, -1}, scanNode)
	declareAttrs("Scan",
		AttrSpec{Name: "body", Type: AttrGraph},
		AttrSpec{Name: "num_scan_inputs", Type: AttrInt},
		AttrSpec{Name: "directions", Type: AttrInts, Before: 9},
		AttrSpec{Name: "scan_input_axes", Type: AttrInts, From: 9},
		AttrSpec{Name: "scan_input_directions", Type: AttrInts, From: 9},
		AttrSpec{Name: "scan_output_axes", Type: AttrInts, From: 9},
		AttrSpec{Name: "scan_output_directions", Type: AttrInts, From: 9})
}

// scanSpec is a Scan node's attributes, read once.
type scanSpec struct {
	body                *Subgraph
	nState, nIn, nOut   int
	inAxes, inDirs      []int64
	outAxes, outDirs    []int64
	firstIn             int // the first state input: 1 in version 8 (after sequence_lens)
	batched, negativeOK bool
	outTypes            []tensor.DataType
}

func scanNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	op := n.op()
	s := scanSpec{batched: op.version == 8, negativeOK: op.version >= 11}
	if s.batched {
		s.firstIn = 1
	}
	nIn, err := n.intAttr("num_scan_inputs", -1, "num_scan_inputs")
	if err != nil {
		return nil, err
	}
	if nIn < 1 || nIn > len(in)-s.firstIn {
		return nil, op.errorf("num_scan_inputs", "num_scan_inputs is %d, the node has %d inputs", nIn, len(in)-s.firstIn)
	}
	s.nIn = nIn
	s.nState = len(in) - s.firstIn - nIn
	if s.body, err = n.GraphAttr("body"); err != nil {
		return nil, err
	}
	if s.body == nil || s.body.Run == nil {
		return nil, op.errorf("body", "attribute body holds no graph")
	}
	if s.body.Inputs != s.nState+s.nIn {
		return nil, op.errorf("body", "the body has %d inputs, the node %d state and %d scan inputs", s.body.Inputs, s.nState, s.nIn)
	}
	s.nOut = s.body.Outputs - s.nState
	if s.nOut < 0 {
		return nil, op.errorf("body", "the body has %d outputs, fewer than the %d states", s.body.Outputs, s.nState)
	}
	s.outTypes = s.body.OutputTypes
	xs := make([]*tensor.Tensor, len(in))
	for i := range in {
		if i == 0 && s.batched && in[0] == nil {
			continue
		}
		t, err := n.requiredInput(in, i, "input")
		if err != nil {
			return nil, err
		}
		xs[i] = t
	}
	attr := func(name string, count int) ([]int64, error) {
		v, ok, err := n.Ints(name)
		if err != nil {
			return nil, err
		}
		if !ok {
			return make([]int64, count), nil
		}
		if len(v) != count {
			rule := "axes"
			if name != "scan_input_axes" && name != "scan_output_axes" {
				rule = "directions"
			}
			return nil, op.errorf(rule, "%s has %d entries, the node %d", name, len(v), count)
		}
		return v, nil
	}
	if s.batched {
		if s.inDirs, err = attr("directions", s.nIn); err != nil {
			return nil, err
		}
		s.inAxes, s.outAxes, s.outDirs = make([]int64, s.nIn), make([]int64, s.nOut), make([]int64, s.nOut)
	} else {
		if s.inAxes, err = attr("scan_input_axes", s.nIn); err != nil {
			return nil, err
		}
		if s.inDirs, err = attr("scan_input_directions", s.nIn); err != nil {
			return nil, err
		}
		if s.outAxes, err = attr("scan_output_axes", s.nOut); err != nil {
			return nil, err
		}
		if s.outDirs, err = attr("scan_output_directions", s.nOut); err != nil {
			return nil, err
		}
	}
	for _, d := range append(append([]int64{}, s.inDirs...), s.outDirs...) {
		if d != 0 && d != 1 {
			return nil, op.errorf("directions", "a direction is %d, not 0 (forward) or 1 (reverse)", d)
		}
	}
	if !s.batched {
		return s.run(opt, op, xs[:s.nState], xs[s.nState:], -1)
	}
	return s.runBatched(opt, op, xs[0], xs[1:1+s.nState], xs[1+s.nState:])
}

// run scans the inputs xs with states as the initial state, for at most
// limit steps when limit is not negative (the padding of Scan 8's
// sequence_lens is then added to the scan outputs up to the full length).
func (s *scanSpec) run(opt *Options, op opRef, states, xs []*tensor.Tensor, limit int) ([]tensor.Value, error) {
	axes := make([]int, len(xs))
	steps := -1
	for j, x := range xs {
		a, ok := normalizeAxis(s.inAxes[j], x.Rank())
		if !ok || (!s.negativeOK && s.inAxes[j] < 0) {
			return nil, op.errorf("axes", "scan input %d's axis %d is outside its rank %d", j, s.inAxes[j], x.Rank())
		}
		axes[j] = a
		if steps >= 0 && x.Shape()[a] != steps {
			return nil, op.errorf("sequence-length", "scan input %d has %d steps, scan input 0 has %d", j, x.Shape()[a], steps)
		}
		steps = x.Shape()[a]
	}
	full := steps
	if limit >= 0 && limit < steps {
		steps = limit
	}
	args := make([]tensor.Value, s.nState+len(xs))
	state := make([]tensor.Value, s.nState)
	for i, t := range states {
		state[i] = t
	}
	scans := make([][]*tensor.Tensor, s.nOut)
	for t := 0; t < steps; t++ {
		if err := opt.cancelled(); err != nil {
			return nil, op.stopped(err)
		}
		copy(args, state)
		for j, x := range xs {
			at := t
			if s.inDirs[j] == 1 {
				at = steps - 1 - t
			}
			slice, err := gatherAxis(opt, op, x, tensor.Scalar(int64(at)), axes[j])
			if err != nil {
				return nil, err
			}
			args[s.nState+j] = slice
		}
		out, err := s.body.Run(opt, args)
		if err != nil {
			return nil, err
		}
		if len(out) != s.body.Outputs {
			return nil, op.errorf("body", "the body produced %d outputs, it declares %d", len(out), s.body.Outputs)
		}
		for k, v := range out[:s.nState] {
			if t, ok := v.(*tensor.Tensor); !ok || t == nil {
				return nil, op.errorf("type", "state output %d is %s, not a tensor", k, describe(v))
			}
			state[k] = v
		}
		for k, v := range out[s.nState:] {
			e, err := scanElement(opt, op, k, v, scans[k])
			if err != nil {
				return nil, err
			}
			scans[k] = append(scans[k], e)
		}
	}
	res := state
	for k, list := range scans {
		if s.outDirs[k] == 1 {
			for i, j := 0, len(list)-1; i < j; i, j = i+1, j-1 {
				list[i], list[j] = list[j], list[i]
			}
		}
		for len(list) > 0 && len(list) < full { // Scan 8: the steps past the length are zeros
			z, err := opt.newTensor(op, list[0].DataType(), list[0].Shape())
			if err != nil {
				return nil, err
			}
			list = append(list, z)
		}
		axis := 0
		if len(list) > 0 {
			a, ok := normalizeAxis(s.outAxes[k], list[0].Rank()+1)
			if !ok || (!s.negativeOK && s.outAxes[k] < 0) {
				return nil, op.errorf("axes", "scan output %d's axis %d is outside its rank %d", k, s.outAxes[k], list[0].Rank()+1)
			}
			axis = a
		}
		y, err := stack(opt, op, list, axis, s.outTypes, s.nState+k)
		if err != nil {
			return nil, err
		}
		res = append(res, y)
	}
	return res, nil
}

// runBatched is Scan 8: each batch item (axis 0 of every input) is
// scanned on its own along axis 1, for its sequence length, and the
// results are stacked back along axis 0.
func (s *scanSpec) runBatched(opt *Options, op opRef, lens *tensor.Tensor, states, xs []*tensor.Tensor) ([]tensor.Value, error) {
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
			return nil, op.errorf("sequence-length", "sequence_lens must be an int64 tensor of %d elements, got %s", batch, lens.Describe())
		}
		limits, _ = lens.Int64s()
		for _, l := range limits {
			if l < 0 || l > int64(xs[0].Shape()[1]) {
				return nil, op.errorf("sequence-length", "a sequence length is %d, outside [0, %d]", l, xs[0].Shape()[1])
			}
		}
	}
	item := func(x *tensor.Tensor, b int) (*tensor.Tensor, error) {
		return gatherAxis(opt, op, x, tensor.Scalar(int64(b)), 0)
	}
	results := make([][]*tensor.Tensor, s.nState+s.nOut)
	for b := 0; b < batch; b++ {
		st := make([]*tensor.Tensor, len(states))
		for i, x := range states {
			t, err := item(x, b)
			if err != nil {
				return nil, err
			}
			st[i] = t
		}
		in := make([]*tensor.Tensor, len(xs))
		for j, x := range xs {
			t, err := item(x, b)
			if err != nil {
				return nil, err
			}
			in[j] = t
		}
		limit := -1
		if limits != nil {
			limit = int(limits[b])
		}
		out, err := s.run(opt, op, st, in, limit)
		if err != nil {
			return nil, err
		}
		for k, v := range out {
			results[k] = append(results[k], v.(*tensor.Tensor))
		}
	}
	res := make([]tensor.Value, len(results))
	for k, list := range results {
		y, err := stack(opt, op, list, 0, s.outTypes, k)
		if err != nil {
			return nil, err
		}
		res[k] = y
	}
	return res, nil
}
