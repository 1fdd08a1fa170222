// LSTM computes one layer of a long short-term memory network over a batch
// of sequences (ONNX Operators.md, "LSTM"), gates in the order i, o, f, c:
//
//	it = f(Xt*Wi^T + Ht-1*Ri^T + Pi⊙Ct-1 + Wbi + Rbi)
//	ft = f(Xt*Wf^T + Ht-1*Rf^T + Pf⊙Ct-1 + Wbf + Rbf)
//	ct = g(Xt*Wc^T + Ht-1*Rc^T + Wbc + Rbc)
//	Ct = ft⊙Ct-1 + it⊙ct
//	ot = f(Xt*Wo^T + Ht-1*Ro^T + Po⊙Ct + Wbo + Rbo)
//	Ht = ot⊙h(Ct)
//
// f, g, h default to Sigmoid, Tanh, Tanh. Inputs X, W, R, B, sequence_lens,
// initial_h, initial_c, P; outputs Y (every step's H), Y_h and Y_c (the
// last valid step's H and C), each optional.
//
// Versions: 1 (output_sequence, which changes nothing: Y is produced when
// the node asks for it), 7, 14 (layout: 1 puts the batch axis first in X,
// Y, initial_h, initial_c, Y_h, Y_c), 22 (bfloat16). Types: float16,
// float, double (bfloat16 from 22); float16 and bfloat16 are computed in
// float32. The rules, in the order they are checked (below):
//
//	[input]     X, W and R are given; inputs are tensors
//	[type]      X's type is allowed; W, R, B, initial_h, initial_c, P have
//	            it; sequence_lens is int32
//	[direction] forward, reverse or bidirectional
//	[layout]    0 or 1
//	[clip]      a positive threshold when given
//	[input_forget] 0 or 1: with 1, ft = 1 - it
//	[activations] 3 per direction (or 3 for both), each one of Relu,
//	            Tanh, Sigmoid, Affine, LeakyRelu, ThresholdedRelu,
//	            ScaledTanh, HardSigmoid, Elu, Softsign, Softplus (without
//	            regard to case, as onnxruntime reads them)
//	[shape]     X is 3-D; R is [dirs, 4*hidden, hidden]; W [dirs,
//	            4*hidden, input]; B [dirs, 8*hidden]; sequence_lens [batch];
//	            initial_h, initial_c [dirs, batch, hidden] (layout 1:
//	            [batch, dirs, hidden]); P [dirs, 3*hidden]
//	[hidden_size] equal to R's last axis when given
//	[sequence_lens] every length in [0, seq]
//
// What this implementation decides where ONNX is silent, as onnxruntime
// does: the reverse direction runs each sequence from its own last valid
// step back to step 0; Y is 0 past a sequence's length; clip applies to
// the gates' inputs, not to Ct; activation_alpha and activation_beta are
// consumed in the order of the activations, each function taking as many
// as it has parameters, its ONNX defaults when the lists run out. A length
// of 0 leaves Y_h and Y_c at initial_h and initial_c (onnxruntime refuses
// it).
//
// The engine is ops/internal/rnn: float32 gates differ from the reference
// engine's float64 arithmetic by at most the bound reference.Agree states.

package ops

import (
	"math"
	"reflect"
	"slices"
	"unsafe"

	"github.com/onnxshape/onnxshape/ops/internal/gemm"
	"github.com/onnxshape/onnxshape/ops/internal/rnn"
	"github.com/onnxshape/onnxshape/tensor"
)

var lstmOp = recurrentOp{name: "LSTM", cell: rnn.LSTM}

func init() {
	register("LSTM", []int{1, 7, 14, 22}, [2]int{3, 8}, [2]int{0, 3}, lstmOp.node)
	declareAttrs("LSTM", append(recurrentAttrs, AttrSpec{Name: "input_forget", Type: AttrInt})...)
}

// What LSTM, GRU and RNN share: reading a node into a run of the
// recurrent engine (ops/internal/rnn), the constraints in the order each
// operator's file lists them, the output shapes, and the glue that
// converts float16 and bfloat16 to float32 around the engine.

// recurrentOp is one of the three recurrent operators.
type recurrentOp struct {
	name string
	cell rnn.Cell
}

