package ops

// How the elementwise operators read a node: the checks every one of them
// makes (types by version, broadcasting, legacy broadcast attributes), the
// output allocation and the dispatch to the engine's kernel for the input
// type.

import (
	"slices"

	"github.com/onnxshape/onnxshape/ops/internal/elementwise"
	"github.com/onnxshape/onnxshape/tensor"
)

// legacyBroadcastAttrs are the attributes of the versions before
// multidirectional broadcasting (opset 1 to 6): broadcast and axis, for
// since-versions below before.
func legacyBroadcastAttrs(before int) []AttrSpec {
	return []AttrSpec{
		{Name: "broadcast", Type: AttrInt, Before: before},
		{Name: "axis", Type: AttrInt, Before: before},
	}
}

// consumedInputs is the attribute of the first version of many operators,
// an optimisation hint of Caffe2 that has no effect on the result.
var consumedInputs = AttrSpec{Name: "consumed_inputs", Type: AttrInts, Before: 6}

// broadcastOutput returns the shape of a binary operator's output and the
// shape to read B with. Under multidirectional broadcasting (legacy false)
// both broadcast to each other. Under the legacy rule (opset 1 to 6) the
// output is A's shape: with broadcast=0 B must have it too; with
// broadcast=1, B's shape must match A's from axis on (by default A's last
// dims), each dim equal or 1, and B is read with A's rank.
func broadcastOutput(op opRef, n *Node, legacy bool, a, b []int) (out, bAt []int, err error) {
	if !legacy {
		out, err := broadcastShapes(a, b)
		if err != nil {
			return nil, nil, op.errorf("broadcast", "%v", err)
		}
		return out, b, nil
	}
	on, err := n.Int("broadcast", 0)
	if err != nil {
		return nil, nil, err
	}
	if on == 0 {
		if !tensor.SameShape(a, b) {
			return nil, nil, op.errorf("broadcast", "B of shape %v must have A's shape %v when broadcast is 0", b, a)
		}
		return a, b, nil
	}
	axis, err := n.intAttr("axis", len(a)-len(b), "axis")
	if err != nil {
		return nil, nil, err
	}
	if axis < 0 {
		axis += len(a)
	}
	if len(b) == 1 && b[0] == 1 && !n.Has("axis") {
		axis = len(a) - 1 // B of one element: a scalar
	}
	if axis < 0 || axis+len(b) > len(a) {
		return nil, nil, op.errorf("axis", "B of shape %v does not fit A's shape %v from axis %d", b, a, axis)
	}
	bAt = make([]int, len(a))
	for k := range bAt {
		bAt[k] = 1
	}
	for k, d := range b {
		if d != a[axis+k] && d != 1 {
			return nil, nil, op.errorf("broadcast", "B of shape %v does not match A's shape %v from axis %d", b, a, axis)
		}
		bAt[axis+k] = d
	}
	return a, bAt, nil
}

// binaryOp is one binary elementwise operator.
type binaryOp struct {
	name  string
	types versionTypes // A's types (and B's, which must equal A's)
	// legacyBefore: since-versions below it broadcast by the legacy rule.
	legacyBefore int
	// boolOut: the output is bool (comparisons) instead of A's type.
	boolOut bool
	// kernel picks the kernel for A's type and the node's attributes.
	kernel func(n *Node, dt tensor.DataType) (binaryKernel, error)
	// check, if set, is a rule on the inputs' values (a zero divisor under
	// SONNX).
	check func(opt *Options, op opRef, a, b *tensor.Tensor) error
}

// fixedKernels is the kernel function of an operator whose kernels depend
// on the type only.
func fixedKernels(table map[tensor.DataType]binaryKernel) func(*Node, tensor.DataType) (binaryKernel, error) {
	return func(n *Node, dt tensor.DataType) (binaryKernel, error) {
		k, ok := table[dt]
		if !ok {
			return nil, n.op().errorf("type", "no kernel for type %v", dt)
		}
		return k, nil
	}
}

