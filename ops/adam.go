// Adam (ai.onnx.preview.training, version 1) updates n tensors X_i with
// their gradients G_i, first moments V_i and second moments H_i; the
// outputs are the new X_i, then the new V_i, then the new H_i. Per element:
//
//	g = norm_coefficient*x + G
//	v_new = alpha*V + (1-alpha)*g
//	h_new = beta*H + (1-beta)*g*g
//	r = R*sqrt(1 - beta^T)/(1 - alpha^T) when T > 0, else R
//	x_new = (1 - norm_coefficient_post) * (X - r*v_new/(sqrt(h_new) + epsilon))
//
// alpha defaults to 0.9, beta to 0.999, epsilon to 1e-6 and both norm
// coefficients to 0. Computed in float64, rounded once to float or
// double. The rules are runOptimizer's (below, shared with Adagrad and Momentum).

package ops

import (
	"math"
	"slices"

	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	registerIn(domainTraining, "Adam", []int{1}, [2]int{6, -1}, [2]int{3, -1}, adamNode)
	declareAttrsIn(domainTraining, "Adam", AttrSpec{Name: "alpha", Type: AttrFloat},
		AttrSpec{Name: "beta", Type: AttrFloat}, AttrSpec{Name: "epsilon", Type: AttrFloat},
		AttrSpec{Name: "norm_coefficient", Type: AttrFloat}, AttrSpec{Name: "norm_coefficient_post", Type: AttrFloat})
}

func adamNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	var attrs [5]float32
	for i, a := range []struct {
		name string
		def  float32
	}{{"alpha", 0.9}, {"beta", 0.999}, {"epsilon", 1e-6}, {"norm_coefficient", 0}, {"norm_coefficient_post", 0}} {
		v, err := n.Float(a.name, a.def)
		if err != nil {
			return nil, err
		}
		attrs[i] = v
	}
	alpha, beta, eps, norm, post := float64(attrs[0]), float64(attrs[1]), float64(attrs[2]), float64(attrs[3]), float64(attrs[4])
	return runOptimizer(opt, n, in, []string{"X", "G", "V", "H"}, func(r float64, t int64) optimizerStep {
		if t > 0 {
			r = r * math.Sqrt(1-math.Pow(beta, float64(t))) / (1 - math.Pow(alpha, float64(t)))
		}
		return func(x, g float64, s, out []float64) {
			g = norm*x + g
			v := alpha*s[0] + (1-alpha)*g
			h := beta*s[1] + (1-beta)*(g*g)
			out[0] = (1 - post) * (x - r*(v/(math.Sqrt(h)+eps)))
			out[1] = v
			out[2] = h
		}
	})
}

// What the three optimizers of the ai.onnx.preview.training domain
// (Adagrad, Momentum, Adam) share: their inputs are a learning rate R
// (float or double scalar), an update count T (int64 scalar), then n
// tensors X_1..X_n to update, their gradients G_1..G_n and one or two
// lists of optimizer states, each list n tensors of the X_i's shapes; the
// outputs are the new X_i, then the new states, list by list. Every
// update is elementwise, computed in float64 and rounded once to the
// tensors' type (float or double, the same for all of them).
//
// Rules: [inputs] 2 + k*n inputs, n >= 1; [R] a float or double scalar;
// [T] an int64 scalar; [type] every X, G and state of one type, float or
// double; [shape] each G_i and state of X_i's shape; [outputs] the node
// declares k-1 outputs per tensor, when it says.

// optimizerStep computes one element: x and g, the element's states s (in
// input order) into out: the new x, then the new states.
type optimizerStep func(x, g float64, s, out []float64)

// optimizerBlock is how many elements an optimizer converts at a time.
const optimizerBlock = 512

