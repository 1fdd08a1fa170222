package reference_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/x448/float16"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/reference"
	"github.com/onnxshape/onnxshape/tensor"
)

// Random but mostly valid nodes of every operator, through both engines:
// the outputs must agree (reference.Agree), and where one engine refuses
// the node the other must refuse it under the same rule. Unlike the
// fuzz target's free-form nodes, these reach the kernels: each generator
// draws parameters the way a model would set them, now and then off the
// valid range. The properties of ops' tests (Squeeze undoes Unsqueeze,
// Concat undoes Split, DepthToSpace undoes SpaceToDepth, MaxUnpool puts
// MaxPool's maxima back) hold in the reference engine as well: the last
// test checks them there.

// movementTypes are the element types the movement operators are tried on.
var movementTypes = []tensor.DataType{tensor.Float, tensor.Double, tensor.Float16, tensor.BFloat16,
	tensor.Int8, tensor.Uint8, tensor.Int32, tensor.Int64, tensor.Bool, tensor.String, tensor.Int4,
	tensor.Complex64, tensor.Float8E4M3FN}

// randTensor returns a tensor of type dt and shape whose values are drawn
// in [lo, hi] (whole numbers for the integer types); with special, the
// float types also get NaN, infinities and -0 now and then.
func randTensor(r *rand.Rand, dt tensor.DataType, shape []int, lo, hi float64, special bool) *tensor.Tensor {
	x := tensor.MustNew(dt, shape...)
	value := func() float64 {
		if special && r.IntN(12) == 0 {
			return []float64{math.NaN(), math.Inf(1), math.Inf(-1), math.Copysign(0, -1)}[r.IntN(4)]
		}
		return lo + r.Float64()*(hi-lo)
	}
	switch dt {
	case tensor.Float:
		v, _ := tensor.Data[float32](x)
		for i := range v {
			v[i] = float32(value())
		}
	case tensor.Double:
		v, _ := tensor.Data[float64](x)
		for i := range v {
			v[i] = value()
		}
	case tensor.Float16:
		v, _ := tensor.Data[float16.Float16](x)
		for i := range v {
			v[i] = float16.Fromfloat32(float32(value()))
		}
	case tensor.BFloat16:
		v, _ := tensor.Data[tensor.BF16](x)
		for i := range v {
			v[i] = tensor.BF16FromFloat32(float32(value()))
		}
	case tensor.Int8:
		v, _ := tensor.Data[int8](x)
		for i := range v {
			v[i] = int8(math.Max(-128, math.Min(127, math.Round(lo+r.Float64()*(hi-lo)))))
		}
	case tensor.Uint8:
		v, _ := tensor.Data[uint8](x)
		for i := range v {
			v[i] = uint8(math.Max(0, math.Min(255, math.Round(lo+r.Float64()*(hi-lo)))))
		}
	case tensor.Int32:
		v, _ := tensor.Data[int32](x)
		for i := range v {
			v[i] = int32(math.Round(lo + r.Float64()*(hi-lo)))
		}
	case tensor.Int64:
		v, _ := tensor.Data[int64](x)
		for i := range v {
			v[i] = int64(math.Round(lo + r.Float64()*(hi-lo)))
		}
	case tensor.Bool:
		for i := range x.Bytes() {
			x.Bytes()[i] = byte(r.IntN(2))
		}
	case tensor.String:
		for i := range x.Strings() {
			x.Strings()[i] = fmt.Sprint(r.IntN(1000))
		}
	case tensor.Int4:
		for i := range x.Bytes() {
			x.Bytes()[i] = byte(int8(r.IntN(16) - 8))
		}
	default:
		for i := range x.Bytes() {
			x.Bytes()[i] = byte(r.Uint32())
		}
	}
	return x
}

func randShape(r *rand.Rand, rank, maxDim int) []int {
	s := make([]int, rank)
	for i := range s {
		s[i] = r.IntN(maxDim + 1)
	}
	return s
}

