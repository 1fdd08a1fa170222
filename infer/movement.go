package infer

import (
	"github.com/onnxshape/onnxshape/graph"
	"math"

	"github.com/onnxshape/onnxshape/tensor"
)

// Movement operators: their output shape follows from the input shapes and
// from small integer inputs (shapes, axes, pads, repeats), which inference
// reads as dimensions, symbolic ones included, so that a Reshape to
// Concat(Shape(x)[0], -1) has shape [N, C*H*W].

func init() {
	register(shapeRule, "Shape")
	register(sizeRule, "Size")
	register(reshapeRule, "Reshape")
	register(transposeRule, "Transpose")
	register(concatRule, "Concat")
	register(splitRule, "Split")
	register(sliceRule, "Slice")
	register(squeezeRule, "Squeeze")
	register(unsqueezeRule, "Unsqueeze")
	register(flattenRule, "Flatten")
	register(expandRule, "Expand")
	register(tileRule, "Tile")
	register(padRule, "Pad")
	register(depthToSpaceRule, "DepthToSpace")
	register(spaceToDepthRule, "SpaceToDepth")
	register(centerCropPadRule, "CenterCropPad")
	register(gatherRule, "Gather")
	register(gatherElementsRule, "GatherElements")
	register(gatherNDRule, "GatherND")
	register(constantRule, "Constant")
	register(constantOfShapeRule, "ConstantOfShape")
	register(rangeRule, "Range")
	register(oneHotRule, "OneHot")
	register(eyeLikeRule, "EyeLike")
}

// shapeRule: a 1-D int64 tensor holding the dimensions start:end (the
// bounds from version 15), each known as a dimension.
func shapeRule(c *call, in []*Value) ([]*Value, error) {
	x := input(in, 0)
	if x == nil || !x.Ranked {
		return []*Value{ranked(tensor.Int64, []graph.Dim{c.fresh()})}, nil
	}
	r := int64(len(x.Shape))
	clamp := func(i int64) int64 {
		if i < 0 {
			i += r
		}
		return min(max(i, 0), r)
	}
	start, end := clamp(c.int("start", 0)), clamp(c.int("end", r))
	dims := []graph.Dim{}
	if start < end {
		dims = append(dims, x.Shape[start:end]...)
	}
	return []*Value{{Type: tensor.Int64, Ranked: true, Shape: []graph.Dim{graph.Const(int64(len(dims)))}, Elems: dims}}, nil
}

func sizeRule(c *call, in []*Value) ([]*Value, error) {
	out := ranked(tensor.Int64, []graph.Dim{})
	if n, ok := input(in, 0).NumElements(); ok {
		out.Elems = []graph.Dim{n}
	}
	return []*Value{out}, nil
}

// shapeInput reads a 1-D integer input (a shape, axes, pads) as
// dimensions; n is its length when only that is known (-1 otherwise).
func shapeInput(v *Value) (elems []graph.Dim, n int) {
	if v == nil {
		return nil, -1
	}
	if v.Elems != nil {
		return v.Elems, len(v.Elems)
	}
	if v.Rank() == 1 {
		if k, ok := v.Shape[0].Value(); ok && k <= maxElems {
			return nil, int(k)
		}
	}
	return nil, -1
}

// intsInput reads a 1-D integer input whose elements are all numbers.
func intsInput(v *Value) ([]int64, bool) { return knownInts(v) }

