// What the reference kernels of LSTM, GRU and RNN share: reading and
// checking a node (the rules of ops/lstm.go, in the same order), the
// activation functions of the spec, element access by the spec's index
// names, and the loop over directions, batch entries and time steps.
// Everything is computed in float64 and rounded once to the output type.

package reference

import (
	"math"
	"strings"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// recurrent is one node read: sizes, attributes and the inputs in float64.
type recurrent struct {
	op                        opRef
	gates, perDir             int
	seq, batch, input, hidden int
	dirs                      int
	reverse                   bool
	layout                    int
	clip                      float64 // 0: none
	acts                      []activation
	linearBeforeReset         bool
	inputForget               bool
	dt                        tensor.DataType
	x, w, r, b, h0, c0, p     []float64 // nil when absent
	lens                      []int
}

// activation is one of the spec's activation functions with its alpha
// and beta.
type activation struct {
	name        string
	alpha, beta float64
}

// The spec's activation functions (Operators.md, "Activation functions"),
// with the number of alpha and beta values each consumes and its defaults
// (those of the ONNX operators of the same name; Affine and ScaledTanh as
// onnxruntime: 1 and 0, 1 and 1), float32 as the attributes are.
var recurrentFuncs = map[string]struct {
	alphas, betas int
	alpha, beta   float32
}{
	"relu": {}, "tanh": {}, "sigmoid": {}, "softsign": {}, "softplus": {},
	"affine": {1, 1, 1, 0}, "leakyrelu": {1, 0, 0.01, 0}, "thresholdedrelu": {1, 0, 1, 0},
	"scaledtanh": {1, 1, 1, 1}, "hardsigmoid": {1, 1, 0.2, 0.5}, "elu": {1, 0, 1, 0},
}

// apply is the activation function a at x.
func (a activation) apply(x float64) float64 {
	switch a.name {
	case "relu":
		return math.Max(0, x)
	case "tanh":
		return math.Tanh(x)
	case "sigmoid":
		return 1 / (1 + math.Exp(-x))
	case "affine":
		return a.alpha*x + a.beta
	case "leakyrelu":
		if x >= 0 {
			return x
		}
		return a.alpha * x
	case "thresholdedrelu":
		if x >= a.alpha {
			return x
		}
		return 0
	case "scaledtanh":
		return a.alpha * math.Tanh(a.beta*x)
	case "hardsigmoid":
		return math.Min(math.Max(a.alpha*x+a.beta, 0), 1)
	case "elu":
		if x >= 0 {
			return x
		}
		return a.alpha * (math.Exp(x) - 1)
	case "softsign":
		return x / (1 + math.Abs(x))
	case "softplus":
		return math.Log(1 + math.Exp(x))
	}
	return math.NaN()
}

// recurrentTypes are the types of T by since-version.
var recurrentTypes = map[int][]tensor.DataType{
	1: {tensor.Float16, tensor.Float, tensor.Double}, 3: {tensor.Float16, tensor.Float, tensor.Double},
	7: {tensor.Float16, tensor.Float, tensor.Double}, 14: {tensor.Float16, tensor.Float, tensor.Double},
	22: {tensor.Float16, tensor.Float, tensor.Double, tensor.BFloat16},
}

// readRecurrent checks node n and reads its inputs; gates and perDir are
// the cell's gates and activations per direction, inputs its most inputs.
func readRecurrent(opt *ops.Options, n *ops.Node, in []tensor.Value, gates, perDir, inputs int, defaultActs []string) (*recurrent, error) {
	op := opOf(n)
	c := &recurrent{op: op, gates: gates, perDir: perDir}
	var t [8]*tensor.Tensor // X, W, R, B, sequence_lens, initial_h, initial_c, P
	var err error
	for i, name := range []string{"X", "W", "R"} {
		if t[i], err = requiredInput(op, in, i, name); err != nil {
			return nil, err
		}
	}
	for i := 3; i < inputs; i++ {
		if t[i], err = optionalInput(op, in, i); err != nil {
			return nil, err
		}
	}

	// [type]
	c.dt = t[0].DataType()
	allowed := false
	for _, d := range recurrentTypes[op.version] {
		allowed = allowed || d == c.dt
	}
	if !allowed {
		return nil, op.errorf("type", "X of type %v is not allowed in version %d", c.dt, op.version)
	}
	for i, name := range []string{"", "W", "R", "B", "", "initial_h", "initial_c", "P"} {
		if name != "" && t[i] != nil && t[i].DataType() != c.dt {
			return nil, op.errorf("type", "%s is %v, X is %v", name, t[i].DataType(), c.dt)
		}
	}
	if t[4] != nil && t[4].DataType() != tensor.Int32 {
		return nil, op.errorf("type", "sequence_lens is %v, expected int32", t[4].DataType())
	}

	// [direction]
	dir, err := n.Str("direction", "forward")
	if err != nil {
		return nil, err
	}
	switch dir {
	case "forward":
		c.dirs = 1
	case "reverse":
		c.dirs, c.reverse = 1, true
	case "bidirectional":
		c.dirs = 2
	default:
		return nil, op.errorf("direction", "direction %q is not forward, reverse or bidirectional", dir)
	}
	// [layout]
	layout, err := n.Int("layout", 0)
	if err != nil {
		return nil, err
	}
	if layout != 0 && layout != 1 {
		return nil, op.errorf("layout", "layout %d is not 0 or 1", layout)
	}
	c.layout = int(layout)
	// [clip]
	if n.Has("clip") {
		v, err := n.Float("clip", 0)
		if err != nil {
			return nil, err
		}
		if !(v > 0) {
			return nil, op.errorf("clip", "clip %v is not a positive threshold", v)
		}
		c.clip = float64(v)
	}
	// [input_forget], [linear_before_reset]
	for _, name := range []string{"input_forget", "linear_before_reset"} {
		v, err := n.Int(name, 0)
		if err != nil {
			return nil, err
		}
		if v != 0 && v != 1 {
			return nil, op.errorf(name, "%s %d is not 0 or 1", name, v)
		}
		if name == "input_forget" {
			c.inputForget = v == 1
		} else {
			c.linearBeforeReset = v == 1
		}
	}
	// [activations]
	if c.acts, err = readActivations(n, op, perDir, c.dirs, defaultActs); err != nil {
		return nil, err
	}

	// [shape], [hidden_size]
	if t[0].Rank() != 3 {
		return nil, op.errorf("shape", "X has shape %v, expected rank 3", t[0].Shape())
	}
	xs := t[0].Shape()
	c.seq, c.batch, c.input = xs[0], xs[1], xs[2]
	if c.layout == 1 {
		c.seq, c.batch = xs[1], xs[0]
	}
	if t[2].Rank() != 3 {
		return nil, op.errorf("shape", "R has shape %v, expected [num_directions, %d*hidden_size, hidden_size]", t[2].Shape(), gates)
	}
	c.hidden = t[2].Shape()[2]
	if n.Has("hidden_size") {
		hs, err := n.Int("hidden_size", 0)
		if err != nil {
			return nil, err
		}
		if hs != int64(c.hidden) {
			return nil, op.errorf("hidden_size", "hidden_size %d, R has shape %v", hs, t[2].Shape())
		}
	}
	G, H, D := gates, c.hidden, c.dirs
	if H > math.MaxInt/4 {
		return nil, op.errorf("shape", "hidden size %d is too large", H)
	}
	state := []int{D, c.batch, H}
	if c.layout == 1 {
		state = []int{c.batch, D, H}
	}
	wants := [8][]int{1: {D, G * H, c.input}, 2: {D, G * H, H}, 3: {D, 2 * G * H}, 4: {c.batch}, 5: state, 6: state, 7: {D, 3 * H}}
	for i, name := range []string{"", "W", "R", "B", "sequence_lens", "initial_h", "initial_c", "P"} {
		if name != "" && t[i] != nil && !tensor.SameShape(t[i].Shape(), wants[i]) {
			return nil, op.errorf("shape", "%s has shape %v, expected %v", name, t[i].Shape(), wants[i])
		}
	}
	// [sequence_lens]
	if t[4] != nil {
		v, err := tensor.ToSlice[int32](t[4])
		if err != nil {
			return nil, op.wrap("sequence_lens", err, "sequence_lens")
		}
		for i, l := range v {
			if l < 0 || int(l) > c.seq {
				return nil, op.errorf("sequence_lens", "sequence_lens[%d] = %d is outside [0, %d]", i, l, c.seq)
			}
			c.lens = append(c.lens, int(l))
		}
	}
	// The float64 copies of the inputs below are charged before they are made.
	copies := 0
	for i, t := range t {
		if t != nil && i != 4 {
			copies += t.Len()
		}
	}
	if err := chargeScratch(opt, op, "the inputs as float64", copies, 8); err != nil {
		return nil, err
	}
	for i, dst := range []*[]float64{&c.x, &c.w, &c.r, &c.b, nil, &c.h0, &c.c0, &c.p} {
		if dst != nil && t[i] != nil {
			if *dst, err = t[i].Float64s(); err != nil {
				return nil, op.wrap("type", err, "input %d", i)
			}
		}
	}
	return c, nil
}

// readActivations reads activations, activation_alpha and activation_beta:
// perDir names per direction (or perDir for both), alpha and beta values
// consumed in order by the functions that take them.
func readActivations(n *ops.Node, op opRef, perDir, dirs int, defaults []string) ([]activation, error) {
	names := defaults
	if a, ok := n.Attrs["activations"]; ok {
		if a.Type != ops.AttrStrings {
			return nil, op.errorf("attribute", "attribute activations is of type %v, expected %v", a.Type, ops.AttrStrings)
		}
		names = a.Strings
	}
	if len(names) == perDir && dirs == 2 {
		names = append(append([]string{}, names...), names...)
	}
	if len(names) != perDir*dirs {
		return nil, op.errorf("activations", "%d activations, expected %d per direction for %d direction(s)", len(names), perDir, dirs)
	}
	alphas, _, err := n.Floats("activation_alpha")
	if err != nil {
		return nil, err
	}
	betas, _, err := n.Floats("activation_beta")
	if err != nil {
		return nil, err
	}
	var acts []activation
	for _, name := range names {
		f, ok := recurrentFuncs[strings.ToLower(name)]
		if !ok {
			return nil, op.errorf("activations", "unknown activation %q", name)
		}
		a := activation{name: strings.ToLower(name), alpha: float64(f.alpha), beta: float64(f.beta)}
		if f.alphas > 0 && len(alphas) > 0 {
			a.alpha, alphas = float64(alphas[0]), alphas[1:]
		}
		if f.betas > 0 && len(betas) > 0 {
			a.beta, betas = float64(betas[0]), betas[1:]
		}
		acts = append(acts, a)
	}
	return acts, nil
}

// act is activation k of direction d at x, its input clipped first.
func (c *recurrent) act(d, k int, x float64) float64 {
	if c.clip > 0 && !math.IsNaN(x) {
		x = math.Min(math.Max(x, -c.clip), c.clip)
	}
	return c.acts[d*c.perDir+k].apply(x)
}

// X is element k of X at time t, batch entry b.
func (c *recurrent) X(t, b, k int) float64 {
	if c.layout == 1 {
		return c.x[(b*c.seq+t)*c.input+k]
	}
	return c.x[(t*c.batch+b)*c.input+k]
}

// xw is the product of X at (t, b) with row j of gate g of direction d's W.
func (c *recurrent) xw(d, g, j, t, b int) float64 {
	s := 0.0
	for k := 0; k < c.input; k++ {
		s += c.X(t, b, k) * c.w[((d*c.gates+g)*c.hidden+j)*c.input+k]
	}
	return s
}

// hr is the product of h with row j of gate g of direction d's R.
func (c *recurrent) hr(d, g, j int, h []float64) float64 {
	s := 0.0
	for k := 0; k < c.hidden; k++ {
		s += h[k] * c.r[((d*c.gates+g)*c.hidden+j)*c.hidden+k]
	}
	return s
}

// wb and rb are gate g's W and R biases at j (0 without B).
func (c *recurrent) wb(d, g, j int) float64 {
	if c.b == nil {
		return 0
	}
	return c.b[(2*d*c.gates+g)*c.hidden+j]
}

func (c *recurrent) rb(d, g, j int) float64 {
	if c.b == nil {
		return 0
	}
	return c.b[((2*d+1)*c.gates+g)*c.hidden+j]
}

// stateIndex is the flat index of (d, b, j) in initial_h, initial_c, Y_h, Y_c.
func (c *recurrent) stateIndex(d, b, j int) int {
	if c.layout == 1 {
		return (b*c.dirs+d)*c.hidden + j
	}
	return (d*c.batch+b)*c.hidden + j
}

// yIndex is the flat index of (t, d, b, j) in Y.
func (c *recurrent) yIndex(t, d, b, j int) int {
	if c.layout == 1 {
		return ((b*c.seq+t)*c.dirs+d)*c.hidden + j
	}
	return ((t*c.dirs+d)*c.batch+b)*c.hidden + j
}

// initial returns (d, b)'s initial state from v (initial_h or initial_c),
// zeros when v is absent.
func (c *recurrent) initial(v []float64, d, b int) []float64 {
	s := make([]float64, c.hidden)
	if v != nil {
		for j := range s {
			s[j] = v[c.stateIndex(d, b, j)]
		}
	}
	return s
}

// run makes the outputs (as many as the node declares, at most count) and
// runs cell over every direction and batch entry: cell(d, t, b, h, cs)
// returns the next h (and updates cs, the cell state, in place). The
// reverse direction runs each sequence from its last valid step back; Y
// stays 0 past a sequence's length.
func (c *recurrent) run(opt *ops.Options, n *ops.Node, count int, cell func(d, t, b int, h, cs []float64) []float64) ([]tensor.Value, error) {
	if n.NumOutputs > 0 && n.NumOutputs < count {
		count = n.NumOutputs
	}
	shapes := [][]int{{c.seq, c.dirs, c.batch, c.hidden}, {c.dirs, c.batch, c.hidden}, {c.dirs, c.batch, c.hidden}}
	if c.layout == 1 {
		shapes = [][]int{{c.batch, c.seq, c.dirs, c.hidden}, {c.batch, c.dirs, c.hidden}, {c.batch, c.dirs, c.hidden}}
	}
	outs := make([]*tensor.Tensor, count)
	for i := range outs {
		var err error
		if outs[i], err = newTensor(opt, c.op, c.dt, shapes[i]); err != nil {
			return nil, err
		}
	}
	for d := 0; d < c.dirs; d++ {
		reverse := d == 1 || c.reverse
		for b := 0; b < c.batch; b++ {
			if err := cancelled(opt, c.op); err != nil {
				return nil, err
			}
			h, cs := c.initial(c.h0, d, b), c.initial(c.c0, d, b)
			length := c.seq
			if c.lens != nil {
				length = c.lens[b]
			}
			for step := 0; step < length; step++ {
				t := step
				if reverse {
					t = length - 1 - step
				}
				h = cell(d, t, b, h, cs)
				for j, v := range h {
					if len(outs) > 0 {
						setScalar(outs[0], c.yIndex(t, d, b, j), floatOf(v))
					}
				}
			}
			for j := 0; j < c.hidden; j++ {
				if len(outs) > 1 {
					setScalar(outs[1], c.stateIndex(d, b, j), floatOf(h[j]))
				}
				if len(outs) > 2 {
					setScalar(outs[2], c.stateIndex(d, b, j), floatOf(cs[j]))
				}
			}
		}
	}
	return values(outs...), nil
}