func ints64(v ...int) *tensor.Tensor {
	out := make([]int64, len(v))
	for i, x := range v {
		out[i] = int64(x)
	}
	return tensor.MustFromSlice(out, len(out))
}

func attrInt(v int) ops.Attribute { return ops.Attribute{Type: ops.AttrInt, Int: int64(v)} }
func attrInts(v ...int) ops.Attribute {
	a := ops.Attribute{Type: ops.AttrInts, Ints: []int64{}}
	for _, x := range v {
		a.Ints = append(a.Ints, int64(x))
	}
	return a
}
func attrStr(s string) ops.Attribute { return ops.Attribute{Type: ops.AttrString, String: s} }

// pickVersion returns one of the since-versions ops registers for op.
func pickVersion(r *rand.Rand, op string) int {
	var vs []int
	for _, s := range ops.Schemas() {
		if s.Name == op {
			vs = append(vs, s.Since)
		}
	}
	return vs[r.IntN(len(vs))]
}

// axisIn returns a valid axis of rank r (sometimes negative), now and then
// one out of range.
func axisIn(rng *rand.Rand, r int) int {
	if rng.IntN(20) == 0 || r == 0 {
		return r + rng.IntN(2)
	}
	a := rng.IntN(r)
	if rng.IntN(2) == 0 {
		a -= r
	}
	return a
}