// node is the Kernel of the operator.
func (b *binaryOp) node(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	if f := n.fusion; f != nil && f.qdqAdd != nil && opt.fusing() {
		return n.runQDQAdd(opt, f.qdqAdd, in) // its 8-bit A and B, qdqadd.go
	}
	x, err := n.requiredInput(in, 0, "A")
	if err != nil {
		return nil, err
	}
	y, err := n.requiredInput(in, 1, "B")
	if err != nil {
		return nil, err
	}
	z, err := b.apply(opt, n, x, y)
	if err != nil {
		return nil, err
	}
	return opt.result(z), nil
}

// apply checks the inputs and runs the operator.
func (b *binaryOp) apply(opt *Options, n *Node, x, y *tensor.Tensor) (*tensor.Tensor, error) {
	op := n.op()
	opt = opt.orDefault()
	if err := checkInput(op, "A", x); err != nil {
		return nil, err
	}
	if err := checkInput(op, "B", y); err != nil {
		return nil, err
	}
	if err := b.types.check(op, "A", x.DataType()); err != nil {
		return nil, err
	}
	if y.DataType() != x.DataType() {
		return nil, op.errorf("type", "B of type %v must have A's type %v", y.DataType(), x.DataType())
	}
	if err := opt.sameShapes(op, x.DataType(), []string{"A", "B"}, x.Shape(), y.Shape()); err != nil {
		return nil, err
	}
	out, bAt, err := broadcastOutput(op, n, op.version < b.legacyBefore, x.Shape(), y.Shape())
	if err != nil {
		return nil, err
	}
	k, err := b.kernel(n, x.DataType())
	if err != nil {
		return nil, err
	}
	if b.check != nil {
		if err := b.check(opt, op, x, y); err != nil {
			return nil, err
		}
	}
	dt := x.DataType()
	if b.boolOut {
		dt = tensor.Bool
	}
	z, err := opt.newOverwritten(op, dt, out)
	if err != nil {
		return nil, err
	}
	if z.Len() == 1 {
		if done, err := elementwise.RunSingle(opt.elementwise(), k, z, x, y); err != nil {
			return nil, op.wrap("cancelled", err, "run stopped")
		} else if done {
			return z, nil
		}
	}
	if err := k.Run(opt.elementwise(), n.keptWalk(out, x.Shape(), bAt), z, x, y); err != nil {
		return nil, op.wrap("cancelled", err, "run stopped")
	}
	return z, nil
}

// binaryKept is a binary node's walk for the shapes of its last run.
type binaryKept struct {
	out, a, b []int
	w         *broadcastWalk
}

// keptWalk returns the walk of an output of shape out from inputs of
// shapes a and b: the one n made at its last run when the shapes are the
// same (a Walk is not changed once made: runs may share it), else a new
// one, kept for the next run. A nil n (a call of the operator's
// function) makes a new one.
func (n *Node) keptWalk(out, a, b []int) *broadcastWalk {
	if n == nil {
		return newBroadcastWalk(out, a, b)
	}
	if k, ok := n.kept.Load().(*binaryKept); ok && tensor.SameShape(k.out, out) && tensor.SameShape(k.a, a) && tensor.SameShape(k.b, b) {
		return k.w
	}
	w := newBroadcastWalk(out, a, b)
	n.kept.Store(&binaryKept{out: slices.Clone(out), a: slices.Clone(a), b: slices.Clone(b), w: w})
	return w
}

// unaryOp is one unary elementwise operator.
type unaryOp struct {
	name  string
	types versionTypes
	// out is the output's type for the input's (nil: the same).
	out func(tensor.DataType) tensor.DataType
	// kernel picks the kernel for the input's type and the node's attributes.
	kernel func(n *Node, dt tensor.DataType) (unaryKernel, error)
	// fresh marks a kernel made from more than the type and the node's
	// attributes (Clip's from its min and max inputs): no node keeps it.
	fresh bool
	// check, if set, is a rule on the input's values (Abs's least integer
	// under SONNX).
	check func(opt *Options, op opRef, x *tensor.Tensor) error
}

