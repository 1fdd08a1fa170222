package infer

import (
	"fmt"
	"github.com/onnxshape/onnxshape/graph"
	"math"

	"github.com/onnxshape/onnxshape/internal/runenv"
	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// rule gives the outputs of one node from its inputs (nil for an optional
// input left out), reading the node's attributes through c.node. A rule
// follows the ONNX shape rule of its operator at every version; it returns
// an *ops.Error for inputs the operator refuses.
type rule func(c *call, in []*Value) ([]*Value, error)

// rules holds the rule of every operator inference follows, by domain and
// name ("" is the default ONNX domain).
var rules = map[string]rule{}

// register gives each of names rule r: operators of the default domain,
// or "domain.Name" for another domain ("ai.onnx.ml.LabelEncoder").
func register(r rule, names ...string) {
	for _, name := range names {
		if _, dup := rules[name]; dup {
			panic("infer: rule " + name + " registered twice")
		}
		rules[name] = r
	}
}

func ruleFor(domain, name string) (rule, bool) {
	if domain != "" {
		name = domain + "." + name
	}
	r, ok := rules[name]
	return r, ok
}

// HasRule reports whether inference has a shape rule for the operator.
func HasRule(domain, name string) bool {
	if domain == "ai.onnx" {
		domain = ""
	}
	_, ok := ruleFor(domain, name)
	return ok
}

// call is one node being inferred.
type call struct {
	e         *engine
	np        *pb.NodeProto
	index     int
	node      *ops.Node
	scope     *scope
	subgraphs map[string]*pb.GraphProto
	opset     int // the model's opset for the node's domain
}

// version is the operator version whose rules apply: the since-version
// when onnxshape implements the operator, otherwise the model's opset
// (the two agree on every version boundary a rule tests).
func (c *call) version() int { return c.node.Version }

func (c *call) errorf(rule, format string, args ...any) error {
	return &ops.Error{Op: c.node.OpType, Version: c.node.Version, Rule: rule, Msg: fmt.Sprintf(format, args...)}
}

func (c *call) fresh() graph.Dim { return c.e.newSymbol() }

func (c *call) int(name string, def int64) int64 {
	v, err := c.node.Int(name, def)
	if err != nil {
		return def
	}
	return v
}

func (c *call) ints(name string) ([]int64, bool) {
	v, ok, err := c.node.Ints(name)
	return v, ok && err == nil
}

func (c *call) str(name, def string) string {
	v, err := c.node.Str(name, def)
	if err != nil {
		return def
	}
	return v
}

// input returns input i, nil when absent.
func input(in []*Value, i int) *Value {
	if i < len(in) {
		return in[i]
	}
	return nil
}

// typeOf returns the element type of input i, Undefined when absent.
func typeOf(in []*Value, i int) tensor.DataType {
	if v := input(in, i); v != nil {
		return v.Type
	}
	return tensor.Undefined
}

// randomOperators draw new values at every run: never folded into a
// constant, even with a seed (a run of the model draws anew).
var randomOperators = map[string]bool{"RandomUniform": true, "RandomNormal": true, "RandomUniformLike": true,
	"RandomNormalLike": true, "Bernoulli": true, "Multinomial": true}

// fold runs the node's kernel when every input it has is known, under the
// fold cap; ok is false when it cannot (no kernel, an unknown input, a
// result over the cap, a kernel error).
func (c *call) fold(schema *ops.Schema, in []*Value) (out []*Value, ok bool) {
	if schema == nil || c.e.foldCap <= 0 || len(c.subgraphs) > 0 || randomOperators[schema.Name] && schema.Domain == "" {
		return nil, false
	}
	args := make([]tensor.Value, len(in))
	for i, v := range in {
		if v == nil {
			continue
		}
		if v.Const == nil {
			return nil, false
		}
		args[i] = v.Const
	}
	defer func() {
		if recover() != nil {
			out, ok = nil, false
		}
	}()
	e := c.e
	if e.foldUsed >= e.foldTotal {
		e.foldLimited = true
		return nil, false
	}
	// The kernel's outputs and scratch are charged against what is left
	// of the total; only the outputs stay.
	var pending int64
	charge := func(bytes int64) error {
		if bytes > e.foldTotal-e.foldUsed-pending {
			e.foldLimited = true
			return fmt.Errorf("%w: the values computed take more than the limit of %d bytes together", ops.ErrLimit, e.foldTotal)
		}
		pending += bytes
		return nil
	}
	opt := ops.NewOptions(ops.WithMaxTensorBytes(e.foldCap), ops.WithThreads(1))
	runenv.Bind(opt, runenv.Env{Ctx: e.ctx, Charge: charge})
	res, err := schema.Run(opt, c.node, args)
	if err != nil {
		return nil, false
	}
	for _, r := range res {
		if t, isTensor := r.(*tensor.Tensor); isTensor {
			e.foldUsed += storageBytes(t)
		}
	}
	out = make([]*Value, len(res))
	for i, r := range res {
		t, isTensor := r.(*tensor.Tensor)
		if r != nil && !isTensor {
			return nil, false
		}
		if t != nil {
			out[i] = constValue(t)
		}
	}
	return out, true
}

// materialize fills in Const from Elems when every element is a number,
// so that the kernels of later nodes can compute with it.
func materialize(v *Value) {
	if v.Const != nil || v.Elems == nil || v.Kind != graph.KindTensor || !v.Ranked || len(v.Shape) > 1 {
		return
	}
	xs := make([]int64, len(v.Elems))
	for i, d := range v.Elems {
		x, ok := d.Value()
		if !ok {
			return
		}
		xs[i] = x
	}
	shape := []int{}
	if len(v.Shape) == 1 {
		shape = []int{len(xs)}
	}
	var t *tensor.Tensor
	var err error
	switch v.Type {
	case tensor.Int64:
		t, err = tensor.FromSlice(xs, shape...)
	case tensor.Int32:
		t, err = tensor.FromSlice(convert[int32](xs), shape...)
	case tensor.Float:
		t, err = tensor.FromSlice(convert[float32](xs), shape...)
	case tensor.Double:
		t, err = tensor.FromSlice(convert[float64](xs), shape...)
	case tensor.Bool:
		bs := make([]bool, len(xs))
		for i, x := range xs {
			bs[i] = x != 0
		}
		t, err = tensor.FromSlice(bs, shape...)
	default:
		return
	}
	if err == nil {
		v.Const = t
	}
}

func convert[T int32 | float32 | float64](xs []int64) []T {
	out := make([]T, len(xs))
	for i, x := range xs {
		out[i] = T(x)
	}
	return out
}

// elemsOf returns the contents of a known tensor as dimensions when every
// element is an integer (floats included, when whole).
func elemsOf(t *tensor.Tensor) ([]graph.Dim, bool) {
	if t.Rank() > 1 || t.Len() > maxElems {
		return nil, false
	}
	if xs, err := t.Int64s(); err == nil {
		out := make([]graph.Dim, len(xs))
		for i, x := range xs {
			out[i] = graph.Const(x)
		}
		return out, true
	}
	fs, err := t.Float64s()
	if err != nil {
		return nil, false
	}
	out := make([]graph.Dim, len(fs))
	for i, f := range fs {
		if f != math.Trunc(f) || math.Abs(f) > 1<<62 {
			return nil, false
		}
		out[i] = graph.Const(int64(f))
	}
	return out, true
}

// ints returns the contents of v as numbers when they are all known.
func knownInts(v *Value) ([]int64, bool) {
	if v == nil || v.Elems == nil {
		return nil, false
	}
	out := make([]int64, len(v.Elems))
	for i, d := range v.Elems {
		x, ok := d.Value()
		if !ok {
			return nil, false
		}
		out[i] = x
	}
	return out, true
}

// normAxis maps a possibly negative axis into [0, rank).
func (c *call) normAxis(axis int64, rank int) (int, error) {
	if axis < -int64(rank) || axis >= int64(rank) {
		return 0, c.errorf("axis", "axis %d is out of range for rank %d", axis, rank)
	}
	if axis < 0 {
		axis += int64(rank)
	}
	return int(axis), nil
}

// normAxes normalizes a list of axes, refusing repeats.
func (c *call) normAxes(axes []int64, rank int) ([]int, error) {
	out := make([]int, len(axes))
	seen := map[int]bool{}
	for i, a := range axes {
		k, err := c.normAxis(a, rank)
		if err != nil {
			return nil, err
		}
		if seen[k] {
			return nil, c.errorf("axes", "axis %d is given twice", a)
		}
		seen[k] = true
		out[i] = k
	}
	return out, nil
}

// same returns a value of v's type and shape, contents unknown.
func same(v *Value) *Value {
	if v == nil {
		return &Value{}
	}
	return &Value{Kind: v.Kind, Key: v.Key, Type: v.Type, Ranked: v.Ranked, Shape: append([]graph.Dim{}, v.Shape...)}
}

// withType returns a value of v's shape and element type dt.
func withType(v *Value, dt tensor.DataType) *Value {
	out := same(v)
	out.Type = dt
	return out
}

// ranked returns a tensor value of element type dt and the given shape.
func ranked(dt tensor.DataType, shape []graph.Dim) *Value {
	return &Value{Type: dt, Ranked: true, Shape: shape}
}

// freshShape returns rank fresh dimensions.
func (c *call) freshShape(rank int) []graph.Dim {
	out := make([]graph.Dim, rank)
	for i := range out {
		out[i] = c.fresh()
	}
	return out
}

// storageBytes is what a computed tensor holds: its elements, and for
// strings a 16-byte header each besides their characters.
func storageBytes(t *tensor.Tensor) int64 {
	if t.DataType() == tensor.String {
		return 16*int64(t.Len()) + int64(t.ByteLen())
	}
	return int64(len(t.Bytes()))
}
