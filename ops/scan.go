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
	"reflect"
	"unsafe"

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
	k, ok := n.kept.Load().(*scanKept)
	if !ok || !k.of(n) {
		s, err := readScanSpec(n, len(in))
		if err != nil {
			return nil, err
		}
		k = &scanKept{spec: s, attrs: reflect.ValueOf(n.Attrs).UnsafePointer(), count: len(n.Attrs)}
		n.kept.Store(k)
	}
	s := &k.spec
	if s.nState+s.nIn+s.firstIn != len(in) {
		return nil, op.errorf("num_scan_inputs", "the node has %d inputs, its attributes were read for %d", len(in), s.nState+s.nIn+s.firstIn)
	}
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
	if !s.batched {
		return s.run(opt, op, xs[:s.nState], xs[s.nState:], -1)
	}
	return s.runBatched(opt, op, xs[0], xs[1:1+s.nState], xs[1+s.nState:])
}

// scanKept is a Scan node's attributes, read and checked at its first run
// and kept for the next (Node.kept), as recurrentKept.
type scanKept struct {
	spec  scanSpec // read only once stored: runs share it
	attrs unsafe.Pointer
	count int
}

// of reports whether k was read from n's attribute map as it is.
func (k *scanKept) of(n *Node) bool {
	return k.attrs == reflect.ValueOf(n.Attrs).UnsafePointer() && k.count == len(n.Attrs)
}

// readScanSpec reads and checks the attributes of a Scan node of inputs
// inputs.
func readScanSpec(n *Node, inputs int) (scanSpec, error) {
	op := n.op()
	s := scanSpec{batched: op.version == 8, negativeOK: op.version >= 11}
	if s.batched {
		s.firstIn = 1
	}
	nIn, err := n.intAttr("num_scan_inputs", -1, "num_scan_inputs")
	if err != nil {
		return s, err
	}
	if nIn < 1 || nIn > inputs-s.firstIn {
		return s, op.errorf("num_scan_inputs", "num_scan_inputs is %d, the node has %d inputs", nIn, inputs-s.firstIn)
	}
	s.nIn = nIn
	s.nState = inputs - s.firstIn - nIn
	if s.body, err = n.GraphAttr("body"); err != nil {
		return s, err
	}
	if s.body == nil || s.body.Run == nil {
		return s, op.errorf("body", "attribute body holds no graph")
	}
	if s.body.Inputs != s.nState+s.nIn {
		return s, op.errorf("body", "the body has %d inputs, the node %d state and %d scan inputs", s.body.Inputs, s.nState, s.nIn)
	}
	s.nOut = s.body.Outputs - s.nState
	if s.nOut < 0 {
		return s, op.errorf("body", "the body has %d outputs, fewer than the %d states", s.body.Outputs, s.nState)
	}
	s.outTypes = s.body.OutputTypes
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
			return s, err
		}
		s.inAxes, s.outAxes, s.outDirs = make([]int64, s.nIn), make([]int64, s.nOut), make([]int64, s.nOut)
	} else {
		if s.inAxes, err = attr("scan_input_axes", s.nIn); err != nil {
			return s, err
		}
		if s.inDirs, err = attr("scan_input_directions", s.nIn); err != nil {
			return s, err
		}
		if s.outAxes, err = attr("scan_output_axes", s.nOut); err != nil {
			return s, err
		}
		if s.outDirs, err = attr("scan_output_directions", s.nOut); err != nil {
			return s, err
		}
	}
	for _, d := range append(append([]int64{}, s.inDirs...), s.outDirs...) {
		if d != 0 && d != 1 {
			return s, op.errorf("directions", "a direction is %d, not 0 (forward) or 1 (reverse)", d)
		}
	}
	return s, nil
}

// scanStepBytes is what a step of a Scan counts against the run's cap.
const scanStepBytes = 64

