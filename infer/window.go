package infer

import (
	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/tensor"
)

// Window operators (pooling and convolution): [N, C, spatial...] to
// [N, C', spatial'...], each spatial size from one formula shared by all
// of them: floor((d + pads - dilated kernel) / stride) + 1 (ceil with
// ceil_mode), ceil(d / stride) for SAME padding.

func init() {
	register(poolRule(true), "MaxPool")
	register(poolRule(false), "AveragePool", "LpPool")
	register(globalPoolRule, "GlobalAveragePool", "GlobalMaxPool", "GlobalLpPool")
	register(convRule, "Conv", "ConvInteger", "QLinearConv", "DeformConv")
	register(convTransposeRule, "ConvTranspose")
	register(maxUnpoolRule, "MaxUnpool")
	register(roiRule, "MaxRoiPool", "RoiAlign")
}

// window holds the attributes that place a kernel.
type window struct {
	kernel, strides, dilations, pads []int64
	autoPad                          string
	ceil                             bool
}

func (c *call) window(spatial int, kernel []int64) (window, error) {
	w := window{kernel: kernel, autoPad: c.str("auto_pad", "NOTSET"), ceil: c.int("ceil_mode", 0) == 1}
	if k, ok := c.ints("kernel_shape"); ok {
		w.kernel = k
	}
	if len(w.kernel) != spatial {
		return w, c.errorf("kernel_shape", "%d kernel sizes for %d spatial axes", len(w.kernel), spatial)
	}
	fill := func(name string, n int, def int64) ([]int64, error) {
		v, ok := c.ints(name)
		if !ok || len(v) == 0 {
			v = make([]int64, n)
			for i := range v {
				v[i] = def
			}
		}
		if len(v) != n {
			return nil, c.errorf(name, "%s has %d entries, expected %d", name, len(v), n)
		}
		return v, nil
	}
	var err error
	if w.strides, err = fill("strides", spatial, 1); err != nil {
		return w, err
	}
	if w.dilations, err = fill("dilations", spatial, 1); err != nil {
		return w, err
	}
	if w.pads, err = fill("pads", 2*spatial, 0); err != nil {
		return w, err
	}
	for i, s := range w.strides {
		if s <= 0 || w.dilations[i] <= 0 || w.kernel[i] <= 0 {
			return w, c.errorf("strides", "strides, dilations and kernel sizes must be positive")
		}
	}
	return w, nil
}

// outSize is the number of windows along spatial axis i of size d.
func (w window) outSize(i int, d graph.Dim) graph.Dim {
	s := graph.Const(w.strides[i])
	dk := (w.kernel[i]-1)*w.dilations[i] + 1
	switch w.autoPad {
	case "SAME_UPPER", "SAME_LOWER":
		return d.CeilDiv(s)
	}
	// VALID pads nothing and then counts windows as explicit pads do,
	// ceil_mode included (as the kernels' window.Geometry and onnxruntime).
	padBegin, padEnd := w.pads[i], w.pads[i+len(w.kernel)]
	if w.autoPad == "VALID" {
		padBegin, padEnd = 0, 0
		if v, ok := d.Value(); ok && v < dk { // a kernel longer than the input: no window
			return graph.Const(0)
		}
	}
	span := d.Add(graph.Const(padBegin + padEnd - dk))
	if !w.ceil {
		return span.FloorDiv(s).Add(graph.Const(1))
	}
	out := span.CeilDiv(s).Add(graph.Const(1))
	// A last window that would start in the end padding is dropped.
	if o, ok := out.Value(); ok {
		if dv, ok := d.Value(); ok && (o-1)*w.strides[i] >= dv+padBegin {
			return graph.Const(o - 1)
		}
	}
	return out
}

func poolRule(indices bool) rule {
	return func(c *call, in []*Value) ([]*Value, error) {
		x := input(in, 0)
		dt := typeOf(in, 0)
		if x.Rank() < 0 {
			return []*Value{Unknown(dt), Unknown(tensor.Int64)}, nil
		}
		if x.Rank() < 3 {
			return nil, c.errorf("rank", "the input has rank %d, expected at least 3", x.Rank())
		}
		w, err := c.window(x.Rank()-2, nil)
		if err != nil {
			return nil, err
		}
		out := same(x)
		for i := range w.kernel {
			out.Shape[i+2] = w.outSize(i, x.Shape[i+2])
		}
		return []*Value{out, withType(out, tensor.Int64)}, nil
	}
}

func globalPoolRule(c *call, in []*Value) ([]*Value, error) {
	x := input(in, 0)
	out := same(x)
	if x.Rank() >= 2 {
		for i := 2; i < x.Rank(); i++ {
			out.Shape[i] = graph.Const(1)
		}
	}
	return []*Value{out}, nil
}

