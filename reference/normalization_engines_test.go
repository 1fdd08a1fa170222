package reference_test

import (
	"math/rand/v2"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// Random nodes of the normalization operators for
// TestEnginesAgreeOnRandomValidNodes: both engines compute them in float64
// in one order and must agree bit for bit, BatchNormalization within the
// bound Agree states.

var normTypes = []tensor.DataType{tensor.Float, tensor.Float, tensor.Double, tensor.Float16, tensor.BFloat16}

// normType draws a float type, now and then an integer one (refused).
func normType(r *rand.Rand) tensor.DataType {
	if r.IntN(25) == 0 {
		return tensor.Int32
	}
	return normTypes[r.IntN(len(normTypes))]
}

func attrFloat32(v float32) ops.Attribute { return ops.Attribute{Type: ops.AttrFloat, Float: v} }

// normEpsilon sets epsilon half of the time, positive.
func normEpsilon(r *rand.Rand, n *ops.Node) {
	if r.IntN(2) == 0 {
		n.Attrs["epsilon"] = attrFloat32([]float32{1e-5, 1e-3, 0.5, 1e-9}[r.IntN(4)])
	}
}

// channelShape is N x C x D1 ... of rank 2 to 4 (now and then 1).
func channelShape(r *rand.Rand) []int {
	rank := 2 + r.IntN(3)
	if r.IntN(20) == 0 {
		rank = 1
	}
	s := randShape(r, rank, 4)
	for i := range s {
		if r.IntN(8) > 0 {
			s[i] = max(s[i], 1)
		}
	}
	return s
}

func init() {
	generators["LayerNormalization"] = func(r *rand.Rand) (*ops.Node, []tensor.Value) {
		n := &ops.Node{OpType: "LayerNormalization", Attrs: map[string]ops.Attribute{}, NumOutputs: 1 + r.IntN(3)}
		dt := normType(r)
		x := randShape(r, 1+r.IntN(4), 5)
		axis := axisIn(r, len(x))
		if r.IntN(3) > 0 {
			n.Attrs["axis"] = attrInt(axis)
		} else {
			axis = -1
		}
		normEpsilon(r, n)
		if r.IntN(4) == 0 {
			n.Attrs["stash_type"] = attrInt([]int{1, 16, 10}[r.IntN(3)])
		}
		a := axis
		if a < 0 {
			a += len(x)
		}
		ns := []int{}
		if a >= 0 && a <= len(x) {
			ns = x[min(a, len(x)):]
		}
		pshape := func() []int {
			k := r.IntN(len(ns) + 1)
			s := append([]int(nil), ns[len(ns)-k:]...)
			for i := range s {
				if r.IntN(4) == 0 {
					s[i] = 1
				}
			}
			if r.IntN(20) == 0 {
				s = append(s, 7) // does not broadcast
			}
			return s
		}
		in := []tensor.Value{randTensor(r, dt, x, -4, 4, r.IntN(8) == 0), randTensor(r, dt, pshape(), -2, 2, false)}
		if r.IntN(3) > 0 {
			in = append(in, randTensor(r, dt, pshape(), -2, 2, false))
		}
		return n, in
	}
	generators["RMSNormalization"] = func(r *rand.Rand) (*ops.Node, []tensor.Value) {
		n := &ops.Node{OpType: "RMSNormalization", Attrs: map[string]ops.Attribute{}}
		x := randShape(r, 1+r.IntN(4), 5)
		axis := axisIn(r, len(x))
		n.Attrs["axis"] = attrInt(axis)
		normEpsilon(r, n)
		a := axis
		if a < 0 {
			a += len(x)
		}
		ns := x[min(max(a, 0), len(x)):]
		k := r.IntN(len(ns) + 1)
		return n, []tensor.Value{randTensor(r, normType(r), x, -4, 4, r.IntN(8) == 0), randTensor(r, normType(r), ns[len(ns)-k:], -2, 2, false)}
	}
	generators["InstanceNormalization"] = func(r *rand.Rand) (*ops.Node, []tensor.Value) {
		n := &ops.Node{OpType: "InstanceNormalization", Version: pickVersion(r, "InstanceNormalization"), Attrs: map[string]ops.Attribute{}}
		normEpsilon(r, n)
		dt := normType(r)
		x := channelShape(r)
		c := 1
		if len(x) > 1 {
			c = x[1]
		}
		if r.IntN(20) == 0 {
			c++
		}
		return n, []tensor.Value{randTensor(r, dt, x, -4, 4, r.IntN(8) == 0), randTensor(r, dt, []int{c}, -2, 2, false), randTensor(r, dt, []int{c}, -2, 2, false)}
	}
	generators["GroupNormalization"] = func(r *rand.Rand) (*ops.Node, []tensor.Value) {
		v := pickVersion(r, "GroupNormalization")
		n := &ops.Node{OpType: "GroupNormalization", Version: v, Attrs: map[string]ops.Attribute{}}
		normEpsilon(r, n)
		dt := normType(r)
		x := channelShape(r)
		if len(x) < 2 {
			x = append(x, 2)
		}
		x[1] = []int{1, 2, 4, 6}[r.IntN(4)]
		var groups []int
		for g := 1; g <= x[1]; g++ {
			if x[1]%g == 0 {
				groups = append(groups, g)
			}
		}
		g := groups[r.IntN(len(groups))]
		if r.IntN(20) > 0 {
			n.Attrs["num_groups"] = attrInt(g)
		}
		if r.IntN(20) == 0 {
			n.Attrs["num_groups"] = attrInt(x[1] + 1)
		}
		if v >= 21 && r.IntN(4) == 0 {
			n.Attrs["stash_type"] = attrInt(1)
		}
		p := g
		if v >= 21 {
			p = x[1]
		}
		return n, []tensor.Value{randTensor(r, dt, x, -4, 4, r.IntN(8) == 0), randTensor(r, dt, []int{p}, -2, 2, false), randTensor(r, dt, []int{p}, -2, 2, false)}
	}
	generators["MeanVarianceNormalization"] = func(r *rand.Rand) (*ops.Node, []tensor.Value) {
		n := &ops.Node{OpType: "MeanVarianceNormalization", Version: pickVersion(r, "MeanVarianceNormalization"), Attrs: map[string]ops.Attribute{}}
		rank := 1 + r.IntN(4)
		if r.IntN(3) > 0 {
			var axes []int
			for _, a := range r.Perm(rank)[:r.IntN(rank+1)] {
				if r.IntN(2) == 0 {
					a -= rank
				}
				axes = append(axes, a)
			}
			if r.IntN(20) == 0 {
				axes = append(axes, rank)
			}
			n.Attrs["axes"] = attrInts(axes...)
		} else if r.IntN(2) == 0 {
			// The default axes [0, 2, 3] over planes of whole sixteens: the
			// fast engine's float32 runs.
			shape := []int{1 + r.IntN(3), 1 + r.IntN(3), 4 * (1 + r.IntN(3)), 4 * (1 + r.IntN(4))}
			if shape[2]*shape[3]%16 != 0 {
				shape[3] = 4 * shape[3]
			}
			return n, []tensor.Value{randTensor(r, normType(r), shape, -4, 4, r.IntN(8) == 0)}
		} else {
			rank = 4
		}
		return n, []tensor.Value{randTensor(r, normType(r), randShape(r, rank, 4), -4, 4, r.IntN(8) == 0)}
	}
	generators["LpNormalization"] = func(r *rand.Rand) (*ops.Node, []tensor.Value) {
		n := &ops.Node{OpType: "LpNormalization", Version: pickVersion(r, "LpNormalization"), Attrs: map[string]ops.Attribute{}}
		rank := 1 + r.IntN(4)
		n.Attrs["axis"] = attrInt(axisIn(r, rank))
		if r.IntN(2) == 0 {
			n.Attrs["p"] = attrInt([]int{1, 2, 1, 2, 3}[r.IntN(5)])
		}
		x := randTensor(r, normType(r), randShape(r, rank, 4), -4, 4, r.IntN(8) == 0)
		return n, []tensor.Value{x}
	}
	generators["LRN"] = func(r *rand.Rand) (*ops.Node, []tensor.Value) {
		n := &ops.Node{OpType: "LRN", Version: pickVersion(r, "LRN"), Attrs: map[string]ops.Attribute{}}
		if r.IntN(20) > 0 {
			n.Attrs["size"] = attrInt(r.IntN(6))
		}
		if r.IntN(2) == 0 {
			n.Attrs["alpha"] = attrFloat32(0.01 + r.Float32())
			n.Attrs["beta"] = attrFloat32(0.5 + r.Float32())
			n.Attrs["bias"] = attrFloat32(1 + r.Float32())
		}
		// lrnPow's square-root paths (beta 0.75 is the default) and a
		// zero divisor base (bias 0 at a window of zeros).
		switch r.IntN(4) {
		case 0:
			n.Attrs["beta"] = attrFloat32(0.5)
		case 1:
			n.Attrs["beta"] = attrFloat32(1)
		}
		if r.IntN(6) == 0 {
			n.Attrs["bias"] = attrFloat32(0)
		}
		return n, []tensor.Value{randTensor(r, normType(r), channelShape(r), -4, 4, r.IntN(8) == 0)}
	}
	generators["BatchNormalization"] = func(r *rand.Rand) (*ops.Node, []tensor.Value) {
		v := pickVersion(r, "BatchNormalization")
		n := &ops.Node{OpType: "BatchNormalization", Version: v, Attrs: map[string]ops.Attribute{}, NumOutputs: 1}
		normEpsilon(r, n)
		if r.IntN(2) == 0 {
			n.Attrs["momentum"] = attrFloat32(r.Float32())
		}
		switch {
		case v < 7:
			n.Attrs["is_test"] = attrInt(r.IntN(2))
			if r.IntN(2) == 0 {
				n.NumOutputs = 1 + r.IntN(5)
			}
		case v < 14:
			n.NumOutputs = []int{1, 1, 3, 5}[r.IntN(4)]
		default:
			mode := r.IntN(2)
			n.Attrs["training_mode"] = attrInt(mode)
			if mode == 1 || r.IntN(20) == 0 {
				n.NumOutputs = 1 + r.IntN(3)
			}
		}
		spatial := true
		if v < 9 && r.IntN(3) == 0 {
			spatial = false
			n.Attrs["spatial"] = attrInt(0)
		}
		x := channelShape(r)
		dt := normType(r)
		pt, st := dt, dt
		if v >= 14 && r.IntN(2) == 0 {
			st = normTypes[r.IntN(len(normTypes))]
		}
		if v >= 15 && r.IntN(2) == 0 {
			pt = normTypes[r.IntN(len(normTypes))]
		}
		ps := []int{1}
		if len(x) > 1 {
			ps = []int{x[1]}
			if !spatial {
				ps = x[1:]
			}
		}
		if r.IntN(25) == 0 {
			ps = []int{ps[0] + 1}
		}
		return n, []tensor.Value{randTensor(r, dt, x, -4, 4, false), randTensor(r, pt, ps, -2, 2, false), randTensor(r, pt, ps, -2, 2, false),
			randTensor(r, st, ps, -1, 1, false), randTensor(r, st, ps, 0, 3, false)}
	}
}
