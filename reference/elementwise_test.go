package reference

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/x448/float16"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// elementwiseOps are the operators of the elementwise family.
var elementwiseOps = []string{
	"Add", "Sub", "Mul", "Div", "Mod", "Pow", "Min", "Max", "Sum", "Mean",
	"Neg", "Abs", "Sign", "Reciprocal", "Floor", "Ceil", "Round", "Sqrt", "Exp", "Log", "Erf",
	"Sin", "Cos", "Tan", "Asin", "Acos", "Atan", "Sinh", "Cosh", "Asinh", "Acosh", "Atanh",
	"IsNaN", "IsInf", "Equal", "Less", "LessOrEqual", "Greater", "GreaterOrEqual",
	"Not", "And", "Or", "Xor", "BitShift", "BitwiseAnd", "BitwiseOr", "BitwiseXor", "BitwiseNot",
	"Where", "Relu", "LeakyRelu", "PRelu", "Sigmoid", "HardSigmoid", "HardSwish", "Tanh",
	"Elu", "Selu", "Celu", "Gelu", "Mish", "Swish", "SwiGLU", "Softplus", "Softsign", "ThresholdedRelu", "Shrink", "Clip",
}

// TestElementwiseMatchesOps runs every version of every elementwise
// operator on random inputs of every element type, with random
// broadcasting, through the fast kernel (package ops) and the reference
// kernel, and requires the same result bit for bit (any NaN equals any
// NaN). A type the fast kernel refuses as not allowed ([type]) is skipped;
// every other refusal must be the reference's too.
func TestElementwiseMatchesOps(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, s := range ops.Schemas() {
		if s.Domain != "" || !slices.Contains(elementwiseOps, s.Name) {
			continue
		}
		ref, ok := Kernel("", s.Name, s.Since)
		if !ok {
			t.Errorf("no reference kernel for %s-%d", s.Name, s.Since)
			continue
		}
		compared := 0
		for _, dt := range tensor.AllTypes() {
			if dt.Bits() < 8 || dt == tensor.Float8E8M0 {
				continue // no elementwise operator takes the packed types
			}
			for trial := range 6 {
				node, in := randomElementwiseCall(rng, s, dt, trial)
				if in == nil {
					continue
				}
				want, err := s.Run(nil, node, in)
				var opErr *ops.Error
				if errors.As(err, &opErr) && opErr.Rule == "type" {
					continue
				}
				got, rerr := ref(nil, node, in)
				name := fmt.Sprintf("%s-%d %v trial %d (%s)", s.Name, s.Since, dt, trial, describeElementwiseInputs(in))
				if (err == nil) != (rerr == nil) {
					t.Errorf("%s: ops error %v, reference error %v", name, err, rerr)
					continue
				}
				if err != nil {
					continue
				}
				compared++
				if msg := sameElementwiseTensor(want[0].(*tensor.Tensor), got[0].(*tensor.Tensor)); msg != "" {
					t.Errorf("%s: %s", name, msg)
				}
			}
		}
		if compared == 0 {
			t.Errorf("%s-%d: no type compared", s.Name, s.Since)
		}
		t.Logf("%s-%d: %d calls compared", s.Name, s.Since, compared)
	}
}

func describeElementwiseInputs(in []tensor.Value) string {
	s := ""
	for _, v := range in {
		if v == nil {
			s += " -"
			continue
		}
		t := v.(*tensor.Tensor)
		s += fmt.Sprintf(" %v%v", t.DataType(), t.Shape())
	}
	return s
}

