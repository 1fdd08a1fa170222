// Cast converts every element of a tensor to the type its attribute to
// names, by the rules of the conversion engine (convert.go): the ONNX Cast
// rules, and the ONNX reference evaluator where they leave a result open.
//
// Versions: 1 (to is a string, "FLOAT"), 6 (to is an int, a
// TensorProto.DataType), 9 (adds string), 13 (bfloat16), 19 (the float 8
// types and the saturate attribute), 21 (int4, uint4), 23 (float4e2m1), 24
// (float8e8m0 and the round_mode attribute), 25 (int2, uint2). A version
// refuses the types it does not list, as input and as target.
//
// Rules: [to] names a type the version allows; [type] the input's type is
// one the version allows (complex never); [round_mode] up, down or
// nearest; [string] a string converted to a number reads as one (ONNX
// calls any other undefined; onnxshape refuses it); [size] the output fits
// the size limit.

package ops

import (
	"strings"

	"github.com/onnxshape/onnxshape/ops/internal/convert"
	"github.com/onnxshape/onnxshape/ops/internal/parallel"
	"github.com/onnxshape/onnxshape/tensor"
)

var castVersions = []int{1, 6, 9, 13, 19, 21, 23, 24, 25}

func init() {
	register("Cast", castVersions, [2]int{1, 1}, [2]int{1, 1}, castNode)
	declareAttrs("Cast",
		AttrSpec{Name: "to", Type: AttrString, Before: 6},
		AttrSpec{Name: "to", Type: AttrInt, From: 6},
		AttrSpec{Name: "saturate", Type: AttrInt, From: 19},
		AttrSpec{Name: "round_mode", Type: AttrString, From: 24})
}

// CastOptions are the attributes of Cast.
type CastOptions struct {
	// To is the target type (attribute to); it is required: the zero
	// DataType is refused.
	To tensor.DataType
	// NoSaturate makes a float 8 conversion that overflows give NaN or
	// infinity (ONNX saturate=0) instead of the largest finite value.
	NoSaturate bool
	// RoundMode is how values become float8e8m0: "up" (when empty),
	// "down" or "nearest".
	RoundMode string
}

// Cast returns x converted to type o.To (ONNX Cast, version 25).
func Cast(x *tensor.Tensor, o CastOptions, opts ...Option) (*tensor.Tensor, error) {
	op := opRef{"Cast", 25}
	opt, err := callOptions(op, opts)
	if err != nil {
		return nil, err
	}
	co := convert.Options{Saturate: !o.NoSaturate, RoundMode: o.RoundMode}
	if co.RoundMode == "" {
		co.RoundMode = "up"
	}
	return cast(opt, op, x, o.To, co)
}

func castNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	x, err := n.requiredInput(in, 0, "input")
	if err != nil {
		return nil, err
	}
	to, err := castTarget(n)
	if err != nil {
		return nil, err
	}
	co, err := castAttrs(n)
	if err != nil {
		return nil, err
	}
	y, err := cast(opt, n.op(), x, to, co)
	if err != nil {
		return nil, err
	}
	return opt.result(y), nil
}

// castTarget reads the attribute to: a type name before version 6, a
// TensorProto.DataType from it on.
func castTarget(n *Node) (tensor.DataType, error) {
	op := n.op()
	if !n.Has("to") {
		return 0, op.errorf("to", "attribute to is required")
	}
	if n.Version < 6 {
		a, _, err := n.attr("to", AttrString)
		if err != nil {
			return 0, err
		}
		dt, err := tensor.ParseDataType(strings.ToLower(a.String))
		if err != nil {
			return 0, op.errorf("to", "attribute to: %v", err)
		}
		return dt, nil
	}
	a, _, err := n.attr("to", AttrInt)
	if err != nil {
		return 0, err
	}
	return tensor.DataType(a.Int), nil
}

// castAttrs reads saturate and round_mode where the version has them.
func castAttrs(n *Node) (convert.Options, error) {
	co := convert.DefaultCast
	if n.Version >= 19 {
		s, err := n.Int("saturate", 1)
		if err != nil {
			return co, err
		}
		co.Saturate = s != 0
	}
	if n.Version >= 24 {
		m, err := n.Str("round_mode", "up")
		if err != nil {
			return co, err
		}
		co.RoundMode = m
	}
	return co, nil
}

// castTypeSince is the first Cast version that converts from and to each
// type (complex: none).
func castTypeSince(dt tensor.DataType) int {
	switch dt {
	case tensor.String:
		return 9
	case tensor.BFloat16:
		return 13
	case tensor.Float8E4M3FN, tensor.Float8E4M3FNUZ, tensor.Float8E5M2, tensor.Float8E5M2FNUZ:
		return 19
	case tensor.Int4, tensor.Uint4:
		return 21
	case tensor.Float4E2M1:
		return 23
	case tensor.Float8E8M0:
		return 24
	case tensor.Int2, tensor.Uint2:
		return 25
	case tensor.Complex64, tensor.Complex128, tensor.Undefined:
		return 1 << 30
	}
	if !dt.Valid() {
		return 1 << 30
	}
	return 1
}

// castCheck applies Cast's rules to a conversion from type from to type to.
func castCheck(op opRef, from, to tensor.DataType, co convert.Options) error {
	if castTypeSince(to) > op.version {
		return op.errorf("to", "%s-%d cannot convert to %v", op.name, op.version, to)
	}
	if castTypeSince(from) > op.version {
		return op.errorf("type", "%s-%d cannot convert from %v", op.name, op.version, from)
	}
	switch co.RoundMode {
	case "up", "down", "nearest":
	default:
		return op.errorf("round_mode", "round_mode must be up, down or nearest, got %q", co.RoundMode)
	}
	return nil
}

func cast(opt *Options, op opRef, x *tensor.Tensor, to tensor.DataType, co convert.Options) (*tensor.Tensor, error) {
	opt = opt.orDefault()
	if err := castCheck(op, x.DataType(), to, co); err != nil {
		return nil, err
	}
	y, err := opt.newOverwritten(op, to, x.Shape())
	if err != nil {
		return nil, err
	}
	if err := convertAll(opt, op, y, x, co); err != nil {
		return nil, err
	}
	return y, nil
}

// castGrain is how many elements a core converts at a time when the
// cores share a large Cast.
const castGrain = 1 << 18

// convertAll converts every element of x into y, across the run's cores
// when it is large.
func convertAll(opt *Options, op opRef, y, x *tensor.Tensor, co convert.Options) error {
	work := x.ByteLen() + y.ByteLen()
	if x.DataType() == tensor.String || y.DataType() == tensor.String {
		work = 0 // strings allocate: one core
	}
	one, err := alone(opt, x.Len(), work/4)
	switch {
	case one && err == nil: // a small cast: its loop here, no closure on the heap
		err = convert.Into(y, x, 0, x.Len(), co)
	case !one:
		// Grains taken in turn (parallel.Shared): a core that starts late
		// or runs slow does not leave the other idle at the end.
		o := opt.orDefault()
		err = parallel.Shared(o.env.Ctx, o.threads(), x.Len(), castGrain, work/4, func(lo, hi int) error {
			return convert.Into(y, x, lo, hi, co)
		})
	}
	if err != nil {
		return op.wrap("string", err, "input")
	}
	return nil
}