// reshapeRule: the target shape (attribute "shape" before version 5, the
// second input after) with 0 copying the input's dimension (unless
// allowzero, version 14) and -1 the quotient of the element counts.
func reshapeRule(c *call, in []*Value) ([]*Value, error) {
	x := input(in, 0)
	dt := typeOf(in, 0)
	var target []graph.Dim
	n := -1
	if c.version() < 5 {
		s, ok := c.ints("shape")
		if !ok {
			return nil, c.errorf("shape", "the shape attribute is missing")
		}
		for _, v := range s {
			target = append(target, graph.Const(v))
		}
		n = len(target)
	} else {
		target, n = shapeInput(input(in, 1))
	}
	if target == nil {
		if n < 0 {
			return []*Value{Unknown(dt)}, nil
		}
		return []*Value{ranked(dt, c.freshShape(n))}, nil
	}
	allowZero := c.int("allowzero", 0) == 1
	out := make([]graph.Dim, len(target))
	infer := -1
	for i, d := range target {
		v, known := d.Value()
		switch {
		case known && v == -1:
			if infer >= 0 {
				return nil, c.errorf("shape", "more than one -1 in the shape")
			}
			infer = i
		case known && v == 0 && !allowZero:
			if x.Rank() < 0 {
				out[i] = c.fresh()
			} else if i >= x.Rank() {
				return nil, c.errorf("shape", "shape[%d] is 0 but the input has rank %d", i, x.Rank())
			} else {
				out[i] = x.Shape[i]
			}
		case known && v < -1:
			return nil, c.errorf("shape", "shape[%d] is %d", i, v)
		default:
			out[i] = d
		}
	}
	total, totalKnown := x.NumElements()
	if infer >= 0 {
		ok := totalKnown
		if !ok {
			out[infer] = c.fresh()
		} else {
			rest := graph.Const(1)
			for i, d := range out {
				if i != infer {
					rest = rest.Mul(d)
				}
			}
			q, exact := total.DivExact(rest)
			switch {
			case exact:
				out[infer] = q
			case total.IsKnown() && rest.IsKnown():
				t, _ := total.Value()
				r, _ := rest.Value()
				if r == 0 || t%r != 0 {
					return nil, c.errorf("shape", "%d elements do not fill shape %v", t, describeDims(out, infer))
				}
				out[infer] = graph.Const(t / r)
			default:
				out[infer] = total.FloorDiv(rest)
			}
		}
	}
	if av, ok := total.Value(); ok && totalKnown {
		b := graph.Const(1)
		for _, d := range out {
			b = b.Mul(d)
		}
		if bv, ok := b.Value(); ok && av != bv {
			return nil, c.errorf("shape", "%d elements cannot take shape %s (%d elements)", av, describeDims(out, -1), bv)
		}
	}
	res := ranked(dt, out)
	if x != nil && x.Elems != nil && len(out) <= 1 {
		res.Elems = x.Elems
	}
	return []*Value{res}, nil
}

func describeDims(dims []graph.Dim, hole int) string {
	s := "["
	for i, d := range dims {
		if i > 0 {
			s += ","
		}
		if i == hole {
			s += "-1"
		} else {
			s += d.String()
		}
	}
	return s + "]"
}

func transposeRule(c *call, in []*Value) ([]*Value, error) {
	x := input(in, 0)
	if x.Rank() < 0 {
		return []*Value{same(x)}, nil
	}
	r := x.Rank()
	perm, ok := c.ints("perm")
	if !ok {
		perm = make([]int64, r)
		for i := range perm {
			perm[i] = int64(r - 1 - i)
		}
	}
	if len(perm) != r {
		return nil, c.errorf("perm", "perm has %d entries for rank %d", len(perm), r)
	}
	axes, err := c.normAxes(perm, r)
	if err != nil {
		return nil, err
	}
	out := make([]graph.Dim, r)
	for i, a := range axes {
		out[i] = x.Shape[a]
	}
	return []*Value{ranked(x.Type, out)}, nil
}

// concatRule: the inputs' shapes, summed along axis; known 1-D contents are
// concatenated (Concat of shape pieces).
func concatRule(c *call, in []*Value) ([]*Value, error) {
	dt := typeOf(in, 0)
	rank := -1
	for _, v := range in {
		if v.Rank() >= 0 {
			if rank >= 0 && v.Rank() != rank {
				return nil, c.errorf("rank", "inputs of ranks %d and %d", rank, v.Rank())
			}
			rank = v.Rank()
		}
	}
	if rank < 0 {
		return []*Value{Unknown(dt)}, nil
	}
	axis, err := c.normAxis(c.int("axis", 1), rank)
	if err != nil {
		return nil, err
	}
	out := make([]graph.Dim, rank)
	var elems []graph.Dim
	allElems := rank == 1
	sum, sumKnown := graph.Const(0), true
	for i := range out {
		out[i] = graph.Dim{}
		set := false
		for _, v := range in {
			if v.Rank() < 0 {
				continue
			}
			if i == axis {
				continue
			}
			if !set || isFresh(out[i]) {
				out[i], set = v.Shape[i], true
			} else if a, b := out[i], v.Shape[i]; a.IsKnown() && b.IsKnown() && !a.Equal(b) {
				return nil, c.errorf("shape", "inputs differ in dimension %d: %s and %s", i, a, b)
			}
		}
		if !set && i != axis {
			out[i] = c.fresh()
		}
	}
	for _, v := range in {
		if v.Rank() < 0 {
			sumKnown = false
			allElems = false
			continue
		}
		sum = sum.Add(v.Shape[axis])
		if v.Elems == nil {
			allElems = false
		} else {
			elems = append(elems, v.Elems...)
		}
	}
	if sumKnown {
		out[axis] = sum
	} else {
		out[axis] = c.fresh()
	}
	res := ranked(dt, out)
	if allElems {
		res.Elems = elems
	}
	return []*Value{res}, nil
}