// generators build one random node of each operator and its inputs.
var generators = map[string]func(r *rand.Rand) (*ops.Node, []tensor.Value){
	"Identity": func(r *rand.Rand) (*ops.Node, []tensor.Value) {
		x := randTensor(r, movementTypes[r.IntN(len(movementTypes))], randShape(r, r.IntN(4), 3), -9, 9, true)
		return &ops.Node{OpType: "Identity"}, []tensor.Value{x}
	},
	"Constant": func(r *rand.Rand) (*ops.Node, []tensor.Value) {
		n := &ops.Node{OpType: "Constant", Attrs: map[string]ops.Attribute{}}
		switch r.IntN(4) {
		case 0:
			n.Attrs["value"] = ops.Attribute{Type: ops.AttrTensor, Tensor: randTensor(r, movementTypes[r.IntN(len(movementTypes))], randShape(r, r.IntN(3), 3), -9, 9, true)}
		case 1:
			n.Attrs["value_ints"] = attrInts(r.Perm(r.IntN(4))...)
		case 2:
			n.Attrs["value_float"] = ops.Attribute{Type: ops.AttrFloat, Float: float32(r.NormFloat64())}
		default:
			n.Attrs["value_strings"] = ops.Attribute{Type: ops.AttrStrings, Strings: []string{"a", "b"}}
		}
		return n, nil
	},
	"Shape": func(r *rand.Rand) (*ops.Node, []tensor.Value) {
		n := &ops.Node{OpType: "Shape", Attrs: map[string]ops.Attribute{}}
		if r.IntN(2) == 0 {
			n.Attrs["start"] = attrInt(r.IntN(9) - 4)
		}
		if r.IntN(2) == 0 {
			n.Attrs["end"] = attrInt(r.IntN(9) - 4)
		}
		return n, []tensor.Value{randTensor(r, tensor.Float, randShape(r, r.IntN(5), 3), 0, 1, false)}
	},
	"Size": func(r *rand.Rand) (*ops.Node, []tensor.Value) {
		return &ops.Node{OpType: "Size"}, []tensor.Value{randTensor(r, tensor.Int8, randShape(r, r.IntN(5), 3), 0, 1, false)}
	},
	"Transpose": func(r *rand.Rand) (*ops.Node, []tensor.Value) {
		rank := r.IntN(6)
		x := randTensor(r, movementTypes[r.IntN(len(movementTypes))], randShape(r, rank, 4), -9, 9, true)
		n := &ops.Node{OpType: "Transpose", Attrs: map[string]ops.Attribute{}}
		if r.IntN(4) > 0 {
			perm := r.Perm(rank)
			if r.IntN(15) == 0 && rank > 1 {
				perm[0] = perm[1] // repeated: [perm]
			}
			n.Attrs["perm"] = attrInts(perm...)
		}
		return n, []tensor.Value{x}
	},
	"Unsqueeze": func(r *rand.Rand) (*ops.Node, []tensor.Value) {
		x := randTensor(r, movementTypes[r.IntN(len(movementTypes))], randShape(r, r.IntN(4), 3), -9, 9, true)
		k := r.IntN(3)
		var axes []int
		for range k {
			axes = append(axes, axisIn(r, x.Rank()+k))
		}
		n := &ops.Node{OpType: "Unsqueeze", Version: pickVersion(r, "Unsqueeze"), Attrs: map[string]ops.Attribute{}}
		if n.Version < 13 {
			n.Attrs["axes"] = attrInts(axes...)
			return n, []tensor.Value{x}
		}
		return n, []tensor.Value{x, ints64(axes...)}
	},
	"Squeeze": func(r *rand.Rand) (*ops.Node, []tensor.Value) {
		shape := randShape(r, r.IntN(5), 3)
		var axes []int
		for k := range shape {
			if r.IntN(2) == 0 {
				shape[k] = 1
				if r.IntN(2) == 0 {
					axes = append(axes, k-len(shape)*r.IntN(2))
				}
			}
		}
		x := randTensor(r, movementTypes[r.IntN(len(movementTypes))], shape, -9, 9, true)
		n := &ops.Node{OpType: "Squeeze", Version: pickVersion(r, "Squeeze"), Attrs: map[string]ops.Attribute{}}
		give := r.IntN(3) > 0
		switch {
		case !give:
			return n, []tensor.Value{x}
		case n.Version < 13:
			n.Attrs["axes"] = attrInts(axes...)
			return n, []tensor.Value{x}
		}
		return n, []tensor.Value{x, ints64(axes...)}
	},
	"Reshape": func(r *rand.Rand) (*ops.Node, []tensor.Value) {
		shape := randShape(r, r.IntN(4), 4)
		x := randTensor(r, movementTypes[r.IntN(len(movementTypes))], shape, -9, 9, true)
		// The target: the input's dims in another grouping, with a 0
		// (copy), a -1 (infer) or a wrong count now and then.
		total := x.Len()
		var target []int
		if total > 0 && r.IntN(2) == 0 {
			target = []int{total}
			if total%2 == 0 {
				target = []int{2, total / 2}
			}
		} else {
			target = append(target, shape...)
			for i, j := 0, len(target)-1; i < j; i, j = i+1, j-1 {
				target[i], target[j] = target[j], target[i]
			}
		}
		switch r.IntN(5) {
		case 0:
			if len(target) > 0 {
				target[r.IntN(len(target))] = -1
			}
		case 1:
			if len(target) > 0 {
				target[0] = 0
			}
		case 2:
			target = append(target, 1+r.IntN(2))
		}
		n := &ops.Node{OpType: "Reshape", Version: pickVersion(r, "Reshape"), Attrs: map[string]ops.Attribute{}}
		if n.Version >= 14 && r.IntN(2) == 0 {
			n.Attrs["allowzero"] = attrInt(r.IntN(2))
		}
		if n.Version < 5 {
			n.Attrs["shape"] = attrInts(target...)
			return n, []tensor.Value{x}
		}
		return n, []tensor.Value{x, ints64(target...)}
	},
	"Flatten": func(r *rand.Rand) (*ops.Node, []tensor.Value) {
		x := randTensor(r, movementTypes[r.IntN(len(movementTypes))], randShape(r, r.IntN(5), 3), -9, 9, true)
		n := &ops.Node{OpType: "Flatten", Version: pickVersion(r, "Flatten"), Attrs: map[string]ops.Attribute{"axis": attrInt(r.IntN(2*x.Rank()+3) - x.Rank() - 1)}}
		return n, []tensor.Value{x}
	},
	"Concat": func(r *rand.Rand) (*ops.Node, []tensor.Value) {
		dt := movementTypes[r.IntN(len(movementTypes))]
		shape := randShape(r, 1+r.IntN(4), 3)
		axis := axisIn(r, len(shape))
		k := axis
		if k < 0 {
			k += len(shape)
		}
		var in []tensor.Value
		for range 1 + r.IntN(4) {
			s := append([]int{}, shape...)
			if k < len(s) {
				s[k] = r.IntN(4)
			}
			in = append(in, randTensor(r, dt, s, -9, 9, true))
		}
		return &ops.Node{OpType: "Concat", Version: pickVersion(r, "Concat"), Attrs: map[string]ops.Attribute{"axis": attrInt(axis)}}, in
	},
	"Split": func(r *rand.Rand) (*ops.Node, []tensor.Value) {
		shape := randShape(r, 1+r.IntN(3), 6)
		x := randTensor(r, movementTypes[r.IntN(len(movementTypes))], shape, -9, 9, true)
		axis := axisIn(r, len(shape))
		k := (axis + len(shape)) % max(len(shape), 1)
		n := &ops.Node{OpType: "Split", Version: pickVersion(r, "Split"), NumOutputs: 1 + r.IntN(3), Attrs: map[string]ops.Attribute{"axis": attrInt(axis)}}
		switch r.IntN(3) {
		case 0: // equal parts, or version 18's rule
			if n.Version >= 18 && r.IntN(2) == 0 {
				n.Attrs["num_outputs"] = attrInt(n.NumOutputs)
			}
			return n, []tensor.Value{x}
		}
		// explicit sizes adding up to the dim
		sizes := make([]int, n.NumOutputs)
		left := shape[k]
		for i := range sizes[:len(sizes)-1] {
			sizes[i] = r.IntN(left + 1)
			left -= sizes[i]
		}
		sizes[len(sizes)-1] = left
		if n.Version < 13 {
			n.Attrs["split"] = attrInts(sizes...)
			return n, []tensor.Value{x}
		}
		return n, []tensor.Value{x, ints64(sizes...)}
	},
	"Slice": func(r *rand.Rand) (*ops.Node, []tensor.Value) {
		shape := randShape(r, 1+r.IntN(4), 5)
		x := randTensor(r, movementTypes[r.IntN(len(movementTypes))], shape, -9, 9, true)
		n := &ops.Node{OpType: "Slice", Version: pickVersion(r, "Slice"), Attrs: map[string]ops.Attribute{}}
		var starts, ends, axes, steps []int
		for _, k := range r.Perm(len(shape))[:1+r.IntN(len(shape))] {
			d := shape[k]
			axes = append(axes, k-len(shape)*r.IntN(2))
			starts = append(starts, r.IntN(2*d+5)-d-2)
			ends = append(ends, r.IntN(2*d+5)-d-2)
			step := 1 + r.IntN(3)
			if r.IntN(2) == 0 {
				step = -step
			}
			if n.Version < 10 {
				step = 1
			}
			steps = append(steps, step)
			if r.IntN(10) == 0 {
				ends[len(ends)-1] = math.MaxInt >> 1 * (1 - 2*r.IntN(2))
			}
		}
		if n.Version < 10 {
			n.Attrs["starts"], n.Attrs["ends"], n.Attrs["axes"] = attrInts(starts...), attrInts(ends...), attrInts(axes...)
			return n, []tensor.Value{x}
		}
		in := []tensor.Value{x, ints64(starts...), ints64(ends...), ints64(axes...), ints64(steps...)}
		if r.IntN(4) == 0 {
			in = in[:3]
		}
		return n, in
	},
	"Expand": func(r *rand.Rand) (*ops.Node, []tensor.Value) {
		shape := randShape(r, r.IntN(4), 3)
		for k := range shape {
			if r.IntN(2) == 0 {
				shape[k] = 1
			}
		}
		x := randTensor(r, movementTypes[r.IntN(len(movementTypes))], shape, -9, 9, true)
		target := make([]int, r.IntN(2))
		for i := range target {
			target[i] = 1 + r.IntN(3)
		}
		for _, d := range shape {
			switch {
			case d == 1:
				target = append(target, r.IntN(4))
			case r.IntN(2) == 0:
				target = append(target, 1)
			default:
				target = append(target, d)
			}
		}
		return &ops.Node{OpType: "Expand", Version: pickVersion(r, "Expand")}, []tensor.Value{x, ints64(target...)}
	},
	"Tile": func(r *rand.Rand) (*ops.Node, []tensor.Value) {
		x := randTensor(r, movementTypes[r.IntN(len(movementTypes))], randShape(r, r.IntN(4), 3), -9, 9, true)
		n := &ops.Node{OpType: "Tile", Version: pickVersion(r, "Tile")}
		if n.Version < 6 {
			return n, []tensor.Value{x, tensor.Scalar(int64(r.IntN(3))), tensor.Scalar(int64(axisIn(r, x.Rank())))}
		}
		repeats := make([]int, x.Rank())
		for i := range repeats {
			repeats[i] = r.IntN(4)
		}
		return n, []tensor.Value{x, ints64(repeats...)}
	},
	"DepthToSpace": func(r *rand.Rand) (*ops.Node, []tensor.Value) {
		b := 1 + r.IntN(3)
		x := randTensor(r, movementTypes[r.IntN(len(movementTypes))], []int{1 + r.IntN(2), b * b * (1 + r.IntN(2)), r.IntN(4), r.IntN(4)}, -9, 9, true)
		n := &ops.Node{OpType: "DepthToSpace", Version: pickVersion(r, "DepthToSpace"), Attrs: map[string]ops.Attribute{"blocksize": attrInt(b)}}
		if n.Version >= 11 {
			n.Attrs["mode"] = attrStr([]string{"DCR", "CRD"}[r.IntN(2)])
		}
		return n, []tensor.Value{x}
	},
	"SpaceToDepth": func(r *rand.Rand) (*ops.Node, []tensor.Value) {
		b := 1 + r.IntN(3)
		x := randTensor(r, movementTypes[r.IntN(len(movementTypes))], []int{1 + r.IntN(2), 1 + r.IntN(3), b * r.IntN(3), b * r.IntN(3)}, -9, 9, true)
		return &ops.Node{OpType: "SpaceToDepth", Version: pickVersion(r, "SpaceToDepth"), Attrs: map[string]ops.Attribute{"blocksize": attrInt(b)}}, []tensor.Value{x}
	},
	"Pad": func(r *rand.Rand) (*ops.Node, []tensor.Value) {
		dt := movementTypes[r.IntN(len(movementTypes))]
		x := randTensor(r, dt, randShape(r, r.IntN(4), 4), -9, 9, true)
		n := &ops.Node{OpType: "Pad", Version: pickVersion(r, "Pad"), Attrs: map[string]ops.Attribute{}}
		mode := []string{"constant", "edge", "reflect", "wrap"}[r.IntN(4)]
		n.Attrs["mode"] = attrStr(mode)
		pads := make([]int, 2*x.Rank())
		for i := range pads {
			pads[i] = r.IntN(7) - 2
		}
		switch {
		case n.Version < 11:
			name := "pads"
			if n.Version == 1 {
				name = "paddings"
			}
			n.Attrs[name] = attrInts(pads...)
			n.Attrs["value"] = ops.Attribute{Type: ops.AttrFloat, Float: 1.5}
			return n, []tensor.Value{x}
		case n.Version < 18 || r.IntN(2) == 0:
			return n, []tensor.Value{x, ints64(pads...), randTensor(r, dt, nil, -9, 9, false)}
		}
		// with axes: pads for a subset of the axes
		if x.Rank() == 0 {
			return n, []tensor.Value{x, ints64()}
		}
		axes := r.Perm(x.Rank())[:1+r.IntN(x.Rank())]
		sub := make([]int, 2*len(axes))
		for i := range sub {
			sub[i] = r.IntN(7) - 2
		}
		return n, []tensor.Value{x, ints64(sub...), nil, ints64(axes...)}
	},
	"CenterCropPad": func(r *rand.Rand) (*ops.Node, []tensor.Value) {
		x := randTensor(r, movementTypes[r.IntN(len(movementTypes))], randShape(r, 1+r.IntN(3), 5), -9, 9, true)
		n := &ops.Node{OpType: "CenterCropPad", Version: 18, Attrs: map[string]ops.Attribute{}}
		axes := r.Perm(x.Rank())[:1+r.IntN(x.Rank())]
		sizes := make([]int, len(axes))
		for i := range sizes {
			sizes[i] = r.IntN(7)
		}
		if r.IntN(3) > 0 {
			n.Attrs["axes"] = attrInts(axes...)
		} else {
			sizes = make([]int, x.Rank())
			for i := range sizes {
				sizes[i] = r.IntN(7)
			}
		}
		return n, []tensor.Value{x, ints64(sizes...)}
	},
	"MaxPool": func(r *rand.Rand) (*ops.Node, []tensor.Value) {
		n, x := randMaxPool(r)
		return n, []tensor.Value{x}
	},
	"MaxUnpool": func(r *rand.Rand) (*ops.Node, []tensor.Value) {
		// The indices of a MaxPool without padding or dilation, whose
		// geometry MaxUnpool inverts.
		for {
			pool, x := randMaxPool(r)
			pool.Version, pool.NumOutputs = 22, 2
			delete(pool.Attrs, "dilations")
			delete(pool.Attrs, "ceil_mode")
			delete(pool.Attrs, "storage_order")
			delete(pool.Attrs, "auto_pad")
			delete(pool.Attrs, "pads")
			s, _ := ops.Lookup("", "MaxPool", 22)
			if x.DataType() == tensor.Int8 || x.DataType() == tensor.Uint8 {
				continue
			}
			out, err := s.Run(&ops.Options{}, pool, []tensor.Value{x})
			if err != nil {
				continue
			}
			n := &ops.Node{OpType: "MaxUnpool", Version: pickVersion(r, "MaxUnpool"), Attrs: pool.Attrs}
			in := []tensor.Value{out[0], out[1]}
			if r.IntN(3) == 0 {
				dims := append([]int{}, x.Shape()...)
				for k := range dims {
					dims[k] += r.IntN(2)
				}
				in = append(in, ints64(dims...))
			}
			return n, in
		}
	},
	"Resize": func(r *rand.Rand) (*ops.Node, []tensor.Value) {
		n, x, scales, sizes := randResize(r, pickVersion(r, "Resize"))
		switch {
		case n.Version == 10:
			return n, []tensor.Value{x, scales}
		case sizes != nil:
			return n, []tensor.Value{x, nil, tensor.MustNew(tensor.Float, 0), sizes}
		case n.Version == 11:
			return n, []tensor.Value{x, tensor.MustNew(tensor.Float, 0), scales}
		}
		if c := n.Attrs["coordinate_transformation_mode"]; c.String == "tf_crop_and_resize" {
			roi := make([]float32, 2*x.Rank())
			for k := range x.Rank() {
				roi[k], roi[x.Rank()+k] = float32(r.Float64()*0.6-0.1), float32(0.5+r.Float64()*0.6)
			}
			return n, []tensor.Value{x, tensor.MustFromSlice(roi, len(roi)), scales}
		}
		return n, []tensor.Value{x, nil, scales}
	},
	"Upsample": func(r *rand.Rand) (*ops.Node, []tensor.Value) {
		x := randTensor(r, []tensor.DataType{tensor.Float, tensor.Double, tensor.Uint8, tensor.Int32}[r.IntN(4)], randShape(r, 1+r.IntN(3), 3), -9, 9, false)
		scales := make([]float32, x.Rank())
		for i := range scales {
			scales[i] = []float32{1, 2, 3, 1.5, 0.5}[r.IntN(5)]
		}
		n := &ops.Node{OpType: "Upsample", Version: []int{7, 9}[r.IntN(2)], Attrs: map[string]ops.Attribute{"mode": attrStr([]string{"nearest", "linear"}[r.IntN(2)])}}
		if n.Version == 7 {
			n.Attrs["scales"] = ops.Attribute{Type: ops.AttrFloats, Floats: scales}
			return n, []tensor.Value{x}
		}
		return n, []tensor.Value{x, tensor.MustFromSlice(scales, len(scales))}
	},
}

