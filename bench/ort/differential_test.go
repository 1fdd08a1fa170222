//go:build ort

package main

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"unsafe"

	"github.com/onnxshape/onnxshape/builder"
	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/tensor"
	ort "github.com/yalue/onnxruntime_go"
)

// The differential harness of the elementwise and reduction round: one small model, built with package
// builder, runs in onnxshape (package graph) and in onnxruntime on the same
// inputs, and the outputs are compared by a tolerance the case states.
//
// Two limits of the Go binding shape the harness. It refuses rank-0 values
// (Shape.Validate rejects an empty shape), so scalar inputs become
// initializers and a scalar output is widened to [1] by a Reshape in both
// engines. And it copies an output it allocated itself by element count, not
// byte count, for the types it has no Go type for (float16, bfloat16), so
// those outputs are allocated here, in the shape onnxshape gives.

// diffCase is one model and its inputs.
type diffCase struct {
	name   string
	opset  int
	inputs []diffInput
	// build adds the node (or nodes) under test and returns its outputs.
	build func(b *builder.Builder, in []builder.Value) []builder.Value
	// tol compares floats: |ours-ort| <= abs + rel*|ort|. Zero means exact
	// (NaN equals NaN, +0 equals -0).
	abs, rel float64
	// intAbs lets integer outputs differ by this many steps (a quantized
	// result rounded from a float computed another way); zero: exact.
	intAbs float64
	// known, when set, names the divergence (docs/divergences.md) or bug
	// of onnxshape that explains a disagreement in this case: the case is
	// then counted, not failed, when the engines disagree.
	known string
}

type diffInput struct {
	name string
	t    *tensor.Tensor
}

// outcome of one case.
type diffResult struct {
	buildErr        error // the harness's own failure
	oursErr, ortErr error
	mismatch        string
}

func (r diffResult) String() string {
	switch {
	case r.oursErr != nil && r.ortErr != nil:
		return "both refuse"
	case r.oursErr != nil:
		return "onnxshape refuses what onnxruntime runs: " + r.oursErr.Error()
	case r.ortErr != nil:
		return "onnxruntime refuses what onnxshape runs: " + r.ortErr.Error()
	case r.mismatch != "":
		return r.mismatch
	}
	return "same"
}

// agree reports whether both engines ran and gave the same outputs.
func (r diffResult) agree() bool {
	return r.oursErr == nil && r.ortErr == nil && r.mismatch == ""
}

// buildModel encodes c's model; scalars lists the outputs to widen to [1].
func (c *diffCase) buildModel(scalars map[int]bool) ([]byte, []string, error) {
	b := builder.New(c.opset)
	var vals []builder.Value
	for _, in := range c.inputs {
		if in.t.Rank() == 0 {
			vals = append(vals, b.Constant(in.name, in.t))
		} else {
			vals = append(vals, b.Input(in.name, in.t.DataType(), in.t.Shape()...))
		}
	}
	outs := c.build(b, vals)
	var names []string
	for i, o := range outs {
		name := fmt.Sprintf("out%d", i)
		if scalars[i] {
			o = b.Op("Reshape", o, b.Ints64(fmt.Sprintf("widen%d", i), 1))
		}
		b.Output(name, o)
		names = append(names, name)
	}
	data, err := b.Encode()
	return data, names, err
}

// runDiff runs c in both engines and compares.
func runDiff(t *testing.T, c *diffCase) diffResult {
	t.Helper()
	model, names, err := c.buildModel(nil)
	if err != nil {
		return diffResult{buildErr: err}
	}
	ours, oursErr := runOurs(model, c)
	if oursErr == nil {
		scalars := map[int]bool{}
		for i, n := range names {
			if ours[n].Rank() == 0 {
				scalars[i] = true
			}
		}
		if len(scalars) > 0 {
			if model, names, err = c.buildModel(scalars); err != nil {
				t.Fatalf("%s: rebuild: %v", c.name, err)
			}
			if ours, oursErr = runOurs(model, c); oursErr != nil {
				t.Fatalf("%s: widened model: %v", c.name, oursErr)
			}
		}
	}
	var oursList []*tensor.Tensor
	if oursErr == nil {
		for _, n := range names {
			oursList = append(oursList, ours[n])
		}
	}
	theirs, ortErr := runORTModel(model, c, names, oursList)
	r := diffResult{oursErr: oursErr, ortErr: ortErr}
	if r.oursErr != nil || r.ortErr != nil {
		return r
	}
	var notes []string
	for i, n := range names {
		if msg := c.compareOutput(oursList[i], theirs[i]); msg != "" {
			notes = append(notes, n+": "+msg)
		}
	}
	r.mismatch = strings.Join(notes, "; ")
	return r
}