// recurrentTypes are T's types: float16, float and double, and bfloat16
// from version 22.
var recurrentTypes = versionTypes{1: floatTypes, 3: floatTypes, 7: floatTypes, 14: floatTypes, 22: floatBFTypes}

// recurrentAttrs are the attributes every version of the three takes but
// their own: output_sequence before 7, layout from 14.
var recurrentAttrs = []AttrSpec{
	{Name: "activation_alpha", Type: AttrFloats}, {Name: "activation_beta", Type: AttrFloats},
	{Name: "activations", Type: AttrStrings}, {Name: "clip", Type: AttrFloat},
	{Name: "direction", Type: AttrString}, {Name: "hidden_size", Type: AttrInt},
	{Name: "output_sequence", Type: AttrInt, Before: 7}, {Name: "layout", Type: AttrInt, From: 14},
}

// inputs returns the number of inputs the operator takes at most.
func (o recurrentOp) inputs() int {
	if o.cell == rnn.LSTM {
		return 8
	}
	return 6
}

// outputs returns the number of outputs the operator has at most.
func (o recurrentOp) outputs() int {
	if o.cell == rnn.LSTM {
		return 3
	}
	return 2
}

// recurrentNode is a node read and checked: the engine's spec, the
// inputs by ONNX name (nil when absent) and the sequence lengths.
type recurrentNode struct {
	spec                  rnn.Spec
	x, w, r, b, h0, c0, p *tensor.Tensor
	lens                  []int
}

// parse checks node n on inputs in, in the order the operators' files
// list the rules.
func (o recurrentOp) parse(n *Node, in []tensor.Value, t *recurrentNode) error {
	op := n.op()
	var err error
	if t.x, err = n.requiredInput(in, 0, "X"); err != nil {
		return err
	}
	if t.w, err = n.requiredInput(in, 1, "W"); err != nil {
		return err
	}
	if t.r, err = n.requiredInput(in, 2, "R"); err != nil {
		return err
	}
	opt := make([]*tensor.Tensor, 8) // B, sequence_lens, initial_h, initial_c, P at 3..7
	for i := 3; i < o.inputs(); i++ {
		if opt[i], err = n.tensorInput(in, i); err != nil {
			return err
		}
	}
	t.b, t.h0, t.c0, t.p = opt[3], opt[5], opt[6], opt[7]
	seqLens := opt[4]

	// [type] X's type is one the version allows, and every other float
	// input has it.
	dt := t.x.DataType()
	if err := recurrentTypes.check(op, "X", dt); err != nil {
		return err
	}
	for i, v := range []*tensor.Tensor{t.w, t.r, opt[3], opt[5], opt[6], opt[7]} {
		if v != nil && v.DataType() != dt {
			return op.errorf("type", "%s is %v, X is %v", [...]string{"W", "R", "B", "initial_h", "initial_c", "P"}[i], v.DataType(), dt)
		}
	}
	if seqLens != nil && seqLens.DataType() != tensor.Int32 {
		return op.errorf("type", "sequence_lens is %v, expected int32", seqLens.DataType())
	}

	s := &t.spec
	k, ok := n.kept.Load().(*recurrentKept)
	if !ok || !k.of(n) {
		if k, err = o.attributes(n); err != nil {
			return err
		}
		n.kept.Store(k)
	}
	*s = k.spec
	// [shape] X is [seq, batch, input] (layout 0) or [batch, seq, input].
	if t.x.Rank() != 3 {
		return op.errorf("shape", "X has shape %v, expected rank 3", t.x.Shape())
	}
	xs := t.x.Shape()
	s.Seq, s.Batch, s.Input = xs[0], xs[1], xs[2]
	if s.Layout == 1 {
		s.Seq, s.Batch = xs[1], xs[0]
	}
	// [hidden_size] R's last axis, equal to hidden_size when given.
	if t.r.Rank() != 3 {
		return op.errorf("shape", "R has shape %v, expected [num_directions, %d*hidden_size, hidden_size]", t.r.Shape(), o.cell.Gates())
	}
	s.Hidden = t.r.Shape()[2]
	if n.Has("hidden_size") {
		hs, err := n.Int("hidden_size", 0)
		if err != nil {
			return err
		}
		if hs != int64(s.Hidden) {
			return op.errorf("hidden_size", "hidden_size %d, R has shape %v", hs, t.r.Shape())
		}
	}
	G, H, D := o.cell.Gates(), s.Hidden, s.Dirs
	if mulCounts(G, H) == math.MaxInt {
		return op.errorf("shape", "hidden size %d is too large", H)
	}
	stateShape := []int{D, s.Batch, H}
	if s.Layout == 1 {
		stateShape = []int{s.Batch, D, H}
	}
	// (The names apart, and a copy of the shape in the message: the
	// shapes wanted stay on the stack.)
	names := [...]string{"W", "R", "B", "sequence_lens", "initial_h", "initial_c", "P"}
	for i, c := range [...]struct {
		t    *tensor.Tensor
		want []int
	}{
		{t.w, []int{D, G * H, s.Input}},
		{t.r, []int{D, G * H, H}},
		{t.b, []int{D, 2 * G * H}},
		{seqLens, []int{s.Batch}},
		{t.h0, stateShape},
		{t.c0, stateShape},
		{t.p, []int{D, 3 * H}},
	} {
		if c.t != nil && !tensor.SameShape(c.t.Shape(), c.want) {
			return op.errorf("shape", "%s has shape %v, expected %v", names[i], c.t.Shape(), slices.Clone(c.want))
		}
	}
	// [sequence_lens] every length in [0, seq].
	if seqLens != nil {
		v, err := tensor.Data[int32](seqLens)
		if err != nil {
			return op.wrap("sequence_lens", err, "sequence_lens")
		}
		t.lens = make([]int, len(v)) // as long as X's batch axis
		for i, l := range v {
			if l < 0 || int(l) > s.Seq {
				return op.errorf("sequence_lens", "sequence_lens[%d] = %d is outside [0, %d]", i, l, s.Seq)
			}
			t.lens[i] = int(l)
		}
	}
	return nil
}