// splitRule: the parts along axis, from the split attribute (before 13)
// or input, or equal parts (the last one smaller, from 18 with
// num_outputs).
func splitRule(c *call, in []*Value) ([]*Value, error) {
	x := input(in, 0)
	n := c.node.NumOutputs
	outs := make([]*Value, n)
	if x.Rank() < 0 {
		for i := range outs {
			outs[i] = same(x)
		}
		return outs, nil
	}
	axis, err := c.normAxis(c.int("axis", 0), x.Rank())
	if err != nil {
		return nil, err
	}
	var parts []graph.Dim
	if s, ok := c.ints("split"); ok {
		for _, v := range s {
			parts = append(parts, graph.Const(v))
		}
	} else if sv := input(in, 1); sv != nil {
		elems, _ := shapeInput(sv)
		if elems == nil {
			for i := range outs {
				o := same(x)
				o.Shape[axis] = c.fresh()
				outs[i] = o
			}
			return outs, nil
		}
		parts = elems
	}
	d := x.Shape[axis]
	if parts == nil {
		parts = make([]graph.Dim, n)
		if num := c.int("num_outputs", 0); num > 0 && c.version() >= 18 {
			// Parts of ceil(d/n), the last one what is left.
			size := d.CeilDiv(graph.Const(num))
			for i := range parts {
				parts[i] = size
			}
			parts[n-1] = d.Sub(size.Mul(graph.Const(int64(n - 1))))
		} else {
			for i := range parts {
				parts[i] = d.FloorDiv(graph.Const(int64(n)))
			}
		}
	}
	if len(parts) != n {
		return nil, c.errorf("split", "%d parts for %d outputs", len(parts), n)
	}
	total := graph.Const(0)
	for _, p := range parts {
		total = total.Add(p)
	}
	if tv, ok := total.Value(); ok {
		if dv, ok := d.Value(); ok && tv != dv {
			return nil, c.errorf("split", "parts add up to %d, the dimension is %d", tv, dv)
		}
	}
	for i := range outs {
		o := same(x)
		o.Shape[axis] = parts[i]
		outs[i] = o
	}
	return outs, nil
}

// sliceLength returns the length of d[start:end:step], reading a symbolic
// d as long enough for a constant start (as exporters assume: x[1:] of N
// rows has N-1). A constant end, or a start counted from the end, is
// clamped to d instead (x[:300] of N rows has min(N,300), x[-3:] has
// N-max(0,N-3)): detectors keep at most k boxes of however many they
// found, and taking the size for k would let fold write a constant the
// run contradicts.
func sliceLength(d graph.Dim, start, end, step int64) (graph.Dim, bool) {
	if step == 0 {
		return graph.Dim{}, false
	}
	if n, ok := d.Value(); ok {
		s, e := clampSlice(start, n, step), clampSlice(end, n, step)
		var k int64
		if step > 0 {
			k = max(0, (e-s+step-1)/step)
		} else {
			k = max(0, (s-e-step-1)/(-step))
		}
		return graph.Const(k), true
	}
	const big = math.MaxInt32
	var s, e graph.Dim
	switch {
	case start >= 0 && start < big:
		s = graph.Const(start)
	case start < 0 && start > -big && step > 0:
		s = d.Add(graph.Const(start)).Max(graph.Const(0))
	case start < 0 && start > -big:
		s = d.Add(graph.Const(start))
	case start >= big && step < 0, start >= big:
		s = d
	default:
		s = graph.Const(0)
	}
	switch {
	case end >= big:
		if step < 0 {
			return graph.Dim{}, false
		}
		e = d
	case end <= -big:
		if step > 0 {
			return graph.Const(0), true
		}
		e = graph.Const(-1)
	case end >= 0 && step > 0:
		e = graph.Const(end).Min(d)
	case end >= 0:
		e = graph.Const(end)
	default:
		e = d.Add(graph.Const(end))
	}
	if step < 0 {
		if start >= big || start == -1 {
			s = d.Sub(graph.Const(1))
		}
		return s.Sub(e).Add(graph.Const(-step - 1)).FloorDiv(graph.Const(-step)), true
	}
	return e.Sub(s).Add(graph.Const(step - 1)).FloorDiv(graph.Const(step)), true
}