// fixedUnaries is the kernel function of an operator whose kernels depend
// on the type only.
func fixedUnaries(table map[tensor.DataType]unaryKernel) func(*Node, tensor.DataType) (unaryKernel, error) {
	return func(n *Node, dt tensor.DataType) (unaryKernel, error) {
		k, ok := table[dt]
		if !ok {
			return nil, n.op().errorf("type", "no kernel for type %v", dt)
		}
		return k, nil
	}
}

func (u *unaryOp) node(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	x, err := n.requiredInput(in, 0, "X")
	if err != nil {
		return nil, err
	}
	y, err := u.apply(opt, n, x)
	if err != nil {
		return nil, err
	}
	return opt.result(y), nil
}

// unaryKept is what a unary node keeps from its last run (Node.kept): the
// kernel for its input's type. An operator whose kernel depends on its
// attributes (LeakyRelu's alpha, Elu's, HardSigmoid's) builds its loops
// and tables once, not at every run.
type unaryKept struct {
	dt tensor.DataType
	k  unaryKernel
}

// kernelFor is u's kernel for n and inputs of type dt: the one n kept when
// it was made for dt. Only a node of u's own operator keeps one (another
// operator calling apply with its node keeps its own state in kept).
func (u *unaryOp) kernelFor(n *Node, dt tensor.DataType) (unaryKernel, error) {
	if n == nil || u.fresh || n.OpType != u.name || n.Domain != "" {
		return u.kernel(n, dt)
	}
	if k, ok := n.kept.Load().(*unaryKept); ok && k.dt == dt {
		return k.k, nil
	}
	k, err := u.kernel(n, dt)
	if err != nil {
		return nil, err
	}
	n.kept.Store(&unaryKept{dt: dt, k: k})
	return k, nil
}

func (u *unaryOp) apply(opt *Options, n *Node, x *tensor.Tensor) (*tensor.Tensor, error) {
	op := n.op()
	opt = opt.orDefault()
	if err := checkInput(op, "X", x); err != nil {
		return nil, err
	}
	if err := u.types.check(op, "X", x.DataType()); err != nil {
		return nil, err
	}
	k, err := u.kernelFor(n, x.DataType())
	if err != nil {
		return nil, err
	}
	if u.check != nil {
		if err := u.check(opt, op, x); err != nil {
			return nil, err
		}
	}
	dt := x.DataType()
	if u.out != nil {
		dt = u.out(dt)
	}
	y, err := opt.newOverwritten(op, dt, x.Shape())
	if err != nil {
		return nil, err
	}
	if err := k.Run(opt.elementwise(), y, x); err != nil {
		return nil, op.wrap("cancelled", err, "run stopped")
	}
	return y, nil
}

// variadicOp is Sum, Mean, Max or Min: a binary operator folded over one
// or more inputs, which broadcast to each other from version 8 (before,
// they all have one shape).
type variadicOp struct {
	binaryOp
	// finish, if set, runs on the folded result (Mean's division).
	finish func(opt *Options, op opRef, acc *tensor.Tensor, count int) error
}