func runOurs(model []byte, c *diffCase) (map[string]*tensor.Tensor, error) {
	m, err := graph.LoadBytes(model, "")
	if err != nil {
		return nil, err
	}
	in := map[string]tensor.Value{}
	for _, x := range c.inputs {
		if x.t.Rank() > 0 {
			in[x.name] = x.t
		}
	}
	out, err := m.Run(context.Background(), in, nil)
	if err != nil {
		return nil, err
	}
	res := map[string]*tensor.Tensor{}
	for k, v := range out.Map() {
		tt, ok := v.(*tensor.Tensor)
		if !ok {
			return nil, fmt.Errorf("output %s is not a tensor", k)
		}
		res[k] = tt
	}
	return res, nil
}

// ortTypeOf maps the element types the harness passes to onnxruntime.
func ortTypeOf(dt tensor.DataType) (ort.TensorElementDataType, bool) {
	switch dt {
	case tensor.Float:
		return ort.TensorElementDataTypeFloat, true
	case tensor.Double:
		return ort.TensorElementDataTypeDouble, true
	case tensor.Float16:
		return ort.TensorElementDataTypeFloat16, true
	case tensor.BFloat16:
		return ort.TensorElementDataTypeBFloat16, true
	case tensor.Int8:
		return ort.TensorElementDataTypeInt8, true
	case tensor.Int16:
		return ort.TensorElementDataTypeInt16, true
	case tensor.Int32:
		return ort.TensorElementDataTypeInt32, true
	case tensor.Int64:
		return ort.TensorElementDataTypeInt64, true
	case tensor.Uint8:
		return ort.TensorElementDataTypeUint8, true
	case tensor.Uint16:
		return ort.TensorElementDataTypeUint16, true
	case tensor.Uint32:
		return ort.TensorElementDataTypeUint32, true
	case tensor.Uint64:
		return ort.TensorElementDataTypeUint64, true
	case tensor.Bool:
		return ort.TensorElementDataTypeBool, true
	case tensor.Float8E4M3FN: // one byte an element on both sides
		return ort.TensorElementDataTypeFloat8E4M3FN, true
	case tensor.Float8E4M3FNUZ:
		return ort.TensorElementDataTypeFloat8E4M3FNUZ, true
	case tensor.Float8E5M2:
		return ort.TensorElementDataTypeFloat8E5M2, true
	case tensor.Float8E5M2FNUZ:
		return ort.TensorElementDataTypeFloat8E5M2FNUZ, true
	}
	return 0, false
}

// rawTensor wraps a copy of t's bytes for onnxruntime; an empty tensor gets
// a byte of padding, since the binding refuses an empty buffer and
// onnxruntime only checks that the buffer is large enough.
func rawTensor(t *tensor.Tensor) (ort.Value, error) {
	et, ok := ortTypeOf(t.DataType())
	if !ok {
		return nil, fmt.Errorf("element type %v not wired into the harness", t.DataType())
	}
	buf := make([]byte, max(t.ByteLen(), 8))
	copy(buf, t.Bytes())
	return ort.NewCustomDataTensor(ortShape(t.Shape()), buf, et)
}

func ortShape(s []int) ort.Shape {
	out := make(ort.Shape, len(s))
	for i, d := range s {
		out[i] = int64(d)
	}
	return out
}