// runOptimizer checks the inputs of an optimizer whose lists are named
// lists ("X", "G", then the states) and applies step to every element.
// newStep builds the step from R and T once both are checked.
func runOptimizer(opt *Options, n *Node, in []tensor.Value, lists []string, newStep func(r float64, t int64) optimizerStep) ([]tensor.Value, error) {
	opt = opt.orDefault()
	op := n.op()
	k := len(lists)
	if len(in) < 2+k || (len(in)-2)%k != 0 {
		return nil, op.errorf("inputs", "%d inputs: expected R, T and %d lists (%v) of n >= 1 tensors each", len(in), k, lists)
	}
	count := (len(in) - 2) / k
	if n.NumOutputs > 0 && n.NumOutputs != (k-1)*count {
		return nil, op.errorf("outputs", "%d outputs declared, expected %d (%d lists of %d)", n.NumOutputs, (k-1)*count, k-1, count)
	}
	rt, err := n.requiredInput(in, 0, "R")
	if err != nil {
		return nil, err
	}
	if (rt.DataType() != tensor.Float && rt.DataType() != tensor.Double) || rt.Len() != 1 || rt.Rank() > 1 {
		return nil, op.errorf("R", "R must be a float or double scalar, got %v%v", rt.DataType(), rt.Shape())
	}
	tt, err := n.requiredInput(in, 1, "T")
	if err != nil {
		return nil, err
	}
	if tt.DataType() != tensor.Int64 || tt.Len() != 1 || tt.Rank() > 1 {
		return nil, op.errorf("T", "T must be an int64 scalar, got %v%v", tt.DataType(), tt.Shape())
	}
	var r float64
	if rt.DataType() == tensor.Float {
		r = float64(asElems[float32](rt.Bytes())[0])
	} else {
		r = asElems[float64](rt.Bytes())[0]
	}
	t := asElems[int64](tt.Bytes())[0]
	groups := make([][]*tensor.Tensor, count) // groups[i][j]: list j's tensor i
	for i := range count {
		groups[i] = make([]*tensor.Tensor, k)
		for j := range k {
			x, err := n.requiredInput(in, 2+j*count+i, lists[j])
			if err != nil {
				return nil, err
			}
			if j == 0 && i == 0 {
				if x.DataType() != tensor.Float && x.DataType() != tensor.Double {
					return nil, op.errorf("type", "%s_1 must be float or double, got %v", lists[0], x.DataType())
				}
			} else if x.DataType() != groups[0][0].DataType() {
				return nil, op.errorf("type", "%s_%d is %v, %s_1 is %v: one type for all", lists[j], i+1, x.DataType(), lists[0], groups[0][0].DataType())
			}
			if j > 0 && !slices.Equal(x.Shape(), groups[i][0].Shape()) {
				return nil, op.errorf("shape", "%s_%d has shape %v, %s_%d has %v", lists[j], i+1, x.Shape(), lists[0], i+1, groups[i][0].Shape())
			}
			groups[i][j] = x
		}
	}
	step := newStep(r, t)
	out := make([]*tensor.Tensor, (k-1)*count)
	for i, g := range groups {
		for j := range k - 1 {
			y, err := opt.newOverwritten(op, g[0].DataType(), g[0].Shape())
			if err != nil {
				return nil, err
			}
			out[j*count+i] = y
		}
	}
	for i, g := range groups {
		outs := make([]*tensor.Tensor, k-1)
		for j := range outs {
			outs[j] = out[j*count+i]
		}
		var err error
		if g[0].DataType() == tensor.Float {
			err = optimizerUpdate[float32](opt, g, outs, step)
		} else {
			err = optimizerUpdate[float64](opt, g, outs, step)
		}
		if err != nil {
			return nil, op.stopped(err)
		}
	}
	return values(out...), nil
}

// optimizerUpdate applies step to every element of one tensor's inputs
// (X, G, states) into its outputs (new X, new states), in blocks, looking
// at the context between them.
func optimizerUpdate[E float32 | float64](opt *Options, in, out []*tensor.Tensor, step optimizerStep) error {
	src := make([][]E, len(in))
	for j, x := range in {
		src[j] = asElems[E](x.Bytes())[:x.Len()]
	}
	dst := make([][]E, len(out))
	for j, y := range out {
		dst[j] = asElems[E](y.Bytes())[:y.Len()]
	}
	s := make([]float64, len(in)-2)
	res := make([]float64, len(out))
	total := in[0].Len()
	for lo := 0; lo < total; lo += optimizerBlock {
		if err := opt.cancelled(); err != nil {
			return err
		}
		for e := lo; e < min(total, lo+optimizerBlock); e++ {
			for j := range s {
				s[j] = float64(src[2+j][e])
			}
			step(float64(src[0][e]), float64(src[1][e]), s, res)
			for j := range dst {
				dst[j][e] = E(res[j])
			}
		}
	}
	return nil
}