// run scans the inputs xs with states as the initial state, for at most
// limit steps when limit is not negative (the scan outputs are then zero
// past the last step, up to the full length: Scan 8's sequence_lens).
//
// No step allocates: a step's slice of each scan input is copied into one
// tensor made for the run (a new one only after the body returned the
// last as a state), and the body's scan outputs are copied into their
// place in the stacked outputs, made at the first step.
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
	// Each step counts scanStepBytes against the run's cap, as a list of
	// its elements' headers once did: the cap bounds the number of steps
	// as it bounds bytes, so a Scan over 10^9 steps of empty slices is
	// refused before its first step instead of running for an hour.
	if err := opt.scratch(op, "the scan's steps", steps, scanStepBytes); err != nil {
		return nil, err
	}
	args := make([]tensor.Value, s.nState+len(xs))
	res := make([]tensor.Value, s.nState, s.nState+s.nOut)
	for i, t := range states {
		res[i] = t
	}
	state := res[:s.nState]
	stepSlices := make([]*tensor.Tensor, len(xs))
	ys := make([]scanStack, s.nOut)
	var later []tensor.Value // scan outputs to give back at a later step
	if s.body.Done != nil && s.nOut > 0 {
		later = make([]tensor.Value, 0, maxLater)
	}
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
			if stepSlices[j] == nil {
				shape := append(append(make([]int, 0, x.Rank()-1), x.Shape()[:axes[j]]...), x.Shape()[axes[j]+1:]...)
				y, err := opt.newOverwritten(op, x.DataType(), shape)
				if err != nil {
					return nil, err
				}
				stepSlices[j] = y
			}
			copySlice(stepSlices[j], x, axes[j], at)
			args[s.nState+j] = stepSlices[j]
		}
		out, err := s.body.Run(opt, args)
		if err != nil {
			return nil, err
		}
		if len(out) != s.body.Outputs {
			return nil, op.errorf("body", "the body produced %d outputs, it declares %d", len(out), s.body.Outputs)
		}
		prev := args[:s.nState] // the states the step was given
		for k, v := range out[:s.nState] {
			st, ok := v.(*tensor.Tensor)
			if !ok || st == nil {
				return nil, op.errorf("type", "state output %d is %s, not a tensor", k, describe(v))
			}
			state[k] = v
			// A slice the body hands back as a state is the next step's
			// input: the next slice goes elsewhere.
			for j, x := range stepSlices {
				if x != nil && overlaps(st, x) {
					stepSlices[j] = nil
				}
			}
		}
		for k, v := range out[s.nState:] {
			at := t
			if s.outDirs[k] == 1 {
				at = steps - 1 - t
			}
			if err := ys[k].place(opt, op, s, k, v, at, full, steps < full); err != nil {
				return nil, err
			}
		}
		if s.body.Done != nil {
			// What the body returned and the scan no longer reads goes
			// back for the next step's values: the states of the step
			// before (the body's but at the first step), the scan
			// outputs now in their stacks.
			if t > 0 {
				giveBack(opt, s.body, prev, state)
			}
			if s.nOut > 0 {
				later = giveBackLater(opt, s.body, later, state, later[:0])
				later = giveBackLater(opt, s.body, out[s.nState:], state, later)
			}
		}
	}
	for k := range ys {
		y := ys[k].y
		if y == nil {
			var err error
			if y, err = stack(opt, op, nil, 0, s.outTypes, s.nState+k); err != nil {
				return nil, err
			}
		}
		res = append(res, y)
	}
	return res, nil
}

// giveBack hands body.Done the tensors of vals that no value of held
// shares storage with: what a Scan or a Loop got from its body and reads
// no more.
func giveBack(opt *Options, body *Subgraph, vals, held []tensor.Value) {
	for _, v := range vals {
		if t, _ := v.(*tensor.Tensor); t != nil && !overlapsAny(t, held) {
			body.Done(opt, t)
		}
	}
}

// maxLater bounds the tensors a Scan or a Loop keeps to give back later
// (giveBackLater).
const maxLater = 8

// giveBackLater is giveBack, appending to later, while it has room, the
// tensors held shares storage with: a scan output that views a state
// (the Scan's Identity of its state) is given back at the next step,
// once the state has moved on, so that the body's step reuses its
// header. One left out is never given back, which is safe.
func giveBackLater(opt *Options, body *Subgraph, vals, held, later []tensor.Value) []tensor.Value {
	for _, v := range vals {
		t, _ := v.(*tensor.Tensor)
		switch {
		case t == nil:
		case !overlapsAny(t, held):
			body.Done(opt, t)
		case len(later) < cap(later):
			later = append(later, t)
		}
	}
	return later
}