// clampSlice clamps a slice bound into the dimension as ONNX does.
func clampSlice(i, n, step int64) int64 {
	if i < 0 {
		i += n
	}
	if step > 0 {
		return min(max(i, 0), n)
	}
	return min(max(i, -1), n-1)
}

func sliceRule(c *call, in []*Value) ([]*Value, error) {
	x := input(in, 0)
	if x.Rank() < 0 {
		return []*Value{same(x)}, nil
	}
	r := x.Rank()
	var starts, ends, axes, steps []int64
	var ok bool
	if c.version() < 10 {
		starts, _ = c.ints("starts")
		ends, _ = c.ints("ends")
		axes, _ = c.ints("axes")
	} else {
		var ok1, ok2 bool
		starts, ok1 = intsInput(input(in, 1))
		ends, ok2 = intsInput(input(in, 2))
		if !ok1 || !ok2 {
			// The bounds are unknown: the sliced axes get fresh sizes.
			out := same(x)
			axesKnown := false
			if a := input(in, 3); a != nil {
				if av, okA := intsInput(a); okA {
					if ax, err := c.normAxes(av, r); err == nil {
						for _, k := range ax {
							out.Shape[k] = c.fresh()
						}
						axesKnown = true
					}
				}
			} else if _, n := shapeInput(input(in, 1)); n >= 0 {
				for k := 0; k < n && k < r; k++ {
					out.Shape[k] = c.fresh()
				}
				axesKnown = true
			}
			if !axesKnown {
				out.Shape = c.freshShape(r)
			}
			return []*Value{out}, nil
		}
		if a := input(in, 3); a != nil {
			if axes, ok = intsInput(a); !ok {
				return []*Value{ranked(x.Type, c.freshShape(r))}, nil
			}
		}
		if s := input(in, 4); s != nil {
			if steps, ok = intsInput(s); !ok {
				return []*Value{ranked(x.Type, c.freshShape(r))}, nil
			}
		}
	}
	if len(starts) != len(ends) {
		return nil, c.errorf("starts-ends", "%d starts and %d ends", len(starts), len(ends))
	}
	if axes == nil {
		axes = make([]int64, len(starts))
		for i := range axes {
			axes[i] = int64(i)
		}
	}
	if steps == nil {
		steps = make([]int64, len(starts))
		for i := range steps {
			steps[i] = 1
		}
	}
	if len(axes) != len(starts) || len(steps) != len(starts) {
		return nil, c.errorf("axes", "starts, ends, axes and steps differ in length")
	}
	ax, err := c.normAxes(axes, r)
	if err != nil {
		return nil, err
	}
	out := same(x)
	for i, k := range ax {
		if steps[i] == 0 {
			return nil, c.errorf("steps", "a step is 0")
		}
		n, ok := sliceLength(x.Shape[k], starts[i], ends[i], steps[i])
		if !ok {
			n = c.fresh()
		}
		out.Shape[k] = n
	}
	// Slicing a known vector (a shape) keeps the elements it selects.
	if r == 1 && x.Elems != nil && len(ax) == 1 {
		n := int64(len(x.Elems))
		s, e, step := clampSlice(starts[0], n, steps[0]), clampSlice(ends[0], n, steps[0]), steps[0]
		var elems []graph.Dim
		for i := s; (step > 0 && i < e) || (step < 0 && i > e); i += step {
			elems = append(elems, x.Elems[i])
		}
		if elems == nil {
			elems = []graph.Dim{}
		}
		out.Elems = elems
	}
	return []*Value{out}, nil
}