func (v *variadicOp) node(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	op := n.op()
	opt = opt.orDefault()
	if len(in) == 0 {
		return nil, op.errorf("input", "at least one input is required")
	}
	ts := make([]*tensor.Tensor, len(in))
	for i := range in {
		t, err := n.requiredInput(in, i, "data_0")
		if err != nil {
			return nil, err
		}
		ts[i] = t
		if err := v.types.check(op, "input", t.DataType()); err != nil {
			return nil, err
		}
		if t.DataType() != ts[0].DataType() {
			return nil, op.errorf("type", "input %d of type %v must have input 0's type %v", i, t.DataType(), ts[0].DataType())
		}
		if op.version < 8 && !tensor.SameShape(t.Shape(), ts[0].Shape()) {
			return nil, op.errorf("shape", "input %d of shape %v must have input 0's shape %v (no broadcasting before version 8)", i, t.Shape(), ts[0].Shape())
		}
	}
	// The output shape first, so that a failing broadcast allocates nothing.
	shape := ts[0].Shape()
	for _, t := range ts[1:] {
		if tensor.SameShape(shape, t.Shape()) {
			continue // the common case, without broadcastShapes' new slice
		}
		s, err := broadcastShapes(shape, t.Shape())
		if err != nil {
			return nil, op.errorf("broadcast", "%v", err)
		}
		shape = s
	}
	var acc *tensor.Tensor
	if err := opt.cancelled(); err != nil {
		return nil, op.wrap("cancelled", err, "run stopped")
	}
	if len(ts) == 1 {
		y, err := opt.newOverwritten(op, ts[0].DataType(), ts[0].Shape())
		if err != nil {
			return nil, err
		}
		copy(y.Bytes(), ts[0].Bytes())
		acc = y
	} else {
		k, err := v.kernel(n, ts[0].DataType())
		if err != nil {
			return nil, err
		}
		acc = ts[0]
		for _, t := range ts[1:] {
			out := acc.Shape()
			if !tensor.SameShape(out, t.Shape()) {
				if out, err = broadcastShapes(out, t.Shape()); err != nil {
					return nil, op.errorf("broadcast", "%v", err)
				}
			}
			z := acc
			if !tensor.SameShape(out, acc.Shape()) || acc == ts[0] {
				if z, err = opt.newOverwritten(op, acc.DataType(), out); err != nil {
					return nil, err
				}
			}
			// The engine reads each element before it writes the same
			// one, so the accumulator may be its own output.
			if err := k.Run(opt.elementwise(), newBroadcastWalk(out, acc.Shape(), t.Shape()), z, acc, t); err != nil {
				return nil, op.wrap("cancelled", err, "run stopped")
			}
			acc = z
		}
	}
	if v.finish != nil {
		if err := v.finish(opt, op, acc, len(ts)); err != nil {
			return nil, err
		}
	}
	return opt.result(acc), nil
}

// The engine's loops, kernels and tables (ops/internal/elementwise), by
// the names the operator files use.
type (
	broadcastWalk            = elementwise.Walk
	binarySpans[A, B, O any] = elementwise.BinarySpans[A, B, O]
	binaryKernel             = elementwise.BinaryKernel
	unaryKernel              = elementwise.UnaryKernel
	unarySpan[A, O any]      = elementwise.UnarySpan[A, O]

	integer       = elementwise.Integer
	signedInteger = elementwise.SignedInteger
	floating      = elementwise.Floating
	number        = elementwise.Number
)

func newBroadcastWalk(out []int, ins ...[]int) *broadcastWalk {
	return elementwise.NewWalk(out, ins...)
}

func binaryFunc[A, B, O any](f func(a A, b B) O) binarySpans[A, B, O] { return elementwise.Binary(f) }

func mapping[A, O any](f func(A) O) unarySpan[A, O] { return elementwise.Unary(f) }

// halfUnary runs a float32 loop for float16 or bfloat16 input
// (elementwise.HalfUnary).
type halfUnary[O any] struct {
	bf16 bool
	f32  unarySpan[float32, O]
}

func (h halfUnary[O]) Run(cfg elementwise.Config, out, x *tensor.Tensor) error {
	return elementwise.HalfUnary[O]{BF16: h.bf16, F32: h.f32}.Run(cfg, out, x)
}

func elems[E any](t *tensor.Tensor) []E { return elementwise.Elems[E](t) }

func hasZero(t *tensor.Tensor) bool { return elementwise.HasZero(t) }

func numberBinaries[O any](ints [8]binaryKernel, f32 binarySpans[float32, float32, O], f64 binaryKernel) map[tensor.DataType]binaryKernel {
	return elementwise.NumberBinaries(ints, f32, f64)
}