// recurrentKept is what a recurrent node's attributes say, read at its
// first run and kept for the next (Node.kept): a run of a small layer
// spent a sixth of its time reading them again.
type recurrentKept struct {
	spec rnn.Spec // the attributes' fields: Cell, Dirs, Reverse, Layout, Clip, InputForget, LinearBeforeReset, Acts
	// attrs and count are the attribute map read and its size: a copy of
	// the node given a map of its own (as tests do to change an
	// attribute) reads its attributes again.
	attrs unsafe.Pointer
	count int
}

// of reports whether k was read from n's attribute map as it is.
func (k *recurrentKept) of(n *Node) bool {
	return k.attrs == reflect.ValueOf(n.Attrs).UnsafePointer() && k.count == len(n.Attrs)
}

// attributes reads and checks node n's attributes, in the order the
// operators' files list the rules.
func (o recurrentOp) attributes(n *Node) (*recurrentKept, error) {
	op := n.op()
	k := &recurrentKept{attrs: reflect.ValueOf(n.Attrs).UnsafePointer(), count: len(n.Attrs)}
	s := &k.spec
	s.Cell = o.cell
	// [direction] forward, reverse or bidirectional.
	dir, err := n.Str("direction", "forward")
	if err != nil {
		return nil, err
	}
	switch dir {
	case "forward":
		s.Dirs = 1
	case "reverse":
		s.Dirs, s.Reverse = 1, true
	case "bidirectional":
		s.Dirs = 2
	default:
		return nil, op.errorf("direction", "direction %q is not forward, reverse or bidirectional", dir)
	}
	// [layout] 0 or 1 (from version 14).
	layout, err := n.Int("layout", 0)
	if err != nil {
		return nil, err
	}
	if layout != 0 && layout != 1 {
		return nil, op.errorf("layout", "layout %d is not 0 or 1", layout)
	}
	s.Layout = int(layout)
	// [clip] a positive threshold when given.
	if n.Has("clip") {
		c, err := n.Float("clip", 0)
		if err != nil {
			return nil, err
		}
		if !(c > 0) {
			return nil, op.errorf("clip", "clip %v is not a positive threshold", c)
		}
		s.Clip = float64(c)
	}
	// [input_forget] and [linear_before_reset] are 0 or 1.
	for _, a := range []struct {
		name string
		set  *bool
	}{{"input_forget", &s.InputForget}, {"linear_before_reset", &s.LinearBeforeReset}} {
		v, err := n.Int(a.name, 0)
		if err != nil {
			return nil, err
		}
		if v != 0 && v != 1 {
			return nil, op.errorf(a.name, "%s %d is not 0 or 1", a.name, v)
		}
		*a.set = v == 1
	}
	// [activations] Cell.Activations() names per direction (or that many
	// for both directions, as onnxruntime takes them), each one the
	// operators list; alpha and beta consumed in order.
	if s.Acts, err = o.activations(n, s.Dirs); err != nil {
		return nil, err
	}
	return k, nil

}