func randMaxPool(r *rand.Rand) (*ops.Node, *tensor.Tensor) {
	spatial := 1 + r.IntN(3)
	shape := []int{1 + r.IntN(2), 1 + r.IntN(2)}
	var kernel, strides, dilations, pads []int
	for range spatial {
		shape = append(shape, 1+r.IntN(5))
		kernel = append(kernel, 1+r.IntN(3))
		strides = append(strides, 1+r.IntN(3))
		dilations = append(dilations, 1+r.IntN(2))
	}
	for i := range 2 * spatial {
		pads = append(pads, r.IntN(kernel[i%spatial]+1))
	}
	dt := []tensor.DataType{tensor.Float, tensor.Double, tensor.Float16, tensor.BFloat16, tensor.Int8, tensor.Uint8}[r.IntN(6)]
	x := randTensor(r, dt, shape, -20, 20, true)
	if r.IntN(3) == 0 { // ties
		x = randTensor(r, dt, shape, 0, 2, false)
	}
	n := &ops.Node{OpType: "MaxPool", Version: pickVersion(r, "MaxPool"), NumOutputs: 1 + r.IntN(2), Attrs: map[string]ops.Attribute{
		"kernel_shape": attrInts(kernel...), "strides": attrInts(strides...),
	}}
	if r.IntN(3) == 0 {
		n.Attrs["auto_pad"] = attrStr([]string{"SAME_UPPER", "SAME_LOWER", "VALID"}[r.IntN(3)])
	} else {
		n.Attrs["pads"] = attrInts(pads...)
	}
	if n.Version >= 10 {
		n.Attrs["dilations"] = attrInts(dilations...)
		n.Attrs["ceil_mode"] = attrInt(r.IntN(2))
	}
	if n.Version >= 8 {
		n.Attrs["storage_order"] = attrInt(r.IntN(2))
	}
	return n, x
}

