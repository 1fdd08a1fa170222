package reference

// Range (versions 11 and 27), after the ONNX specification:
//
//	"number_of_elements = max( ceil( (limit - start) / delta ) , 0 )"
//	"for(int i=0; i<number_of_elements; ++i) { output[i] =  start + (i * delta); }"
//	"For float16 and bfloat16 inputs, the stash_type attribute controls the
//	precision used for intermediate accumulation. Setting stash_type to 1
//	(float) causes start, limit, and delta to be cast to 32-bit float before
//	the loop, with the output cast back to the original type."
//
// stash_type is float (1) or double (11), the two the function body of
// Range-27 and the reference evaluator accept.
//
// As the reference evaluator (np.arange): the count from the inputs' exact
// values; each element computed in the precision of the type (float32 for
// float, float16 and bfloat16 with stash_type float; float64 with double),
// each operation rounded; delta 0 refused (under the SONNX profile with
// range.md's id: "D [C1] Non-zero step size: D != 0",
// sonnxrule.RangeDelta).

import (
	"math"
	"math/big"

	"github.com/onnxshape/onnxshape/internal/sonnxrule"
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() { register("Range", []int{11, 27}, rangeKernel) }

func rangeKernel(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	var args [3]*tensor.Tensor
	var err error
	for i, name := range []string{"start", "limit", "delta"} {
		if args[i], err = requiredInput(opOf(n), in, i, name); err != nil {
			return nil, err
		}
	}
	dt := args[0].DataType()
	allowed := map[tensor.DataType]int{tensor.Float: 11, tensor.Double: 11, tensor.Int16: 11, tensor.Int32: 11, tensor.Int64: 11, tensor.Float16: 27, tensor.BFloat16: 27}
	for _, t := range args {
		v, ok := allowed[dt]
		if t.DataType() != dt || !ok || v > n.Version {
			return nil, opOf(n).errorf("input", "start, limit and delta of types %v, %v, %v", args[0].DataType(), args[1].DataType(), args[2].DataType())
		}
		if t.Len() != 1 || t.Rank() > 1 || (sonnx(opt) && t.Rank() != 0) {
			return nil, opOf(n).errorf("input", "start, limit and delta must be scalars")
		}
	}
	stash := int64(tensor.Float)
	if n.Version >= 27 {
		if stash, err = n.Int("stash_type", int64(tensor.Float)); err != nil {
			return nil, err
		}
	}
	if (dt == tensor.Float16 || dt == tensor.BFloat16) && stash != int64(tensor.Float) && stash != int64(tensor.Double) {
		return nil, opOf(n).errorf("stash_type", "stash_type %d is neither float (1) nor double (11)", stash)
	}
	halfInDouble := (dt == tensor.Float16 || dt == tensor.BFloat16) && stash == int64(tensor.Double)
	// exact values: integers as big integers, floats as float64
	var count int
	if dt.IsInteger() {
		var v [3]*big.Int
		for i, t := range args {
			v[i] = big.NewInt(exactValue(t, 0).i)
		}
		if v[2].Sign() == 0 {
			return nil, opOf(n).errorf(rangeDeltaRule(opt), "delta is 0")
		}
		num := new(big.Int).Sub(v[1], v[0])
		q := new(big.Rat).SetFrac(num, v[2])
		c := new(big.Int).Quo(q.Num(), q.Denom()) // toward zero
		if new(big.Rat).SetInt(c).Cmp(q) < 0 {
			c.Add(c, big.NewInt(1))
		}
		if c.Sign() > 0 {
			if !c.IsInt64() || c.Int64() > 1<<62 || c.Int64() > math.MaxInt {
				return nil, opOf(n).errorf("size", "%v elements", c)
			}
			count = int(c.Int64())
		}
	} else {
		var v [3]float64
		for i, t := range args {
			v[i] = exactValue(t, 0).f
		}
		if v[2] == 0 {
			return nil, opOf(n).errorf(rangeDeltaRule(opt), "delta is 0")
		}
		c := math.Ceil((v[1] - v[0]) / v[2])
		if c != c {
			return nil, opOf(n).errorf("input", "the count is NaN")
		}
		if c > 1<<53 || c > math.MaxInt {
			return nil, opOf(n).errorf("size", "%v elements", c)
		}
		count = int(max(c, 0))
	}
	out, err := newTensor(opt, opOf(n), dt, []int{count})
	if err != nil {
		return nil, err
	}
	start, delta := exactValue(args[0], 0), exactValue(args[2], 0)
	for i := range count {
		var v number
		switch dt {
		case tensor.Int16, tensor.Int32, tensor.Int64:
			v = number{kind: 'i', i: start.i + int64(i)*delta.i} // in range of the type: between start and limit
		case tensor.Double:
			v = number{kind: 'f', f: start.f + float64(float64(i)*delta.f)}
		default:
			if halfInDouble {
				v = number{kind: 'f', f: start.f + float64(float64(i)*delta.f)}
				break
			}
			s, d := float32(start.f), float32(delta.f)
			v = number{kind: 'f', f: float64(s + float32(float32(i)*d))}
		}
		storeValue(out, args[0], i, v, castAttrs{saturate: true, roundMode: "up"})
	}
	return []tensor.Value{out}, nil
}

// rangeDeltaRule is the id a zero delta is refused under: the SONNX
// specification's D [C1] under the profile.
func rangeDeltaRule(opt *ops.Options) string {
	if sonnx(opt) {
		return sonnxrule.RangeDelta
	}
	return "delta"
}

// roundThrough rounds x to the nearest value of dt (float16 or bfloat16).
func roundThrough(dt tensor.DataType, x float64) float64 {
	code := nearestCode(dt, x, false)
	if dt == tensor.BFloat16 {
		return float64(math.Float32frombits(uint32(code) << 16))
	}
	return float16Value(code)
}