func numberUnaries[O any](ints [8]unaryKernel, f32 unarySpan[float32, O], f64 unaryKernel) map[tensor.DataType]unaryKernel {
	return elementwise.NumberUnaries(ints, f32, f64)
}

func integerBinaries(ints [8]binaryKernel) map[tensor.DataType]binaryKernel {
	return elementwise.IntegerBinaries(ints)
}

func integerUnaries(ints [8]unaryKernel) map[tensor.DataType]unaryKernel {
	return elementwise.IntegerUnaries(ints)
}

func float32Function(f32 unarySpan[float32, float32], f64 func(float64) float64) map[tensor.DataType]unaryKernel {
	return elementwise.Float32Function(f32, f64)
}

// float32StreamedFunction is float32Function with f32's streamed form
// f32s for the large calls (elementwise.StreamedUnary).
func float32StreamedFunction(f32, f32s unarySpan[float32, float32], f64 func(float64) float64) map[tensor.DataType]unaryKernel {
	return elementwise.Float32FunctionStreamed(f32, f32s, f64)
}

func numberFunction(f func(float64) float64) map[tensor.DataType]unaryKernel {
	return elementwise.NumberFunction(f)
}

func convertFloat[I integer](x float64) I { return elementwise.ConvertFloat[I](x) }

func maxOf[I integer]() I { return elementwise.MaxOf[I]() }

func halfToFloat32(bf16 bool, v uint16) float32 { return elementwise.HalfToFloat32(bf16, v) }

func halfFromFloat32(bf16 bool, f float32) uint16 { return elementwise.HalfFromFloat32(bf16, f) }

// elementwise is what the engine needs of the run o.
func (o *Options) elementwise() elementwise.Config {
	o = o.orDefault()
	return elementwise.Config{Ctx: o.env.Ctx, Threads: o.threads(), StreamFrom: o.streamFrom}
}

// typeSet is a set of element types, one bit per tensor.DataType.
type typeSet uint64

func typesOf(dts ...tensor.DataType) typeSet {
	var s typeSet
	for _, dt := range dts {
		s |= 1 << uint(dt)
	}
	return s
}

func (s typeSet) has(dt tensor.DataType) bool { return dt >= 0 && dt < 64 && s&(1<<uint(dt)) != 0 }

// The type lists the ONNX schemas of the elementwise operators use.
var (
	floatTypes    = typesOf(tensor.Float16, tensor.Float, tensor.Double)
	floatBFTypes  = floatTypes | typesOf(tensor.BFloat16)
	unsignedTypes = typesOf(tensor.Uint8, tensor.Uint16, tensor.Uint32, tensor.Uint64)
	signedTypes   = typesOf(tensor.Int8, tensor.Int16, tensor.Int32, tensor.Int64)
	intTypes      = unsignedTypes | signedTypes
	int3264Types  = typesOf(tensor.Int32, tensor.Int64, tensor.Uint32, tensor.Uint64)
	numberTypes   = intTypes | floatTypes
	numberBFTypes = numberTypes | typesOf(tensor.BFloat16)
	boolTypes     = typesOf(tensor.Bool)
	float8Types   = typesOf(tensor.Float8E4M3FN, tensor.Float8E4M3FNUZ, tensor.Float8E5M2, tensor.Float8E5M2FNUZ)
)

// versionTypes maps each since-version of an operator to the element types
// it allows for its input T.
type versionTypes map[int]typeSet

// check refuses a type version v does not allow.
func (vt versionTypes) check(op opRef, what string, dt tensor.DataType) error {
	if !vt[op.version].has(dt) {
		return op.errorf("type", "%s of type %v is not allowed in version %d", what, dt, op.version)
	}
	return nil
}

// arithmeticTypes are the types of Add, Sub, Mul and Div by version.
var arithmeticTypes = versionTypes{
	1: floatTypes, 6: floatTypes | int3264Types, 7: floatTypes | int3264Types,
	13: floatBFTypes | int3264Types, 14: numberBFTypes,
}