// axesOf reads the axes of Squeeze and Unsqueeze: an attribute before 13,
// the second input after; ok is false when they are unknown.
func (c *call) axesOf(in []*Value) (axes []int64, given, ok bool) {
	if c.version() < 13 {
		a, given := c.ints("axes")
		return a, given, true
	}
	v := input(in, 1)
	if v == nil {
		return nil, false, true
	}
	a, ok := intsInput(v)
	return a, true, ok
}

func squeezeRule(c *call, in []*Value) ([]*Value, error) {
	x := input(in, 0)
	axes, given, ok := c.axesOf(in)
	if x.Rank() >= 0 && !ok {
		// Axes known by their number only: the rank is known.
		if _, n := shapeInput(input(in, 1)); n >= 0 && n <= x.Rank() {
			return []*Value{ranked(x.Type, c.freshShape(x.Rank()-n))}, nil
		}
	}
	if x.Rank() < 0 || !ok {
		return []*Value{Unknown(x.Type)}, nil
	}
	drop := map[int]bool{}
	if given {
		ax, err := c.normAxes(axes, x.Rank())
		if err != nil {
			return nil, err
		}
		for _, k := range ax {
			if v, known := x.Shape[k].Value(); known && v != 1 {
				return nil, c.errorf("axes", "axis %d has size %d, not 1", k, v)
			}
			drop[k] = true
		}
	} else {
		for k, d := range x.Shape {
			v, known := d.Value()
			if !known {
				return []*Value{Unknown(x.Type)}, nil
			}
			if v == 1 {
				drop[k] = true
			}
		}
	}
	out := ranked(x.Type, []graph.Dim{})
	for k, d := range x.Shape {
		if !drop[k] {
			out.Shape = append(out.Shape, d)
		}
	}
	if len(out.Shape) <= 1 {
		out.Elems = x.Elems
	}
	return []*Value{out}, nil
}

func unsqueezeRule(c *call, in []*Value) ([]*Value, error) {
	x := input(in, 0)
	axes, _, ok := c.axesOf(in)
	if x.Rank() >= 0 && !ok {
		if _, n := shapeInput(input(in, 1)); n >= 0 {
			return []*Value{ranked(x.Type, c.freshShape(x.Rank()+n))}, nil
		}
	}
	if x.Rank() < 0 || !ok {
		return []*Value{Unknown(x.Type)}, nil
	}
	r := x.Rank() + len(axes)
	ax, err := c.normAxes(axes, r)
	if err != nil {
		return nil, err
	}
	inserted := map[int]bool{}
	for _, k := range ax {
		inserted[k] = true
	}
	out := ranked(x.Type, make([]graph.Dim, 0, r))
	j := 0
	for k := 0; k < r; k++ {
		if inserted[k] {
			out.Shape = append(out.Shape, graph.Const(1))
		} else {
			out.Shape = append(out.Shape, x.Shape[j])
			j++
		}
	}
	if r <= 1 {
		out.Elems = x.Elems
	}
	return []*Value{out}, nil
}

func flattenRule(c *call, in []*Value) ([]*Value, error) {
	x := input(in, 0)
	if x.Rank() < 0 {
		return []*Value{ranked(x.Type, c.freshShape(2))}, nil
	}
	axis := c.int("axis", 1)
	if axis < 0 {
		axis += int64(x.Rank())
	}
	if axis < 0 || axis > int64(x.Rank()) {
		return nil, c.errorf("axis", "axis %d is out of range for rank %d", c.int("axis", 1), x.Rank())
	}
	a, b := graph.Const(1), graph.Const(1)
	for k, d := range x.Shape {
		if int64(k) < axis {
			a = a.Mul(d)
		} else {
			b = b.Mul(d)
		}
	}
	return []*Value{ranked(x.Type, []graph.Dim{a, b})}, nil
}