// randResize draws a Resize node of version v and its input, with its
// scales and, when it chose them, sizes (nil otherwise).
func randResize(r *rand.Rand, v int) (n *ops.Node, x, scales, sizes *tensor.Tensor) {
	dt := []tensor.DataType{tensor.Float, tensor.Double, tensor.Float16, tensor.BFloat16, tensor.Uint8, tensor.Int32, tensor.String}[r.IntN(7)]
	x = randTensor(r, dt, randShape(r, 1+r.IntN(3), 4), -50, 50, false)
	mode := []string{"nearest", "linear", "cubic"}[r.IntN(3)]
	if v == 10 && mode == "cubic" {
		mode = "linear"
	}
	n = &ops.Node{OpType: "Resize", Version: v, Attrs: map[string]ops.Attribute{"mode": attrStr(mode)}}
	s := make([]float32, x.Rank())
	for i := range s {
		s[i] = []float32{0.5, 2, 3, 0.6, 1.7, 1, 0.37, 2.5, 0.8}[r.IntN(9)]
	}
	scales = tensor.MustFromSlice(s, len(s))
	if v == 10 {
		return n, x, scales, nil
	}
	coords := []string{"half_pixel", "pytorch_half_pixel", "align_corners", "asymmetric", "tf_crop_and_resize"}
	if v >= 19 {
		coords = append(coords, "half_pixel_symmetric")
	}
	if v == 11 {
		coords = append(coords, "tf_half_pixel_for_nn")
	}
	n.Attrs["coordinate_transformation_mode"] = attrStr(coords[r.IntN(len(coords))])
	n.Attrs["nearest_mode"] = attrStr([]string{"round_prefer_floor", "round_prefer_ceil", "floor", "ceil"}[r.IntN(4)])
	n.Attrs["cubic_coeff_a"] = ops.Attribute{Type: ops.AttrFloat, Float: []float32{-0.75, -0.5}[r.IntN(2)]}
	n.Attrs["exclude_outside"] = attrInt(r.IntN(2))
	n.Attrs["extrapolation_value"] = ops.Attribute{Type: ops.AttrFloat, Float: 7}
	if v >= 18 && mode != "nearest" {
		n.Attrs["antialias"] = attrInt(r.IntN(2))
	}
	if r.IntN(2) == 0 && n.Attrs["coordinate_transformation_mode"].String != "tf_crop_and_resize" {
		z := make([]int, x.Rank())
		for i := range z {
			z[i] = 1 + r.IntN(7)
		}
		if v >= 18 {
			n.Attrs["keep_aspect_ratio_policy"] = attrStr([]string{"stretch", "not_larger", "not_smaller"}[r.IntN(3)])
		}
		return n, x, scales, ints64(z...)
	}
	return n, x, scales, nil
}

