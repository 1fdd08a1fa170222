package ops

import (
	"bytes"
	"slices"

	"github.com/onnxshape/onnxshape/internal/header"
	"github.com/onnxshape/onnxshape/internal/runenv"
	"github.com/onnxshape/onnxshape/internal/storage"
	"github.com/onnxshape/onnxshape/ops/internal/movement"
	"github.com/onnxshape/onnxshape/tensor"
)

// A data-movement operator's work is decided by the element types and
// shapes of its inputs and the values of a few parameter inputs: given
// those, Transpose is one copy plan, Reshape one view, Slice one plan, and
// so on. A model runs the same node on inputs of the same shapes again and
// again, so the model runner prepares such a node once, recording the
// outputs its kernel allocates and the plans it runs, and replays them
// afterwards: no attribute to read, no shape to check again, no plan to
// simplify, and, with reusable headers, nothing to allocate. On a 40-node
// chain of small tensors this is most of a run's time.
//
// Only operators registered with preparable replay (the kernel's outputs
// are views of its inputs, or allocations written entirely by copy plans
// from its inputs); TestPreparedAgrees checks each against its kernel.

// preparable marks the operators whose kernels only view or copy their
// inputs, with the inputs whose values (not only types and shapes) decide
// how.
var preparable = map[string][]int{
	"Identity":     nil,
	"Reshape":      {1},
	"Flatten":      nil,
	"Squeeze":      {1},
	"Unsqueeze":    {1},
	"Transpose":    nil,
	"Slice":        {1, 2, 3, 4},
	"Concat":       nil,
	"Split":        {1},
	"Tile":         {1},
	"Expand":       {1},
	"DepthToSpace": nil,
	"SpaceToDepth": nil,
	// Pad: prepared for its zero pads (a view); other pads write through
	// tables, which are not recorded, so prepare declines them.
	"Pad": {1, 2, 3},
}

// maxParamBytes bounds the parameter inputs a prepared node keeps to
// compare: an axes or shape input is a few int64s.
const maxParamBytes = 512

// recorder collects what a kernel did while it is being prepared.
type recorder struct {
	allocs []recordedAlloc
	plans  []recordedPlan
}

type recordedAlloc struct {
	t    *tensor.Tensor
	zero bool
}

type recordedPlan struct {
	dst, src *tensor.Tensor
	q        movement.Plan
}

// Prepared is a node bound to the element types and shapes of its inputs
// and to the values of its parameter inputs: Run gives what the node's
// kernel gives for any inputs that Fit, faster. It is immutable, so runs
// under way at once may share it.
type Prepared struct {
	op     opRef
	inputs []preparedInput
	outs   []preparedOut
	plans  []preparedPlan
	// declined is set when the kernel did what a replay cannot (wrote
	// through tables, stitched rows): inputs that Fit run the kernel, and
	// need not be prepared again.
	declined bool
}

type preparedInput struct {
	present bool
	dt      tensor.DataType
	shape   []int
	param   []byte // a parameter input's bytes; nil for the others
}

// preparedOut says how output k is made: a new tensor (alloc) written by
// plans, or a view of input src.
type preparedOut struct {
	kind  int
	dt    tensor.DataType
	shape []int
	zero  bool
	src   int
}

const (
	outAlloc = iota
	outView
)

type preparedPlan struct {
	dst, src int // output index, input index
	q        movement.Plan
}

// Prepare runs node n on in as s.Run does. When s is a data-movement
// operator, it also returns the node prepared for inputs like in: one that
// Replays when the kernel only viewed or copied in, one that declines
// otherwise (the runner then runs the kernel for inputs that Fit, without
// preparing again). When s is not one, its inputs cannot be kept (a
// parameter input too large) or the kernel failed, the Prepared is nil.
func (s *Schema) Prepare(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, *Prepared, error) {
	if !s.prepares || n == nil || opt.orDefault().Profile != ProfileONNX {
		out, err := s.Run(opt, n, in)
		return out, nil, err
	}
	o := *opt.orDefault()
	o.rec = &recorder{}
	out, err := s.Run(&o, n, in)
	if err != nil {
		return out, nil, err
	}
	return out, prepare(n.op(), s.params, in, out, o.rec), nil
}

// prepare makes the Prepared that replays what rec saw the kernel do with
// in, or returns nil when something cannot be replayed.
func prepare(op opRef, params []int, in, out []tensor.Value, rec *recorder) *Prepared {
	p := &Prepared{op: op, inputs: make([]preparedInput, len(in)), outs: make([]preparedOut, len(out))}
	ins := make([]*tensor.Tensor, len(in))
	for j, v := range in {
		if v == nil {
			continue
		}
		t, ok := v.(*tensor.Tensor)
		if !ok || t == nil {
			return nil
		}
		ins[j] = t
		pi := preparedInput{present: true, dt: t.DataType(), shape: slices.Clone(t.Shape())}
		if slices.Contains(params, j) {
			if t.DataType() == tensor.String || t.ByteLen() > maxParamBytes {
				return nil
			}
			pi.param = bytes.Clone(t.Bytes())
		}
		p.inputs[j] = pi
	}
	if !p.record(ins, out, rec) {
		return &Prepared{op: op, inputs: p.inputs, declined: true}
	}
	return p
}

// Replays reports whether p runs the node itself (Run); false when the
// node's kernel must run for the inputs that Fit p.
func (p *Prepared) Replays() bool { return p != nil && !p.declined }

