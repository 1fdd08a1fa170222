package ops

import (
	"math/rand/v2"
	"testing"

	"github.com/onnxshape/onnxshape/tensor"
)

// shapeOpsUnderFuzz are the node forms FuzzShapeOperators drives: each
// builds the attributes and extra inputs of one operator version from the
// fuzzer's parameters.
var shapeOpsUnderFuzz = []struct {
	name    string
	version int
	build   func(p []int64, flag bool) (map[string]Attribute, []*tensor.Tensor)
}{
	{"Reshape", 25, func(p []int64, flag bool) (map[string]Attribute, []*tensor.Tensor) {
		az := int64(0)
		if flag {
			az = 1
		}
		return map[string]Attribute{"allowzero": intAttribute(az)}, []*tensor.Tensor{i64s(p...)}
	}},
	{"Reshape", 1, func(p []int64, _ bool) (map[string]Attribute, []*tensor.Tensor) {
		return map[string]Attribute{"shape": ints(p...)}, nil
	}},
	{"Flatten", 25, func(p []int64, _ bool) (map[string]Attribute, []*tensor.Tensor) {
		return map[string]Attribute{"axis": intAttribute(first(p))}, nil
	}},
	{"Squeeze", 13, func(p []int64, flag bool) (map[string]Attribute, []*tensor.Tensor) {
		if flag {
			return nil, nil
		}
		return nil, []*tensor.Tensor{i64s(p...)}
	}},
	{"Squeeze", 1, func(p []int64, _ bool) (map[string]Attribute, []*tensor.Tensor) {
		return map[string]Attribute{"axes": ints(p...)}, nil
	}},
	{"Transpose", 25, func(p []int64, flag bool) (map[string]Attribute, []*tensor.Tensor) {
		if flag {
			return nil, nil
		}
		return map[string]Attribute{"perm": ints(p...)}, nil
	}},
	{"DepthToSpace", 13, func(p []int64, flag bool) (map[string]Attribute, []*tensor.Tensor) {
		mode := "DCR"
		if flag {
			mode = "CRD"
		}
		return map[string]Attribute{"blocksize": intAttribute(first(p)), "mode": strAttribute(mode)}, nil
	}},
	{"SpaceToDepth", 13, func(p []int64, _ bool) (map[string]Attribute, []*tensor.Tensor) {
		return map[string]Attribute{"blocksize": intAttribute(first(p))}, nil
	}},
	{"Tile", 13, func(p []int64, _ bool) (map[string]Attribute, []*tensor.Tensor) {
		return nil, []*tensor.Tensor{i64s(p...)}
	}},
	{"Tile", 1, func(p []int64, _ bool) (map[string]Attribute, []*tensor.Tensor) {
		axis := int64(0)
		if len(p) > 1 {
			axis = p[1]
		}
		return nil, []*tensor.Tensor{tensor.Scalar(first(p)), tensor.Scalar(axis)}
	}},
	{"Expand", 13, func(p []int64, _ bool) (map[string]Attribute, []*tensor.Tensor) {
		return nil, []*tensor.Tensor{i64s(p...)}
	}},
	{"Shape", 25, func(p []int64, flag bool) (map[string]Attribute, []*tensor.Tensor) {
		a := map[string]Attribute{"start": intAttribute(first(p))}
		if flag && len(p) > 1 {
			a["end"] = intAttribute(p[1])
		}
		return a, nil
	}},
	{"Size", 25, func([]int64, bool) (map[string]Attribute, []*tensor.Tensor) { return nil, nil }},
}

func first(p []int64) int64 {
	if len(p) == 0 {
		return 0
	}
	return p[0]
}

// FuzzShapeOperators runs the operators of this file's table on small
// random tensors with parameters taken from the fuzzer: whatever the
// parameters, an operator returns a well-formed tensor or an *Error, never
// panics, never writes into its input and respects the size limit.
func FuzzShapeOperators(f *testing.F) {
	f.Add(uint8(0), []byte{2, 3, 4}, []byte{4, 0xff, 0})
	f.Add(uint8(5), []byte{2, 3, 4}, []byte{2, 0, 1})
	f.Add(uint8(6), []byte{1, 8, 2, 3}, []byte{2})
	f.Add(uint8(8), []byte{2, 0, 3}, []byte{0x7f, 2, 1})
	f.Add(uint8(10), []byte{3, 1}, []byte{2, 1, 6})
	f.Add(uint8(11), []byte{3, 4, 5}, []byte{0x80, 0xfe})
	f.Fuzz(func(t *testing.T, which uint8, dims, params []byte) {
		if len(dims) > 6 || len(params) > 8 {
			return
		}
		c := shapeOpsUnderFuzz[int(which)%len(shapeOpsUnderFuzz)]
		flag := which&0x80 != 0
		shape := make([]int, len(dims))
		for i, d := range dims {
			shape[i] = int(d % 6)
		}
		p := make([]int64, len(params))
		for i, b := range params {
			switch v := int8(b); v {
			case 127:
				p[i] = 1 << 40
			case -128:
				p[i] = -(1 << 40)
			default:
				p[i] = int64(v)
			}
		}
		rng := rand.New(rand.NewPCG(uint64(which), uint64(len(dims))))
		dt := typesUnderTest[int(which)%len(typesUnderTest)]
		x := randomValidTensor(rng, dt, shape)
		orig := x.Clone()
		attrs, extra := c.build(p, flag)
		opt := &Options{MaxTensorBytes: 1 << 16}
		if which&0x40 != 0 {
			opt.Profile = ProfileSONNX
		}
		y, err := runNode(opt, c.name, c.version, attrs, append([]*tensor.Tensor{x}, extra...)...)
		unchanged(t, x, orig)
		if err != nil {
			checkRuleIsSet(t, err)
			return
		}
		n, err := tensor.NumElements(y.Shape())
		if err != nil || n != y.Len() {
			t.Fatalf("%s-%d: malformed output %v", c.name, c.version, y.Describe())
		}
	})
}

// checkRuleIsSet fails the test unless err is an *Error naming a rule.
func checkRuleIsSet(t *testing.T, err error) {
	t.Helper()
	e, ok := err.(*Error)
	if !ok || e.Rule == "" || e.Op == "" || e.Version == 0 {
		t.Fatalf("error %v (%T) is not an *ops.Error naming its rule", err, err)
	}
}