// activations reads activations, activation_alpha and activation_beta.
func (o recurrentOp) activations(n *Node, dirs int) ([]rnn.Activation, error) {
	op := n.op()
	per := o.cell.Activations()
	a, ok, err := n.attr("activations", AttrStrings)
	if err != nil {
		return nil, err
	}
	names := a.Strings
	if !ok {
		names = [][]string{{"Sigmoid", "Tanh", "Tanh"}, {"Sigmoid", "Tanh"}, {"Tanh"}}[o.cell]
	}
	if len(names) == per && dirs == 2 {
		names = append(append([]string{}, names...), names...)
	}
	if len(names) != per*dirs {
		return nil, op.errorf("activations", "%d activations, expected %d per direction for %d direction(s)", len(names), per, dirs)
	}
	alphas, _, err := n.Floats("activation_alpha")
	if err != nil {
		return nil, err
	}
	betas, _, err := n.Floats("activation_beta")
	if err != nil {
		return nil, err
	}
	acts := make([]rnn.Activation, len(names))
	for i, name := range names {
		f, ok := rnn.ParseFunc(name)
		if !ok {
			return nil, op.errorf("activations", "unknown activation %q", name)
		}
		na, nb, alpha, beta := f.Params()
		if na > 0 && len(alphas) > 0 {
			alpha, alphas = alphas[0], alphas[1:]
		}
		if nb > 0 && len(betas) > 0 {
			beta, betas = betas[0], betas[1:]
		}
		acts[i] = rnn.Activation{Func: f, Alpha: alpha, Beta: beta}
	}
	return acts, nil
}

// outputShapes returns the shapes of Y, Y_h and Y_c.
func (t *recurrentNode) outputShapes() [3][]int {
	s := &t.spec
	if s.Layout == 1 {
		return [3][]int{{s.Batch, s.Seq, s.Dirs, s.Hidden}, {s.Batch, s.Dirs, s.Hidden}, {s.Batch, s.Dirs, s.Hidden}}
	}
	return [3][]int{{s.Seq, s.Dirs, s.Batch, s.Hidden}, {s.Dirs, s.Batch, s.Hidden}, {s.Dirs, s.Batch, s.Hidden}}
}

// node is the Kernel of every version.
func (o recurrentOp) node(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	opt = opt.orDefault() // Schema.Run with nil Options
	op := n.op()
	// What a run allocates, in one piece (a small layer's run is a few
	// microseconds).
	c := new(recurrentCall)
	t := &c.node
	if err := o.parse(n, in, t); err != nil {
		return nil, err
	}
	count := n.NumOutputs
	if count <= 0 || count > o.outputs() {
		count = o.outputs()
	}
	dt := t.x.DataType()
	shapes := t.outputShapes()
	outs := c.outs[:count]
	var err error
	for i := range outs {
		if outs[i], err = opt.newOverwritten(op, dt, shapes[i]); err != nil {
			return nil, err
		}
	}
	if err := opt.scratch(op, "recurrent scratch", t.spec.ScratchElements(), dt.Size()); err != nil {
		return nil, err
	}
	o2 := opt.orDefault()
	cfg := gemm.Config{Ctx: o2.env.Ctx, Threads: o2.threads(), Charge: opt.Charge, Scratch: &c.scratch}
	switch dt {
	case tensor.Float:
		if err = bindOutputs(outs, &c.out32); err == nil {
			err = runRecurrent[float32](cfg, t, func(v *tensor.Tensor) ([]float32, error) { return tensor.Data[float32](v) }, &c.out32, n)
		}
	case tensor.Double:
		if err = bindOutputs(outs, &c.out64); err == nil {
			err = runRecurrent[float64](cfg, t, func(v *tensor.Tensor) ([]float64, error) { return tensor.Data[float64](v) }, &c.out64, n)
		}
	default: // float16 and bfloat16, computed in float32
		err = o.runConverted(opt, op, cfg, t, outs)
	}
	if err != nil {
		if ctxErr := opt.cancelled(); ctxErr != nil {
			return nil, op.wrap("cancelled", ctxErr, "run stopped")
		}
		return nil, op.wrap("compute", err, "recurrent engine")
	}
	for i, y := range outs {
		c.vals[i] = y
	}
	return c.vals[:count], nil
}