// record fills p's outputs and plans from what rec saw the kernel do with
// ins (p's inputs) to make out, and reports whether it can be replayed.
func (p *Prepared) record(ins []*tensor.Tensor, out []tensor.Value, rec *recorder) bool {
	inputOf := func(t *tensor.Tensor) int {
		for j, x := range ins {
			if x != nil && x == t {
				return j
			}
		}
		return -1
	}
	outputOf := func(t *tensor.Tensor) int {
		for k, v := range out {
			if y, ok := v.(*tensor.Tensor); ok && y == t {
				return k
			}
		}
		return -1
	}
	for k, v := range out {
		y, ok := v.(*tensor.Tensor)
		if !ok || y == nil {
			return false
		}
		// An output that is an input itself (Identity's) is replayed as a
		// view: a header of the output's own, which the runner can reuse.
		po := preparedOut{dt: y.DataType(), shape: slices.Clone(y.Shape()), src: -1}
		if a := slices.IndexFunc(rec.allocs, func(a recordedAlloc) bool { return a.t == y }); a >= 0 {
			po.kind, po.zero = outAlloc, rec.allocs[a].zero
		} else {
			for j, x := range ins {
				if x != nil && x.DataType() == y.DataType() && x.Len() == y.Len() && (x == y || x.SharesStorage(y) || y.Len() == 0) {
					po.kind, po.src = outView, j
					break
				}
			}
			if po.src < 0 {
				return false
			}
		}
		p.outs[k] = po
	}
	// Each new output must be written whole by the recorded plans, which
	// never overlap: a kernel that wrote some of it another way (Concat's
	// stitched rows) is not replayed.
	covered := make([]int, len(out))
	for _, r := range rec.plans {
		k, j := outputOf(r.dst), inputOf(r.src)
		if k < 0 || j < 0 || p.outs[k].kind != outAlloc {
			return false
		}
		p.plans = append(p.plans, preparedPlan{dst: k, src: j, q: r.q})
		covered[k] += r.q.Elements()
	}
	for k, po := range p.outs {
		if po.kind == outAlloc && covered[k] != out[k].(*tensor.Tensor).Len() {
			return false
		}
	}
	return true
}

// Fits reports whether in has the types, shapes and parameter values p was
// prepared for.
func (p *Prepared) Fits(in []tensor.Value) bool {
	if p == nil || len(in) != len(p.inputs) {
		return false
	}
	for j, v := range in {
		pi := &p.inputs[j]
		if v == nil {
			if pi.present {
				return false
			}
			continue
		}
		t, ok := v.(*tensor.Tensor)
		if !ok || t == nil || !pi.present || t.DataType() != pi.dt || !slices.Equal(t.Shape(), pi.shape) {
			return false
		}
		if pi.param != nil && !bytes.Equal(t.Bytes(), pi.param) {
			return false
		}
	}
	return true
}

func init() {
	runenv.InstallPrepared(func(p, opt any, in []tensor.Value, reuse []*tensor.Tensor, out []tensor.Value) error {
		o, _ := opt.(*Options)
		return p.(*Prepared).run(o, in, reuse, out)
	})
}

// Run computes the node's outputs for in, which must Fit p, into out (one
// per output), each a new tensor.
func (p *Prepared) Run(opt *Options, in, out []tensor.Value) error {
	return p.run(opt, in, nil, out)
}

// run is Run where reuse, when not nil, holds for each output a header
// that the model runner alone can reach (see runenv.RunPrepared) and that
// run may repoint at the new output's storage instead of allocating one
// (see package internal/header); nil entries are allocated.
func (p *Prepared) run(opt *Options, in []tensor.Value, reuse []*tensor.Tensor, out []tensor.Value) error {
	if p.declined {
		return p.op.wrap("prepared", ErrUnsupported, "the node was not prepared: run its kernel")
	}
	o := opt.orDefault()
	if err := o.cancelled(); err != nil {
		return p.op.stopped(err)
	}
	for k := range p.outs {
		po := &p.outs[k]
		var old *tensor.Tensor
		if k < len(reuse) {
			old = reuse[k]
		}
		switch po.kind {
		case outView:
			x := in[po.src].(*tensor.Tensor)
			if old != nil && old.DataType() == po.dt && slices.Equal(old.Shape(), po.shape) && header.Review(old, x) {
				out[k] = old
				continue
			}
			y, err := x.View(po.shape...)
			if err != nil {
				return p.op.wrap("shape", err, "output of shape %v", po.shape)
			}
			out[k] = y
		case outAlloc:
			y, err := o.allocInto(p.op, po.dt, po.shape, po.zero, old)
			if err != nil {
				return err
			}
			out[k] = y
		}
	}
	for _, pl := range p.plans {
		if err := pl.q.Exec(opt.moves(), out[pl.dst].(*tensor.Tensor), in[pl.src].(*tensor.Tensor)); err != nil {
			return p.op.stopped(err)
		}
	}
	return nil
}

// allocInto is allocTensor for a prepared node: when old is a header of
// the same type and shape that the caller lets it reuse, the new storage
// goes into it rather than into a new header.
func (o *Options) allocInto(op opRef, dt tensor.DataType, shape []int, zero bool, old *tensor.Tensor) (*tensor.Tensor, error) {
	if old == nil || dt == tensor.String || old.DataType() != dt || !slices.Equal(old.Shape(), shape) {
		return o.allocTensor(op, dt, shape, zero)
	}
	// old has this type and shape, so the size is known to be valid.
	size := old.Len() * dt.Size()
	if int64(size) > o.maxBytes() {
		return o.allocTensor(op, dt, shape, zero) // refused, in its words
	}
	if err := o.chargeOutput(op, dt, int64(size)); err != nil {
		return nil, err
	}
	var buf []byte
	if o.env.Alloc != nil {
		buf = o.env.Alloc(size)
		if zero {
			clear(buf)
		}
	} else {
		buf = storage.Aligned(size)
	}
	if !header.Rewrap(old, buf) {
		return o.allocTensor(op, dt, shape, zero)
	}
	return old, nil
}