// compareEngines runs n on in through both engines under profile p; it
// reports whether the run produced outputs, and fails the test when the
// engines disagree.
func compareEngines(t *testing.T, p ops.Profile, n *ops.Node, in []tensor.Value) bool {
	t.Helper()
	s, err := ops.Lookup(n.Domain, n.OpType, max(n.Version, 1))
	if err != nil {
		s, err = ops.Lookup(n.Domain, n.OpType, 25)
		if err != nil {
			t.Fatal(err)
		}
	}
	n.Version = s.Since
	if n.NumOutputs == 0 {
		n.NumOutputs = 1
	}
	ref, _ := reference.Kernel(n.Domain, n.OpType, s.Since)
	opt := &ops.Options{Profile: p, MaxTensorBytes: 1 << 22}
	fastOut, fastErr := s.Run(opt, n, in)
	refOut, refErr := ref(opt, n, in)
	desc := fmt.Sprintf("%s-%d under %v, attrs %v, inputs %v", n.OpType, n.Version, p, n.Attrs, describeAll(in))
	if fastErr != nil || refErr != nil {
		var ef, er *ops.Error
		if !errors.As(fastErr, &ef) || !errors.As(refErr, &er) || ef.Op != er.Op || ef.Version != er.Version || ef.Rule != er.Rule {
			t.Fatalf("%s:\n fast      %v\n reference %v", desc, fastErr, refErr)
		}
		return false
	}
	if err := reference.Agree(n, in, fastOut, refOut); err != nil {
		t.Fatalf("%s: %v\n fast      %v\n reference %v", desc, err, fastOut, refOut)
	}
	return true
}

// runReference runs n on in through the reference engine alone.
func runReference(n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	ref, _ := reference.Kernel("", n.OpType, n.Version)
	return ref(&ops.Options{}, n, in)
}

func TestEnginesAgreeOnRandomValidNodes(t *testing.T) {
	iterations := 300
	if testing.Short() {
		iterations = 60
	}
	for _, s := range ops.Schemas() {
		if _, ok := generators[s.Name]; !ok {
			// Other operators have tests of their own through both
			// engines; a generator here would add to them.
			t.Logf("no generator of random %s nodes", s.Name)
		}
	}
	for name, gen := range generators {
		t.Run(name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(11, uint64(len(name))))
			ran := 0
			for range iterations {
				n, in := gen(r)
				for _, p := range []ops.Profile{ops.ProfileONNX, ops.ProfileSONNX} {
					m := *n
					if compareEngines(t, p, &m, in) {
						ran++
					}
				}
			}
			// The generators draw mostly valid nodes: most runs must
			// reach the kernels, or the comparison proves little.
			t.Logf("%d of %d runs produced outputs", ran, 2*iterations)
			if ran < iterations/4 {
				t.Errorf("only %d of %d runs produced outputs", ran, 2*iterations)
			}
		})
	}
}