func expandRule(c *call, in []*Value) ([]*Value, error) {
	x := input(in, 0)
	shape, n := shapeInput(input(in, 1))
	if shape == nil {
		if n < 0 || x.Rank() < 0 {
			return []*Value{Unknown(x.Type)}, nil
		}
		// Each output dimension is the input's where that is not 1: the
		// shape's can only be 1 or equal there.
		out := c.freshShape(max(n, x.Rank()))
		off := len(out) - x.Rank()
		for i, d := range x.Shape {
			if v, ok := d.Value(); (ok && v != 1) || off+i < len(out)-n {
				out[off+i] = d
			}
		}
		return []*Value{ranked(x.Type, out)}, nil
	}
	out, err := c.elementwise(x.Type, nil, x, ranked(x.Type, shape))
	if err != nil {
		return nil, err
	}
	if out.Rank() <= 1 && x.Elems != nil && len(x.Elems) == 1 && out.Rank() == 1 {
		if k, ok := out.Shape[0].Value(); ok && k <= maxElems {
			out.Elems = make([]graph.Dim, k)
			for i := range out.Elems {
				out.Elems[i] = x.Elems[0]
			}
		}
	}
	return []*Value{out}, nil
}

func tileRule(c *call, in []*Value) ([]*Value, error) {
	x := input(in, 0)
	reps, n := shapeInput(input(in, 1))
	if x.Rank() < 0 {
		return []*Value{same(x)}, nil
	}
	if c.version() < 6 {
		// Tile-1: tiles and axis inputs.
		return []*Value{ranked(x.Type, c.freshShape(x.Rank()))}, nil
	}
	if reps == nil {
		return []*Value{ranked(x.Type, c.freshShape(x.Rank()))}, nil
	}
	if n != x.Rank() {
		return nil, c.errorf("repeats", "%d repeats for rank %d", n, x.Rank())
	}
	out := same(x)
	for i := range out.Shape {
		out.Shape[i] = out.Shape[i].Mul(reps[i])
	}
	return []*Value{out}, nil
}

// padRule: each dimension grows by its begin and end pads (attribute
// "paddings" in version 1, "pads" in 2, the second input from 11, with
// the axes input from 18).
func padRule(c *call, in []*Value) ([]*Value, error) {
	x := input(in, 0)
	if x.Rank() < 0 {
		return []*Value{same(x)}, nil
	}
	r := x.Rank()
	var pads []graph.Dim
	switch {
	case c.version() < 2:
		p, _ := c.ints("paddings")
		for _, v := range p {
			pads = append(pads, graph.Const(v))
		}
	case c.version() < 11:
		p, _ := c.ints("pads")
		for _, v := range p {
			pads = append(pads, graph.Const(v))
		}
	default:
		pads, _ = shapeInput(input(in, 1))
	}
	if pads == nil {
		return []*Value{ranked(x.Type, c.freshShape(r))}, nil
	}
	axes := make([]int, r)
	for i := range axes {
		axes[i] = i
	}
	if a := input(in, 3); a != nil && c.version() >= 18 {
		av, ok := intsInput(a)
		if !ok {
			return []*Value{ranked(x.Type, c.freshShape(r))}, nil
		}
		var err error
		if axes, err = c.normAxes(av, r); err != nil {
			return nil, err
		}
	}
	if len(pads) != 2*len(axes) {
		return nil, c.errorf("pads", "%d pads for %d axes", len(pads), len(axes))
	}
	out := same(x)
	for i, k := range axes {
		out.Shape[k] = out.Shape[k].Add(pads[i]).Add(pads[i+len(axes)])
		if v, ok := out.Shape[k].Value(); ok && v < 0 {
			return nil, c.errorf("pads", "axis %d would have size %d", k, v)
		}
	}
	return []*Value{out}, nil
}

func depthToSpaceRule(c *call, in []*Value) ([]*Value, error) {
	x := input(in, 0)
	b := graph.Const(c.int("blocksize", 0))
	if x.Rank() != 4 {
		if x.Rank() < 0 {
			return []*Value{same(x)}, nil
		}
		return nil, c.errorf("rank", "the input has rank %d, not 4", x.Rank())
	}
	s := x.Shape
	return []*Value{ranked(x.Type, []graph.Dim{s[0], s[1].FloorDiv(b.Mul(b)), s[2].Mul(b), s[3].Mul(b)})}, nil
}

func spaceToDepthRule(c *call, in []*Value) ([]*Value, error) {
	x := input(in, 0)
	b := graph.Const(c.int("blocksize", 0))
	if x.Rank() != 4 {
		if x.Rank() < 0 {
			return []*Value{same(x)}, nil
		}
		return nil, c.errorf("rank", "the input has rank %d, not 4", x.Rank())
	}
	s := x.Shape
	return []*Value{ranked(x.Type, []graph.Dim{s[0], s[1].Mul(b).Mul(b), s[2].FloorDiv(b), s[3].FloorDiv(b)})}, nil
}