// recurrentCall is what a run of a recurrent node allocates.
type recurrentCall struct {
	node    recurrentNode
	scratch gemm.Scratch
	outs    [3]*tensor.Tensor
	vals    [3]tensor.Value
	out32   rnn.Outputs[float32]
	out64   rnn.Outputs[float64]
}

// bindOutputs points out's Y, Y_h and Y_c at the storage of outs.
func bindOutputs[T float32 | float64](outs []*tensor.Tensor, out *rnn.Outputs[T]) error {
	for i, dst := range []*[]T{&out.Y, &out.YH, &out.YC}[:len(outs)] {
		v, err := tensor.Data[T](outs[i])
		if err != nil {
			return err
		}
		*dst = v
	}
	return nil
}

// runRecurrent runs the engine in T over the inputs read by data into
// out. W and R transposed at load come from n (nil: none).
func runRecurrent[T float32 | float64](cfg gemm.Config, t *recurrentNode, data func(*tensor.Tensor) ([]T, error), out *rnn.Outputs[T], n *Node) error {
	var in rnn.Inputs[T]
	for _, c := range []struct {
		dst *[]T
		src *tensor.Tensor
	}{{&in.X, t.x}, {&in.W, t.w}, {&in.R, t.r}, {&in.B, t.b}, {&in.H0, t.h0}, {&in.C0, t.c0}, {&in.P, t.p}} {
		if c.src == nil {
			continue
		}
		v, err := data(c.src)
		if err != nil {
			return err
		}
		*c.dst = v
	}
	in.SeqLens = t.lens
	in.WT = transposedFor[T](n.packedInput(1, t.w))
	in.RT = transposedFor[T](n.packedInput(2, t.r))
	if p := n.packedInput(2, t.r); p != nil && in.RT != nil {
		in.RP = p.rp
	}
	return rnn.Run(cfg, &t.spec, in, *out)
}

// runConverted runs a float16 or bfloat16 node in float32: the inputs
// converted (scratch charged first), the outputs rounded back.
func (o recurrentOp) runConverted(opt *Options, op opRef, cfg gemm.Config, t *recurrentNode, outs []*tensor.Tensor) error {
	total := 0
	for _, v := range []*tensor.Tensor{t.x, t.w, t.r, t.b, t.h0, t.c0, t.p} {
		if v != nil {
			total = addCounts(total, v.Len())
		}
	}
	for _, v := range outs {
		total = addCounts(total, v.Len())
	}
	if err := opt.scratch(op, "float32 copies", total, 4); err != nil {
		return err
	}
	var out rnn.Outputs[float32]
	for i, dst := range []*[]float32{&out.Y, &out.YH, &out.YC}[:len(outs)] {
		*dst = make([]float32, outs[i].Len())
	}
	err := runRecurrent[float32](cfg, t, func(v *tensor.Tensor) ([]float32, error) { return v.Float32s() }, &out, nil)
	if err != nil {
		return err
	}
	for i, src := range [][]float32{out.Y, out.YH, out.YC}[:len(outs)] {
		switch outs[i].DataType() {
		case tensor.Float16:
			dst, _ := tensor.Data[tensor.F16](outs[i])
			for j, x := range src {
				dst[j] = tensor.F16FromFloat32(x)
			}
		case tensor.BFloat16:
			dst, _ := tensor.Data[tensor.BF16](outs[i])
			for j, x := range src {
				dst[j] = tensor.BF16FromFloat32(x)
			}
		}
	}
	return nil
}