// randomElementwiseCall makes a node of schema s and inputs of type dt.
func randomElementwiseCall(rng *rand.Rand, s ops.Schema, dt tensor.DataType, trial int) (*ops.Node, []tensor.Value) {
	node := &ops.Node{OpType: s.Name, Version: s.Since, Attrs: map[string]ops.Attribute{}, NumOutputs: 1}
	out := randomElementwiseShape(rng, trial)
	legacy := s.Since < 7 && slices.Contains([]string{"Add", "Sub", "Mul", "Div", "Pow", "And", "Or", "Xor", "Equal", "Less", "Greater"}, s.Name)
	switch s.Name {
	case "BitShift":
		node.Attrs["direction"] = ops.Attribute{Type: ops.AttrString, String: []string{"LEFT", "RIGHT"}[trial%2]}
	case "Mod":
		fmod := int64(1)
		if dt.IsInteger() && trial%2 == 0 {
			fmod = 0
		}
		node.Attrs["fmod"] = ops.Attribute{Type: ops.AttrInt, Int: fmod}
	case "IsInf":
		node.Attrs["detect_positive"] = ops.Attribute{Type: ops.AttrInt, Int: int64(trial % 2)}
		node.Attrs["detect_negative"] = ops.Attribute{Type: ops.AttrInt, Int: int64(trial / 2 % 2)}
	case "Gelu":
		node.Attrs["approximate"] = ops.Attribute{Type: ops.AttrString, String: []string{"none", "tanh"}[trial%2]}
	case "LeakyRelu", "Elu", "Celu", "ThresholdedRelu", "HardSigmoid", "Selu", "Swish", "SwiGLU":
		node.Attrs["alpha"] = ops.Attribute{Type: ops.AttrFloat, Float: float32(rng.Float64()*2 + 0.1)}
	case "Shrink":
		node.Attrs["bias"] = ops.Attribute{Type: ops.AttrFloat, Float: float32(rng.Float64() * 2)}
		node.Attrs["lambd"] = ops.Attribute{Type: ops.AttrFloat, Float: float32(rng.Float64() * 3)}
	case "Clip":
		if s.Since < 11 {
			node.Attrs["min"] = ops.Attribute{Type: ops.AttrFloat, Float: -1.5}
			if trial%2 == 0 {
				node.Attrs["max"] = ops.Attribute{Type: ops.AttrFloat, Float: 2.25}
			}
		}
	}
	boolIn := slices.Contains([]string{"Not", "And", "Or", "Xor"}, s.Name)
	inType := dt
	if boolIn && dt != tensor.Bool {
		return nil, nil
	}
	switch {
	case s.Name == "Where":
		cond := randomElementwiseTensor(rng, tensor.Bool, squeezeSomeDims(rng, out))
		return node, []tensor.Value{cond, randomElementwiseTensor(rng, dt, squeezeSomeDims(rng, out)), randomElementwiseTensor(rng, dt, squeezeSomeDims(rng, out))}
	case s.Name == "Clip":
		in := []tensor.Value{randomElementwiseTensor(rng, dt, out)}
		if s.Since >= 11 {
			lo, hi := randomElementwiseTensor(rng, dt, nil), randomElementwiseTensor(rng, dt, nil)
			switch trial % 3 {
			case 0:
				in = append(in, lo, hi)
			case 1:
				in = append(in, nil, hi)
			case 2:
				in = append(in, lo)
			}
		}
		return node, in
	case s.Name == "SwiGLU":
		// No broadcasting: B has A's shape, but for the last trial, whose
		// B of another shape both engines refuse.
		bShape := out
		if trial == 4 {
			bShape = append(slices.Clone(out), 2)
		}
		return node, []tensor.Value{randomElementwiseTensor(rng, dt, out), randomElementwiseTensor(rng, dt, bShape)}
	case s.Name == "PRelu":
		return node, []tensor.Value{randomElementwiseTensor(rng, dt, out), randomElementwiseTensor(rng, dt, squeezeSomeDims(rng, out))}
	case s.Inputs[1] == 1:
		return node, []tensor.Value{randomElementwiseTensor(rng, inType, out)}
	case s.Inputs[1] < 0:
		n := 1 + trial%3
		in := make([]tensor.Value, n)
		for i := range in {
			shape := out
			if s.Since >= 8 {
				shape = squeezeSomeDims(rng, out)
			}
			in[i] = randomElementwiseTensor(rng, dt, shape)
		}
		return node, in
	}
	a := randomElementwiseTensor(rng, inType, out)
	bType := inType
	if s.Name == "Pow" && s.Since >= 12 {
		bType = []tensor.DataType{tensor.Int32, tensor.Int64, tensor.Float, tensor.Uint8, tensor.Float16, tensor.Double}[trial]
	}
	if legacy {
		node.Attrs["broadcast"] = ops.Attribute{Type: ops.AttrInt, Int: 1}
		cut := rng.IntN(len(out) + 1)
		return node, []tensor.Value{a, randomElementwiseTensor(rng, bType, out[cut:])}
	}
	if trial%2 == 1 {
		a = randomElementwiseTensor(rng, inType, squeezeSomeDims(rng, out))
	}
	return node, []tensor.Value{a, randomElementwiseTensor(rng, bType, squeezeSomeDims(rng, out))}
}

// randomElementwiseShape is an output shape: a scalar, an empty tensor, or up to 4
// axes of up to 5.
func randomElementwiseShape(rng *rand.Rand, trial int) []int {
	switch trial {
	case 0:
		return []int{}
	case 5:
		return []int{2, 0, 3}
	}
	s := make([]int, 1+rng.IntN(4))
	for k := range s {
		s[k] = 1 + rng.IntN(5)
	}
	return s
}