func centerCropPadRule(c *call, in []*Value) ([]*Value, error) {
	x := input(in, 0)
	shape, n := shapeInput(input(in, 1))
	if x.Rank() < 0 {
		return []*Value{same(x)}, nil
	}
	axes := make([]int, 0, x.Rank())
	if a, ok := c.ints("axes"); ok {
		var err error
		if axes, err = c.normAxes(a, x.Rank()); err != nil {
			return nil, err
		}
	} else {
		for i := 0; i < x.Rank(); i++ {
			axes = append(axes, i)
		}
	}
	out := same(x)
	if n >= 0 && n != len(axes) {
		return nil, c.errorf("shape", "%d sizes for %d axes", n, len(axes))
	}
	for i, k := range axes {
		if shape == nil {
			out.Shape[k] = c.fresh()
		} else {
			out.Shape[k] = shape[i]
		}
	}
	return []*Value{out}, nil
}

// gatherRule: data's shape with axis replaced by the indices' shape; a
// known index into a known vector picks its element (Shape(x)[0]).
func gatherRule(c *call, in []*Value) ([]*Value, error) {
	data, idx := input(in, 0), input(in, 1)
	if data.Rank() < 0 || idx.Rank() < 0 {
		return []*Value{Unknown(data.Type)}, nil
	}
	axis, err := c.normAxis(c.int("axis", 0), data.Rank())
	if err != nil {
		return nil, err
	}
	shape := append(append(append([]graph.Dim{}, data.Shape[:axis]...), idx.Shape...), data.Shape[axis+1:]...)
	out := ranked(data.Type, shape)
	if data.Rank() == 1 && data.Elems != nil {
		if ix, ok := knownInts(idx); ok {
			n := int64(len(data.Elems))
			elems := make([]graph.Dim, len(ix))
			for i, k := range ix {
				if k < 0 {
					k += n
				}
				if k < 0 || k >= n {
					return nil, c.errorf("indices", "index %d is out of range for %d elements", ix[i], n)
				}
				elems[i] = data.Elems[k]
			}
			out.Elems = elems
		}
	}
	return []*Value{out}, nil
}

func gatherElementsRule(c *call, in []*Value) ([]*Value, error) {
	return []*Value{withType(input(in, 1), typeOf(in, 0))}, nil
}

func gatherNDRule(c *call, in []*Value) ([]*Value, error) {
	data, idx := input(in, 0), input(in, 1)
	if data.Rank() < 0 || idx.Rank() < 1 {
		return []*Value{Unknown(data.Type)}, nil
	}
	b := int(c.int("batch_dims", 0))
	last, ok := idx.Shape[idx.Rank()-1].Value()
	if !ok {
		return []*Value{Unknown(data.Type)}, nil
	}
	if b+int(last) > data.Rank() {
		return nil, c.errorf("indices", "index tuples of %d for rank %d after %d batch dims", last, data.Rank(), b)
	}
	shape := append(append([]graph.Dim{}, idx.Shape[:idx.Rank()-1]...), data.Shape[b+int(last):]...)
	return []*Value{ranked(data.Type, shape)}, nil
}

// constantRule: the attribute's value, already in memory (the kernel
// serves when folding is on; this rule when it is off).
func constantRule(c *call, in []*Value) ([]*Value, error) {
	for name, a := range c.node.Attrs {
		var t *tensor.Tensor
		var err error
		switch name {
		case "value":
			t = a.Tensor
		case "value_float":
			t = tensor.Scalar(a.Float)
		case "value_int":
			t = tensor.Scalar(a.Int)
		case "value_string":
			t, err = tensor.FromSlice([]string{a.String})
		case "value_floats":
			t, err = tensor.FromSlice(append([]float32{}, a.Floats...), len(a.Floats))
		case "value_ints":
			t, err = tensor.FromSlice(append([]int64{}, a.Ints...), len(a.Ints))
		case "value_strings":
			t, err = tensor.FromSlice(a.Strings, len(a.Strings))
		default:
			continue
		}
		if t == nil || err != nil {
			return nil, c.errorf("value", "attribute %s holds no tensor", name)
		}
		return []*Value{constValue(t)}, nil
	}
	for _, a := range c.np.GetAttribute() {
		if a.GetName() == "sparse_value" && a.GetSparseTensor() != nil {
			sp := a.GetSparseTensor()
			dims := make([]graph.Dim, len(sp.GetDims()))
			for i, d := range sp.GetDims() {
				dims[i] = graph.Const(d)
			}
			return []*Value{ranked(tensor.DataType(sp.GetValues().GetDataType()), dims)}, nil
		}
	}
	return nil, c.errorf("value", "the Constant sets no value")
}