// overlapsAny reports whether a tensor of vals shares storage with t.
func overlapsAny(t *tensor.Tensor, vals []tensor.Value) bool {
	for _, v := range vals {
		if u, _ := v.(*tensor.Tensor); u != nil && overlaps(t, u) {
			return true
		}
	}
	return false
}

// scanStack is one stacked scan output of a run: made when the body first
// returns the output, each step's element then copied into its place.
type scanStack struct {
	y      *tensor.Tensor
	elem   []int // the element's shape
	axis   int
	length int // of y along axis
}

// place copies v, the scan output k of a step, to position at of the
// stack, making the stack (zeroed when padded holds: Scan 8's steps past
// a sequence length) at the first step.
func (st *scanStack) place(opt *Options, op opRef, s *scanSpec, k int, v tensor.Value, at, full int, padded bool) error {
	e, ok := v.(*tensor.Tensor)
	if !ok || e == nil {
		return op.errorf("scan-output", "scan output %d is %s, not a tensor", k, describe(v))
	}
	if err := checkInput(op, "scan output", e); err != nil {
		return err
	}
	if st.y == nil {
		a, ok := normalizeAxis(s.outAxes[k], e.Rank()+1)
		if !ok || (!s.negativeOK && s.outAxes[k] < 0) {
			return op.errorf("axes", "scan output %d's axis %d is outside its rank %d", k, s.outAxes[k], e.Rank()+1)
		}
		shape := append(append(append(make([]int, 0, e.Rank()+1), e.Shape()[:a]...), full), e.Shape()[a:]...)
		var err error
		if padded {
			st.y, err = opt.newTensor(op, e.DataType(), shape)
		} else {
			st.y, err = opt.newOverwritten(op, e.DataType(), shape)
		}
		if err != nil {
			return err
		}
		st.elem, st.axis, st.length = e.Shape(), a, full
	} else if st.y.DataType() != e.DataType() || !tensor.SameShape(st.elem, e.Shape()) {
		return op.errorf("scan-output", "scan output %d is %v %v in one iteration and %s in another", k, st.y.DataType(), st.elem, e.Describe())
	}
	outer := product(st.elem[:st.axis])
	block := product(st.elem[st.axis:])
	copyBlocks(st.y, e, outer, block, st.length*block, at*block, block, 0)
	return nil
}

// copySlice copies to y the slice at of x along axis.
func copySlice(y, x *tensor.Tensor, axis, at int) {
	shape := x.Shape()
	outer := product(shape[:axis])
	block := product(shape[axis+1:])
	copyBlocks(y, x, outer, block, block, 0, shape[axis]*block, at*block)
}

// copyBlocks copies outer blocks of block elements from src (the i-th at
// srcOff+i*srcStride) to dst (at dstOff+i*dstStride); strings by element.
func copyBlocks(dst, src *tensor.Tensor, outer, block, dstStride, dstOff, srcStride, srcOff int) {
	if block == 0 {
		return
	}
	if dst.DataType() == tensor.String {
		d, s := dst.Strings(), src.Strings()
		for i := range outer {
			copy(d[dstOff+i*dstStride:][:block], s[srcOff+i*srcStride:][:block])
		}
		return
	}
	size := dst.DataType().Size()
	d, s := dst.Bytes(), src.Bytes()
	for i := range outer {
		copy(d[(dstOff+i*dstStride)*size:][:block*size], s[(srcOff+i*srcStride)*size:][:block*size])
	}
}

// overlaps reports whether a and b share any storage.
func overlaps(a, b *tensor.Tensor) bool {
	if a.DataType() == tensor.String || b.DataType() == tensor.String {
		sa, sb := a.Strings(), b.Strings()
		if len(sa) == 0 || len(sb) == 0 {
			return false
		}
		pa, pb := uintptr(unsafe.Pointer(&sa[0])), uintptr(unsafe.Pointer(&sb[0]))
		return pa < pb+uintptr(len(sb))*unsafe.Sizeof("") && pb < pa+uintptr(len(sa))*unsafe.Sizeof("")
	}
	ba, bb := a.Bytes(), b.Bytes()
	if len(ba) == 0 || len(bb) == 0 {
		return false
	}
	pa, pb := uintptr(unsafe.Pointer(&ba[0])), uintptr(unsafe.Pointer(&bb[0]))
	return pa < pb+uintptr(len(bb)) && pb < pa+uintptr(len(ba))
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