// convRule: [N, M, spatial'...], M being the weight's first dimension;
// the kernel is the weight's spatial shape unless kernel_shape says.
func convRule(c *call, in []*Value) ([]*Value, error) {
	x, wt := input(in, 0), input(in, 1)
	dt := typeOf(in, 0)
	switch c.node.OpType {
	case "QLinearConv":
		wt = input(in, 3)
		dt = typeOf(in, 7)
	case "ConvInteger":
		dt = tensor.Int32
	}
	if x.Rank() < 0 {
		return []*Value{Unknown(dt)}, nil
	}
	if x.Rank() < 3 {
		return nil, c.errorf("rank", "the input has rank %d, expected at least 3", x.Rank())
	}
	spatial := x.Rank() - 2
	var kernel []int64
	m := c.fresh()
	if wt.Rank() == x.Rank() {
		m = wt.Shape[0]
		for _, d := range wt.Shape[2:] {
			k, ok := d.Value()
			if !ok {
				kernel = nil
				break
			}
			kernel = append(kernel, k)
		}
		if cin, ok := wt.Shape[1].Value(); ok {
			if xc, ok := x.Shape[1].Value(); ok && cin*c.int("group", 1) != xc {
				return nil, c.errorf("channels", "the input has %d channels, the weight takes %d in %d groups", xc, cin, c.int("group", 1))
			}
		}
	}
	if _, ok := c.ints("kernel_shape"); !ok && kernel == nil {
		out := ranked(dt, append([]graph.Dim{x.Shape[0], m}, c.freshShape(spatial)...))
		return []*Value{out}, nil
	}
	w, err := c.window(spatial, kernel)
	if err != nil {
		return nil, err
	}
	out := ranked(dt, []graph.Dim{x.Shape[0], m})
	for i := range spatial {
		out.Shape = append(out.Shape, w.outSize(i, x.Shape[i+2]))
	}
	return []*Value{out}, nil
}

// convTransposeRule: [N, W[1]*group, spatial'...] with each spatial size
// stride*(d-1) + output_padding + dilated kernel - pads, or output_shape.
func convTransposeRule(c *call, in []*Value) ([]*Value, error) {
	x, wt := input(in, 0), input(in, 1)
	dt := typeOf(in, 0)
	if x.Rank() < 3 {
		if x.Rank() < 0 {
			return []*Value{Unknown(dt)}, nil
		}
		return nil, c.errorf("rank", "the input has rank %d, expected at least 3", x.Rank())
	}
	spatial := x.Rank() - 2
	group := c.int("group", 1)
	m := c.fresh()
	var kernel []int64
	if wt.Rank() == x.Rank() {
		m = wt.Shape[1].Mul(graph.Const(group))
		for _, d := range wt.Shape[2:] {
			k, ok := d.Value()
			if !ok {
				kernel = nil
				break
			}
			kernel = append(kernel, k)
		}
	}
	out := ranked(dt, []graph.Dim{x.Shape[0], m})
	if os, ok := c.ints("output_shape"); ok {
		if len(os) == x.Rank() {
			os = os[2:]
		}
		for _, d := range os {
			out.Shape = append(out.Shape, graph.Const(d))
		}
		return []*Value{out}, nil
	}
	if _, ok := c.ints("kernel_shape"); !ok && kernel == nil {
		out.Shape = append(out.Shape, c.freshShape(spatial)...)
		return []*Value{out}, nil
	}
	w, err := c.window(spatial, kernel)
	if err != nil {
		return nil, err
	}
	outPad, ok := c.ints("output_padding")
	if !ok {
		outPad = make([]int64, spatial)
	}
	for i := range spatial {
		d := x.Shape[i+2]
		s := graph.Const(w.strides[i])
		var o graph.Dim
		switch w.autoPad {
		case "SAME_UPPER", "SAME_LOWER":
			o = d.Mul(s)
		default:
			dk := (w.kernel[i]-1)*w.dilations[i] + 1
			o = d.Sub(graph.Const(1)).Mul(s).Add(graph.Const(outPad[i] + dk - w.pads[i] - w.pads[i+spatial]))
		}
		out.Shape = append(out.Shape, o)
	}
	return []*Value{out}, nil
}

func maxUnpoolRule(c *call, in []*Value) ([]*Value, error) {
	x := input(in, 0)
	dt := typeOf(in, 0)
	if shape, n := shapeInput(input(in, 2)); input(in, 2) != nil {
		if shape == nil {
			if n < 0 {
				return []*Value{Unknown(dt)}, nil
			}
			return []*Value{ranked(dt, c.freshShape(n))}, nil
		}
		return []*Value{ranked(dt, shape)}, nil
	}
	if x.Rank() < 3 {
		return []*Value{Unknown(dt)}, nil
	}
	w, err := c.window(x.Rank()-2, nil)
	if err != nil {
		return nil, err
	}
	out := same(x)
	for i := range w.kernel {
		out.Shape[i+2] = x.Shape[i+2].Sub(graph.Const(1)).Mul(graph.Const(w.strides[i])).Add(graph.Const(w.kernel[i] - w.pads[i] - w.pads[i+len(w.kernel)]))
	}
	return []*Value{out}, nil
}

// roiRule: [number of regions, C, output height, output width].
func roiRule(c *call, in []*Value) ([]*Value, error) {
	x, rois := input(in, 0), input(in, 1)
	dt := typeOf(in, 0)
	n := c.fresh()
	if rois.Rank() == 2 {
		n = rois.Shape[0]
	}
	ch := c.fresh()
	if x.Rank() == 4 {
		ch = x.Shape[1]
	}
	var h, w int64 = 1, 1
	if c.node.OpType == "MaxRoiPool" {
		p, ok := c.ints("pooled_shape")
		if !ok || len(p) != 2 {
			return nil, c.errorf("pooled_shape", "pooled_shape must have 2 entries")
		}
		h, w = p[0], p[1]
	} else {
		h, w = c.int("output_height", 1), c.int("output_width", 1)
	}
	return []*Value{ranked(dt, []graph.Dim{n, ch, graph.Const(h), graph.Const(w)})}, nil
}