// ortAllocatedByUs reports whether an output of dt is allocated by the
// harness: the binding cannot allocate float16, bfloat16 or float 8 values
// itself (nor an empty one of them).
func ortAllocatedByUs(dt tensor.DataType) bool {
	switch dt {
	case tensor.Float16, tensor.BFloat16, tensor.Float8E4M3FN, tensor.Float8E4M3FNUZ, tensor.Float8E5M2, tensor.Float8E5M2FNUZ:
		return true
	}
	return false
}

// runORTModel runs model in onnxruntime; outputs of the types the binding
// cannot allocate are allocated in the shape of like (onnxshape's outputs).
func runORTModel(model []byte, c *diffCase, names []string, like []*tensor.Tensor) ([]*tensor.Tensor, error) {
	so, err := ort.NewSessionOptions()
	if err != nil {
		return nil, err
	}
	defer so.Destroy()
	so.SetIntraOpNumThreads(1)
	so.SetInterOpNumThreads(1)
	so.SetGraphOptimizationLevel(ort.GraphOptimizationLevelDisableAll)
	// The refusals the cases provoke on purpose come back as errors; the
	// session need not print them too.
	so.SetLogSeverityLevel(ort.LoggingLevelFatal)
	var inNames []string
	var inputs []ort.Value
	defer func() {
		for _, v := range inputs {
			v.Destroy()
		}
	}()
	for _, x := range c.inputs {
		if x.t.Rank() == 0 {
			continue
		}
		v, err := rawTensor(x.t)
		if err != nil {
			return nil, err
		}
		inNames = append(inNames, x.name)
		inputs = append(inputs, v)
	}
	s, err := ort.NewDynamicAdvancedSessionWithONNXData(model, inNames, names, so)
	if err != nil {
		return nil, err
	}
	defer s.Destroy()
	outputs := make([]ort.Value, len(names))
	defer func() {
		for _, v := range outputs {
			destroyValue(v)
		}
	}()
	for i := range outputs {
		if like == nil || !ortAllocatedByUs(like[i].DataType()) {
			continue
		}
		if outputs[i], err = rawTensor(tensor.MustNew(like[i].DataType(), like[i].Shape()...)); err != nil {
			return nil, err
		}
	}
	if len(inputs) == 0 {
		return nil, fmt.Errorf("the harness needs at least one input of rank > 0")
	}
	if err := s.Run(inputs, outputs); err != nil {
		return nil, err
	}
	res := make([]*tensor.Tensor, len(outputs))
	for i, v := range outputs {
		if res[i], err = fromORT(v); err != nil {
			return nil, fmt.Errorf("output %s: %w", names[i], err)
		}
	}
	return res, nil
}

// destroyValue destroys v, which may be nil or a typed nil: the binding
// stores one in an output slot when converting a value it allocated fails
// (a rank-0 output, for one).
func destroyValue(v ort.Value) {
	defer func() { recover() }()
	if v != nil {
		v.Destroy()
	}
}