func constantOfShapeRule(c *call, in []*Value) ([]*Value, error) {
	dt := tensor.Float
	var fill *tensor.Tensor
	if t, err := c.node.TensorAttr("value"); err == nil && t != nil {
		dt, fill = t.DataType(), t
	}
	shape, n := shapeInput(input(in, 0))
	if shape == nil {
		if n < 0 {
			return []*Value{Unknown(dt)}, nil
		}
		return []*Value{ranked(dt, c.freshShape(n))}, nil
	}
	out := ranked(dt, shape)
	if len(shape) <= 1 {
		length := int64(1)
		if len(shape) == 1 {
			k, ok := shape[0].Value()
			if !ok || k > maxElems {
				return []*Value{out}, nil
			}
			length = k
		}
		fv := graph.Const(0)
		if fill != nil {
			e, ok := elemsOf(fill)
			if !ok || len(e) != 1 {
				return []*Value{out}, nil
			}
			fv = e[0]
		}
		out.Elems = make([]graph.Dim, length)
		for i := range out.Elems {
			out.Elems[i] = fv
		}
	}
	return []*Value{out}, nil
}

// rangeRule: max(ceil((limit-start)/delta), 0) elements.
func rangeRule(c *call, in []*Value) ([]*Value, error) {
	dt := typeOf(in, 0)
	s, l, d := input(in, 0), input(in, 1), input(in, 2)
	get := func(v *Value) (graph.Dim, bool) {
		if v == nil || len(v.Elems) != 1 {
			return graph.Dim{}, false
		}
		return v.Elems[0], true
	}
	start, ok1 := get(s)
	limit, ok2 := get(l)
	delta, ok3 := get(d)
	if !ok1 || !ok2 || !ok3 {
		return []*Value{ranked(dt, []graph.Dim{c.fresh()})}, nil
	}
	dv, known := delta.Value()
	if known && dv == 0 {
		return nil, c.errorf("delta", "delta is 0")
	}
	if !known {
		return []*Value{ranked(dt, []graph.Dim{c.fresh()})}, nil
	}
	n := limit.Sub(start).CeilDiv(graph.Const(dv))
	if sv, ok := start.Value(); ok {
		if lv, ok := limit.Value(); ok {
			n = graph.Const(max(0, -floorDiv(-(lv-sv), dv)))
		}
	}
	out := ranked(dt, []graph.Dim{n})
	if k, ok := n.Value(); ok && k <= maxElems {
		out.Elems = make([]graph.Dim, k)
		for i := range out.Elems {
			out.Elems[i] = start.Add(graph.Const(int64(i) * dv))
		}
	}
	return []*Value{out}, nil
}

func oneHotRule(c *call, in []*Value) ([]*Value, error) {
	idx, depth := input(in, 0), input(in, 1)
	dt := typeOf(in, 2)
	if idx.Rank() < 0 {
		return []*Value{Unknown(dt)}, nil
	}
	r := idx.Rank() + 1
	axis, err := c.normAxis(c.int("axis", -1), r)
	if err != nil {
		return nil, err
	}
	dd := c.fresh()
	if depth != nil && len(depth.Elems) == 1 {
		dd = depth.Elems[0]
	}
	shape := append(append(append([]graph.Dim{}, idx.Shape[:axis]...), dd), idx.Shape[axis:]...)
	return []*Value{ranked(dt, shape)}, nil
}

func eyeLikeRule(c *call, in []*Value) ([]*Value, error) {
	x := input(in, 0)
	dt := x.Type
	if v := c.int("dtype", -1); v >= 0 {
		dt = tensor.DataType(v)
	}
	return []*Value{withType(x, dt)}, nil
}