// squeezeSomeDims returns a shape that broadcasts to out: leading axes dropped
// and some dims set to 1.
func squeezeSomeDims(rng *rand.Rand, out []int) []int {
	s := slices.Clone(out[rng.IntN(len(out)+1):])
	for k := range s {
		if rng.IntN(3) == 0 {
			s[k] = 1
		}
	}
	return s
}

// randomElementwiseTensor fills a tensor of type dt with values that exercise the
// operators: small and large numbers, zeros, and for floats infinities
// and NaN now and then.
func randomElementwiseTensor(rng *rand.Rand, dt tensor.DataType, shape []int) *tensor.Tensor {
	t := tensor.MustNew(dt, shape...)
	n := t.Len()
	special := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), 1, -1, 0.5, -0.5, 2.5}
	real := func() float64 {
		if rng.IntN(8) == 0 {
			return special[rng.IntN(len(special))]
		}
		return (rng.Float64()*2 - 1) * math.Pow(10, float64(rng.IntN(4)-1))
	}
	for k := range n {
		switch dt {
		case tensor.Float:
			data[float32](t)[k] = float32(real())
		case tensor.Double:
			data[float64](t)[k] = real()
		case tensor.Float16:
			data[float16.Float16](t)[k] = float16.Fromfloat32(float32(real()))
		case tensor.BFloat16:
			data[tensor.BF16](t)[k] = tensor.BF16FromFloat32(float32(real()))
		case tensor.Bool:
			data[bool](t)[k] = rng.IntN(2) == 0
		case tensor.String:
			data[string](t)[k] = fmt.Sprint(rng.IntN(4))
		case tensor.Complex64:
			data[complex64](t)[k] = complex(float32(real()), float32(real()))
		case tensor.Complex128:
			data[complex128](t)[k] = complex(real(), real())
		case tensor.Float8E4M3FN, tensor.Float8E4M3FNUZ, tensor.Float8E5M2, tensor.Float8E5M2FNUZ:
			t.Bytes()[k] = byte(rng.IntN(256))
		default:
			if !dt.IsInteger() {
				return t
			}
			v := rng.Uint64()
			if rng.IntN(2) == 0 {
				v = uint64(rng.IntN(7)) - 3 // small, zero and negative values
			}
			setScalar(t, k, unsignedOf(v))
		}
	}
	return t
}

// sameElementwiseTensor compares bit for bit, any NaN equal to any NaN.
func sameElementwiseTensor(want, got *tensor.Tensor) string {
	if want.DataType() != got.DataType() || !tensor.SameShape(want.Shape(), got.Shape()) {
		return fmt.Sprintf("ops gives %v%v, reference %v%v", want.DataType(), want.Shape(), got.DataType(), got.Shape())
	}
	for k := range want.Len() {
		a, b := elementAt(want, k), elementAt(got, k)
		if a.kind == floatKind && math.IsNaN(a.f) && math.IsNaN(b.f) ||
			a.kind == complexKind && fmt.Sprint(a.c) == fmt.Sprint(b.c) {
			continue
		}
		if a.kind == floatKind && (a.f != b.f || math.Signbit(a.f) != math.Signbit(b.f)) || a.kind != floatKind && a != b {
			return fmt.Sprintf("element %d: ops %+v, reference %+v", k, a, b)
		}
	}
	return ""
}

// A cancelled run stops every elementwise operator in both engines, by the
// same rule.
func TestElementwiseCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	opt := ops.NewOptions(ops.WithContext(ctx))
	rng := rand.New(rand.NewPCG(11, 12))
	for _, s := range ops.Schemas() {
		if s.Domain != "" || !slices.Contains(elementwiseOps, s.Name) {
			continue
		}
		ref, _ := Kernel("", s.Name, s.Since)
		for _, dt := range []tensor.DataType{tensor.Float, tensor.Bool, tensor.Uint8, tensor.Int32} {
			node, in := randomElementwiseCall(rng, s, dt, 2)
			if in == nil {
				continue
			}
			if _, err := s.Run(nil, node, in); err != nil {
				continue // a type the version does not take
			}
			_, ferr := s.Run(opt, node, in)
			_, rerr := ref(opt, node, in)
			var ef, er *ops.Error
			if !errors.As(ferr, &ef) || !errors.As(rerr, &er) || ef.Rule != "cancelled" || er.Rule != "cancelled" || !errors.Is(ferr, context.Canceled) {
				t.Errorf("%s-%d %v: fast %v, reference %v", s.Name, s.Since, dt, ferr, rerr)
			}
		}
	}
}