// fromORT copies an onnxruntime tensor into an onnxshape one.
func fromORT(v ort.Value) (*tensor.Tensor, error) {
	shape := make([]int, len(v.GetShape()))
	for i, d := range v.GetShape() {
		shape[i] = int(d)
	}
	var dt tensor.DataType
	var raw []byte
	switch x := v.(type) {
	case *ort.CustomDataTensor:
		dt, raw = fromORTType(ort.TensorElementDataType(x.DataType())), x.GetData()
	case *ort.Tensor[float32]:
		dt, raw = tensor.Float, bytesOf(x.GetData())
	case *ort.Tensor[float64]:
		dt, raw = tensor.Double, bytesOf(x.GetData())
	case *ort.Tensor[int8]:
		dt, raw = tensor.Int8, bytesOf(x.GetData())
	case *ort.Tensor[int16]:
		dt, raw = tensor.Int16, bytesOf(x.GetData())
	case *ort.Tensor[int32]:
		dt, raw = tensor.Int32, bytesOf(x.GetData())
	case *ort.Tensor[int64]:
		dt, raw = tensor.Int64, bytesOf(x.GetData())
	case *ort.Tensor[uint8]:
		dt, raw = tensor.Uint8, bytesOf(x.GetData())
	case *ort.Tensor[uint16]:
		dt, raw = tensor.Uint16, bytesOf(x.GetData())
	case *ort.Tensor[uint32]:
		dt, raw = tensor.Uint32, bytesOf(x.GetData())
	case *ort.Tensor[uint64]:
		dt, raw = tensor.Uint64, bytesOf(x.GetData())
	case *ort.Tensor[bool]:
		dt, raw = tensor.Bool, bytesOf(x.GetData())
	default:
		return nil, fmt.Errorf("onnxruntime value %T not wired into the harness", v)
	}
	if dt == tensor.Undefined {
		return nil, fmt.Errorf("onnxruntime element type %d not wired into the harness", v.DataType())
	}
	n, err := tensor.ByteSize(dt, shape)
	if err != nil {
		return nil, err
	}
	return tensor.FromBytes(dt, append([]byte(nil), raw[:n]...), shape...)
}

func fromORTType(et ort.TensorElementDataType) tensor.DataType {
	for _, dt := range tensor.AllTypes() {
		if e, ok := ortTypeOf(dt); ok && e == et {
			return dt
		}
	}
	return tensor.Undefined
}

func bytesOf[T any](v []T) []byte {
	if len(v) == 0 {
		return nil
	}
	var zero T
	return unsafe.Slice((*byte)(unsafe.Pointer(&v[0])), len(v)*int(unsafe.Sizeof(zero)))
}

// compareOutput describes how ours differs from theirs ("" when it does not).
func (c *diffCase) compareOutput(ours, theirs *tensor.Tensor) string {
	if ours.DataType() != theirs.DataType() {
		return fmt.Sprintf("type %v, onnxruntime %v", ours.DataType(), theirs.DataType())
	}
	if !tensor.SameShape(ours.Shape(), theirs.Shape()) {
		return fmt.Sprintf("shape %v, onnxruntime %v", ours.Shape(), theirs.Shape())
	}
	if !ours.DataType().IsFloat() {
		if ours.Equal(theirs) {
			return ""
		}
		a, _ := ours.Float64s()
		b, _ := theirs.Float64s()
		return firstDifference(a, b, func(x, y float64) bool { return math.Abs(x-y) <= c.intAbs })
	}
	a, err1 := ours.Float64s()
	b, err2 := theirs.Float64s()
	if err1 != nil || err2 != nil {
		return fmt.Sprintf("not comparable: %v %v", err1, err2)
	}
	return firstDifference(a, b, func(x, y float64) bool {
		switch {
		case x == y, math.IsNaN(x) && math.IsNaN(y):
			return true
		case math.IsInf(x, 0) || math.IsInf(y, 0) || math.IsNaN(x) || math.IsNaN(y):
			return false
		}
		return math.Abs(x-y) <= c.abs+c.rel*math.Abs(y)
	})
}

func firstDifference(a, b []float64, same func(x, y float64) bool) string {
	n, first := 0, -1
	for i := range a {
		if !same(a[i], b[i]) {
			n++
			if first < 0 {
				first = i
			}
		}
	}
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("%d of %d elements differ, first at %d: %v, onnxruntime %v", n, len(a), first, a[first], b[first])
}

// Random inputs.

// randShape draws a shape of the given rank with dimensions in [lo, hi].
func randShape(r *rand.Rand, rank, lo, hi int) []int {
	s := make([]int, rank)
	for i := range s {
		s[i] = lo + r.IntN(hi-lo+1)
	}
	return s
}

// randTensor fills a tensor of dt with values suited to dt: floats in
// [-4, 4), signed integers in [-20, 20], unsigned in [0, 40], bools.
func randTensor(r *rand.Rand, dt tensor.DataType, shape []int) *tensor.Tensor {
	n, _ := tensor.NumElements(shape)
	switch dt {
	case tensor.Float:
		v := make([]float32, n)
		for i := range v {
			v[i] = float32(r.Float64()*8 - 4)
		}
		return tensor.MustFromSlice(v, shape...)
	case tensor.Double:
		v := make([]float64, n)
		for i := range v {
			v[i] = r.Float64()*8 - 4
		}
		return tensor.MustFromSlice(v, shape...)
	case tensor.Float16, tensor.BFloat16:
		f := randTensor(r, tensor.Float, shape)
		v, _ := tensor.Data[float32](f)
		return fromFloat32s(dt, v, shape)
	case tensor.Bool:
		v := make([]bool, n)
		for i := range v {
			v[i] = r.IntN(2) == 1
		}
		return tensor.MustFromSlice(v, shape...)
	}
	ints := make([]int64, n)
	for i := range ints {
		if dt.IsSigned() {
			ints[i] = int64(r.IntN(41) - 20)
		} else {
			ints[i] = int64(r.IntN(41))
		}
	}
	return intTensor(dt, ints, shape)
}

// intTensor converts v to an integer tensor of dt.
func intTensor(dt tensor.DataType, v []int64, shape []int) *tensor.Tensor {
	switch dt {
	case tensor.Int8:
		return tensor.MustFromSlice(convert[int8](v), shape...)
	case tensor.Int16:
		return tensor.MustFromSlice(convert[int16](v), shape...)
	case tensor.Int32:
		return tensor.MustFromSlice(convert[int32](v), shape...)
	case tensor.Int64:
		return tensor.MustFromSlice(v, shape...)
	case tensor.Uint8:
		return tensor.MustFromSlice(convert[uint8](v), shape...)
	case tensor.Uint16:
		return tensor.MustFromSlice(convert[uint16](v), shape...)
	case tensor.Uint32:
		return tensor.MustFromSlice(convert[uint32](v), shape...)
	case tensor.Uint64:
		return tensor.MustFromSlice(convert[uint64](v), shape...)
	}
	panic(fmt.Sprintf("intTensor: %v", dt))
}

func convert[T int8 | int16 | int32 | uint8 | uint16 | uint32 | uint64](v []int64) []T {
	out := make([]T, len(v))
	for i, x := range v {
		out[i] = T(x)
	}
	return out
}

// fromFloat32s rounds v to float16 or bfloat16 (round to nearest even), so
// that the inputs are the same numbers in both engines.
func fromFloat32s(dt tensor.DataType, v []float32, shape []int) *tensor.Tensor {
	buf := make([]byte, 2*len(v))
	for i, x := range v {
		var h uint16
		if dt == tensor.BFloat16 {
			h = uint16(tensor.BF16FromFloat32(x))
		} else {
			h = f16FromFloat32(x)
		}
		buf[2*i], buf[2*i+1] = byte(h), byte(h>>8)
	}
	t, err := tensor.FromBytes(dt, buf, shape...)
	if err != nil {
		panic(err)
	}
	return t
}

// f16FromFloat32 rounds x to the nearest float16, ties to even. Magnitudes
// below float16's normals become a signed zero and those past its range
// infinity: the random inputs are normal numbers well inside the range.
func f16FromFloat32(x float32) uint16 {
	bits := math.Float32bits(x)
	sign := uint16(bits>>16) & 0x8000
	exp := int(bits>>23&0xff) - 127 + 15
	mant := bits & 0x7fffff
	if exp <= 0 {
		return sign
	}
	if exp >= 31 {
		return sign | 0x7c00
	}
	// round to nearest even on the 13 dropped bits
	h := uint32(exp)<<10 | mant>>13
	rest := mant & 0x1fff
	if rest > 0x1000 || (rest == 0x1000 && h&1 == 1) {
		h++
	}
	// a carry out of the significand raises the exponent, up to infinity:
	// the bits are laid out so that h+1 does exactly that
	return sign | uint16(h)
}

// pick returns a random element of xs.
func pick[T any](r *rand.Rand, xs ...T) T { return xs[r.IntN(len(xs))] }
