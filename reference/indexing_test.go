package reference

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// The conversion, creation, indexing and sequence operators: both engines
// on random inputs of every type, compared bit for bit (and, where the
// inputs are refused, by the rule each engine names).

// randomTensor returns a tensor of type dt and shape with random elements
// that are legal for the type (sub-byte values in range, bool 0 or 1).
func randomIndexingTensor(r *rand.Rand, dt tensor.DataType, shape ...int) *tensor.Tensor {
	t := tensor.MustNew(dt, shape...)
	if dt == tensor.String {
		for i := range t.Strings() {
			t.Strings()[i] = fmt.Sprint(r.IntN(1000))
		}
		return t
	}
	b := t.Bytes()
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	for i := 0; i < t.Len(); i++ {
		switch dt {
		case tensor.Bool:
			b[i] &= 1
		case tensor.Uint4, tensor.Float4E2M1:
			b[i] &= 0x0F
		case tensor.Int4:
			b[i] = byte(int8(b[i]<<4) >> 4)
		case tensor.Uint2:
			b[i] &= 3
		case tensor.Int2:
			b[i] = byte(int8(b[i]<<6) >> 6)
		}
	}
	return t
}

// indexTensor returns random int32 or int64 indices in [-dim, dim).
func indexTensor(r *rand.Rand, dt tensor.DataType, dim int, shape ...int) *tensor.Tensor {
	n := 1
	for _, d := range shape {
		n *= d
	}
	v := make([]int64, n)
	for i := range v {
		if dim > 0 {
			v[i] = int64(r.IntN(2*dim) - dim)
		}
	}
	if dt == tensor.Int32 {
		w := make([]int32, n)
		for i, x := range v {
			w[i] = int32(x)
		}
		return tensor.MustFromSlice(w, shape...)
	}
	return tensor.MustFromSlice(v, shape...)
}

// bothEngines runs node n (its Version set) on in through the fast kernel and
// the reference kernel and fails t unless they agree bit for bit, or both
// refuse with the same rule.
func bothEngines(t *testing.T, n *ops.Node, in ...tensor.Value) {
	t.Helper()
	s, err := ops.Lookup("", n.OpType, n.Version)
	if err != nil {
		t.Fatal(err)
	}
	ref, ok := Kernel("", n.OpType, s.Since)
	if !ok {
		t.Fatalf("no reference kernel for %s-%d", n.OpType, s.Since)
	}
	n.Version = s.Since
	if n.NumOutputs == 0 {
		n.NumOutputs = 1
	}
	fast, errFast := s.Run(nil, n, in)
	want, errRef := ref(nil, n, in)
	if errFast != nil || errRef != nil {
		var ef, er *ops.Error
		if !errors.As(errFast, &ef) || !errors.As(errRef, &er) || ef.Rule != er.Rule {
			t.Fatalf("%s-%d on %s: fast engine: %v; reference: %v", n.OpType, n.Version, describeInputs(in), errFast, errRef)
		}
		return
	}
	if len(fast) != len(want) {
		t.Fatalf("%s-%d: %d outputs, reference %d", n.OpType, n.Version, len(fast), len(want))
	}
	for i := range fast {
		if !sameValue(fast[i], want[i]) {
			t.Fatalf("%s-%d on %s: output %d is %v, reference %v", n.OpType, n.Version, describeInputs(in), i, show(fast[i]), show(want[i]))
		}
	}
}

func describeInputs(in []tensor.Value) string {
	s := ""
	for _, v := range in {
		if v == nil {
			s += "<absent> "
		} else {
			s += v.Describe() + " "
		}
	}
	return s
}

func show(v tensor.Value) string {
	if t, ok := v.(*tensor.Tensor); ok && t.Len() < 64 {
		if t.DataType() == tensor.String {
			return fmt.Sprint(t.Describe(), t.Strings())
		}
		return fmt.Sprint(t.Describe(), t.Bytes())
	}
	if v == nil {
		return "<nil>"
	}
	return v.Describe()
}

// sameValue compares tensors bit for bit, and sequences and optionals item
// by item.
func sameValue(a, b tensor.Value) bool {
	switch x := a.(type) {
	case *tensor.Tensor:
		y, ok := b.(*tensor.Tensor)
		return ok && x.Equal(y)
	case *tensor.Sequence:
		y, ok := b.(*tensor.Sequence)
		if !ok || x.ElemType != y.ElemType || len(x.Items) != len(y.Items) {
			return false
		}
		for i := range x.Items {
			if !x.Items[i].Equal(y.Items[i]) {
				return false
			}
		}
		return true
	case *tensor.Optional:
		y, ok := b.(*tensor.Optional)
		if !ok || (x.Value == nil) != (y.Value == nil) {
			return false
		}
		return x.Value == nil || sameValue(x.Value, y.Value)
	}
	return false
}

func intAttribute(v int64) ops.Attribute { return ops.Attribute{Type: ops.AttrInt, Int: v} }

// randomShape returns a shape of rank in [lo, hi] with dims in [0, 4]
// (rarely 0).
func randomIndexingShape(r *rand.Rand, lo, hi int) []int {
	shape := make([]int, lo+r.IntN(hi-lo+1))
	for i := range shape {
		shape[i] = 1 + r.IntN(4)
		if r.IntN(20) == 0 {
			shape[i] = 0
		}
	}
	return shape
}

func TestGatherEngines(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 8))
	for _, dt := range tensor.AllTypes() {
		for _, version := range []int{1, 11, 13} {
			for range 6 {
				shape := randomIndexingShape(r, 1, 4)
				axis := r.IntN(2*len(shape)+1) - len(shape) // one out of range now and then
				a := (axis + len(shape)) % len(shape)
				if axis >= len(shape) {
					a = 0
				}
				ish := randomIndexingShape(r, 0, 2)
				idt := []tensor.DataType{tensor.Int32, tensor.Int64}[r.IntN(2)]
				n := &ops.Node{OpType: "Gather", Version: version, Attrs: map[string]ops.Attribute{"axis": intAttribute(int64(axis))}}
				bothEngines(t, n, randomIndexingTensor(r, dt, shape...), indexTensor(r, idt, shape[a]+r.IntN(2), ish...))
			}
		}
	}
}

// castTypes are the types Cast converts (complex excluded).
func castTypes() []tensor.DataType {
	var out []tensor.DataType
	for _, dt := range tensor.AllTypes() {
		if dt != tensor.Complex64 && dt != tensor.Complex128 {
			out = append(out, dt)
		}
	}
	return out
}

// specialFloats fills a float tensor's first elements with the values the
// conversion rules name: zeros, NaN, infinities, huge and tiny values, ties.
func specialFloats(t *tensor.Tensor) {
	special := []float64{0, math.Copysign(0, -1), math.NaN(), math.Inf(1), math.Inf(-1), 1e6, -1e6, 1e-9, 464, 65520, 0.5, 2.5, -3.5, 3e38, 1e300, 57344 + 4096}
	dt := t.DataType()
	if dt != tensor.Float && dt != tensor.Double {
		return
	}
	for i, v := range special {
		if i >= t.Len() {
			return
		}
		if dt == tensor.Float {
			binary.LittleEndian.PutUint32(t.Bytes()[4*i:], math.Float32bits(float32(v)))
		} else {
			binary.LittleEndian.PutUint64(t.Bytes()[8*i:], math.Float64bits(v))
		}
	}
}

func TestCastEngines(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 8))
	for _, from := range castTypes() {
		for _, to := range castTypes() {
			x := randomIndexingTensor(r, from, 40)
			specialFloats(x)
			if from == tensor.String {
				copy(x.Strings(), []string{"3.14", "-1e-5", "1E8", "+INF", "-inf", "NaN", "100.5", "-7", "65504", "1e300", "18446744073709551615"})
			}
			for _, version := range []int{6, 9, 13, 19, 21, 23, 24, 25} {
				for _, sat := range []int64{0, 1} {
					for _, mode := range []string{"up", "down", "nearest"} {
						n := &ops.Node{OpType: "Cast", Version: version, Attrs: map[string]ops.Attribute{
							"to": intAttribute(int64(to)), "saturate": intAttribute(sat), "round_mode": {Type: ops.AttrString, String: mode}}}
						bothEngines(t, n, x)
						like := &ops.Node{OpType: "CastLike", Version: max(version, 15), Attrs: map[string]ops.Attribute{
							"saturate": intAttribute(sat), "round_mode": {Type: ops.AttrString, String: mode}}}
						bothEngines(t, like, x, tensor.MustNew(to, 0))
					}
				}
			}
		}
	}
}

func TestConstantOfShapeEngines(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 8))
	for _, dt := range tensor.AllTypes() {
		for _, version := range []int{9, 20, 21, 23, 24, 25} {
			shape := randomIndexingShape(r, 0, 3)
			dims := make([]int64, len(shape))
			for i, d := range shape {
				dims[i] = int64(d)
			}
			n := &ops.Node{OpType: "ConstantOfShape", Version: version, Attrs: map[string]ops.Attribute{
				"value": {Type: ops.AttrTensor, Tensor: randomIndexingTensor(r, dt, 1)}}}
			bothEngines(t, n, tensor.MustFromSlice(dims))
			bothEngines(t, &ops.Node{OpType: "ConstantOfShape", Version: version}, tensor.MustFromSlice(dims))
		}
	}
	bothEngines(t, &ops.Node{OpType: "ConstantOfShape", Version: 9}, tensor.MustFromSlice([]int64{2, -1}))
}

func TestRangeEngines(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 8))
	for _, dt := range []tensor.DataType{tensor.Float, tensor.Double, tensor.Int16, tensor.Int32, tensor.Int64, tensor.Float16, tensor.BFloat16} {
		for _, version := range []int{11, 27} {
			for range 20 {
				start, limit, delta := r.IntN(41)-20, r.IntN(41)-20, r.IntN(9)-4
				scale := []float64{1, 0.1, 0.37}[r.IntN(3)]
				if dt.IsInteger() {
					scale = 1
				}
				arg := func(v int) *tensor.Tensor {
					x := tensor.MustNew(tensor.Double)
					binary.LittleEndian.PutUint64(x.Bytes(), math.Float64bits(float64(v)*scale))
					y, _ := ops.Cast(x, ops.CastOptions{To: dt})
					return y
				}
				// float and double are the valid stash types; the input's own is
				// refused for float16 and bfloat16 and ignored for the others.
				for _, stash := range []int64{int64(tensor.Float), int64(tensor.Double), int64(dt)} {
					n := &ops.Node{OpType: "Range", Version: version, Attrs: map[string]ops.Attribute{"stash_type": intAttribute(stash)}}
					if version < 27 {
						n.Attrs = nil
					}
					bothEngines(t, n, arg(start), arg(limit), arg(delta))
				}
			}
		}
	}
}

func TestGatherScatterElementsEngines(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 8))
	for _, dt := range tensor.AllTypes() {
		for range 8 {
			shape := randomIndexingShape(r, 1, 3)
			axis := r.IntN(len(shape))
			ish := append([]int{}, shape...)
			for d := range ish {
				if d == axis {
					ish[d] = r.IntN(4)
				} else if ish[d] > 0 {
					ish[d] = 1 + r.IntN(ish[d])
				}
			}
			data := randomIndexingTensor(r, dt, shape...)
			idt := []tensor.DataType{tensor.Int32, tensor.Int64}[r.IntN(2)]
			indices := indexTensor(r, idt, shape[axis], ish...)
			a := intAttribute(int64(axis - r.IntN(2)*len(shape)))
			for _, v := range []int{11, 13} {
				bothEngines(t, &ops.Node{OpType: "GatherElements", Version: v, Attrs: map[string]ops.Attribute{"axis": a}}, data, indices)
			}
			updates := randomIndexingTensor(r, dt, ish...)
			bothEngines(t, &ops.Node{OpType: "Scatter", Version: 9, Attrs: map[string]ops.Attribute{"axis": a}}, data, indices, updates)
			for _, v := range []int{11, 13, 16, 18} {
				for _, red := range []string{"none", "add", "mul", "max", "min"} {
					bothEngines(t, &ops.Node{OpType: "ScatterElements", Version: v, Attrs: map[string]ops.Attribute{
						"axis": a, "reduction": {Type: ops.AttrString, String: red}}}, data, indices, updates)
				}
			}
		}
	}
}

func TestGatherScatterNDEngines(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 8))
	for _, dt := range tensor.AllTypes() {
		for range 8 {
			shape := randomIndexingShape(r, 1, 4)
			b := r.IntN(len(shape))
			k := 1 + r.IntN(len(shape)-b)
			ish := append(append([]int{}, shape[:b]...), randomIndexingShape(r, 0, 2)...)
			ish = append(ish, k)
			raw := make([]int64, product(ish))
			for i := range raw {
				d := shape[b+i%k]
				raw[i] = int64(r.IntN(2*d+1) - d) // d itself now and then: out of range
				if r.IntN(8) != 0 && d > 0 {
					raw[i] = int64(r.IntN(2*d) - d)
				}
			}
			indices := tensor.MustFromSlice(raw, ish...)
			data := randomIndexingTensor(r, dt, shape...)
			for _, v := range []int{11, 12, 13} {
				n := &ops.Node{OpType: "GatherND", Version: v, Attrs: map[string]ops.Attribute{"batch_dims": intAttribute(int64(b))}}
				if v == 11 {
					n.Attrs = nil
				}
				bothEngines(t, n, data, indices)
			}
			if b == 0 {
				ush := append(append([]int{}, ish[:len(ish)-1]...), shape[k:]...)
				updates := randomIndexingTensor(r, dt, ush...)
				for _, v := range []int{11, 13, 16, 18} {
					for _, red := range []string{"none", "add", "mul", "max", "min"} {
						bothEngines(t, &ops.Node{OpType: "ScatterND", Version: v, Attrs: map[string]ops.Attribute{
							"reduction": {Type: ops.AttrString, String: red}}}, data, indices, updates)
					}
				}
			}
		}
	}
}

func product(dims []int) int {
	n := 1
	for _, d := range dims {
		n *= d
	}
	return n
}

func TestCreationAndSelectionEngines(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, dt := range tensor.AllTypes() {
		for range 6 {
			shape := randomIndexingShape(r, 0, 4)
			x := randomIndexingTensor(r, dt, shape...)
			// EyeLike: 2-D (and not), every dtype, diagonals on and off the matrix
			for _, v := range []int{9, 22} {
				to := tensor.AllTypes()[r.IntN(len(tensor.AllTypes()))]
				bothEngines(t, &ops.Node{OpType: "EyeLike", Version: v, Attrs: map[string]ops.Attribute{
					"k": intAttribute(int64(r.IntN(7) - 3)), "dtype": intAttribute(int64(to))}}, x)
				bothEngines(t, &ops.Node{OpType: "EyeLike", Version: v}, x)
			}
			// Trilu: upper and lower, k in and out of the matrix
			for _, upper := range []int64{0, 1} {
				k := tensor.MustFromSlice([]int64{int64(r.IntN(9) - 4)})
				bothEngines(t, &ops.Node{OpType: "Trilu", Version: 14, Attrs: map[string]ops.Attribute{"upper": intAttribute(upper)}}, x, k)
				bothEngines(t, &ops.Node{OpType: "Trilu", Version: 14}, x)
			}
			// NonZero
			for _, v := range []int{9, 13} {
				bothEngines(t, &ops.Node{OpType: "NonZero", Version: v}, x)
			}
			// Compress: with and without axis, conditions short, exact and long
			if len(shape) > 0 {
				axis := r.IntN(len(shape))
				cond := randomIndexingTensor(r, tensor.Bool, shape[axis]+r.IntN(3)-1+1)
				for _, v := range []int{9, 11} {
					bothEngines(t, &ops.Node{OpType: "Compress", Version: v, Attrs: map[string]ops.Attribute{"axis": intAttribute(int64(axis - r.IntN(2)*len(shape)))}}, x, cond)
					bothEngines(t, &ops.Node{OpType: "Compress", Version: v}, x, randomIndexingTensor(r, tensor.Bool, r.IntN(x.Len()+2)))
				}
			}
			// OneHot: x as indices when numeric, then as values
			depth := tensor.MustFromSlice([]float32{float32(r.IntN(5)) + 0.5})
			vals := randomIndexingTensor(r, dt, 2)
			idx := indexTensor(r, tensor.Int64, 4, randomIndexingShape(r, 0, 3)...)
			for _, v := range []int{9, 11} {
				a := intAttribute(int64(r.IntN(idx.Rank()+3) - idx.Rank() - 1))
				bothEngines(t, &ops.Node{OpType: "OneHot", Version: v, Attrs: map[string]ops.Attribute{"axis": a}}, idx, depth, vals)
				bothEngines(t, &ops.Node{OpType: "OneHot", Version: v}, x, depth, vals)
			}
			// ReverseSequence
			if len(shape) >= 2 {
				batchAxis := r.IntN(2)
				lens := make([]int64, shape[batchAxis])
				for i := range lens {
					lens[i] = int64(r.IntN(shape[1-batchAxis] + 2))
				}
				bothEngines(t, &ops.Node{OpType: "ReverseSequence", Version: 10, Attrs: map[string]ops.Attribute{
					"batch_axis": intAttribute(int64(batchAxis)), "time_axis": intAttribute(int64(1 - batchAxis))}}, x, tensor.MustFromSlice(lens))
			}
		}
	}
}

func TestUniqueEngines(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 8))
	for _, dt := range tensor.AllTypes() {
		for range 6 {
			shape := randomIndexingShape(r, 0, 3)
			x := randomIndexingTensor(r, dt, shape...)
			// few distinct values, so that duplicates happen
			if x.Len() > 2 && dt != tensor.String {
				size := dt.Size()
				for i := range x.Len() {
					copy(x.Bytes()[i*size:(i+1)*size], x.Bytes()[(i%3)*size:(i%3+1)*size])
				}
			}
			for _, sorted := range []int64{0, 1} {
				n := &ops.Node{OpType: "Unique", Version: 11, NumOutputs: 4, Attrs: map[string]ops.Attribute{"sorted": intAttribute(sorted)}}
				bothEngines(t, n, x)
				if len(shape) > 0 {
					n = &ops.Node{OpType: "Unique", Version: 11, NumOutputs: 1 + r.IntN(4), Attrs: map[string]ops.Attribute{
						"sorted": intAttribute(sorted), "axis": intAttribute(int64(r.IntN(2*len(shape)) - len(shape)))}}
					bothEngines(t, n, x)
				}
			}
		}
	}
}

func TestSequenceAndOptionalEngines(t *testing.T) {
	r := rand.New(rand.NewPCG(10, 8))
	for _, dt := range []tensor.DataType{tensor.Float, tensor.Int64, tensor.String, tensor.Bool, tensor.Float16, tensor.Int4} {
		for range 6 {
			shape := randomIndexingShape(r, 1, 3)
			items := make([]*tensor.Tensor, r.IntN(4))
			for i := range items {
				s := append([]int{}, shape...)
				s[0] = r.IntN(3)
				items[i] = randomIndexingTensor(r, dt, s...)
			}
			seq := &tensor.Sequence{ElemType: dt, Items: items}
			node := func(op string, version int, attrs map[string]ops.Attribute) *ops.Node {
				return &ops.Node{OpType: op, Version: version, Attrs: attrs}
			}
			pos := func() *tensor.Tensor {
				return tensor.MustFromSlice([]int64{int64(r.IntN(2*len(items)+3) - len(items) - 1)})
			}
			bothEngines(t, node("SequenceEmpty", 11, map[string]ops.Attribute{"dtype": intAttribute(int64(dt))}))
			if len(items) > 0 {
				in := make([]tensor.Value, len(items))
				for i, x := range items {
					in[i] = x
				}
				bothEngines(t, node("SequenceConstruct", 11, nil), in...)
			}
			bothEngines(t, node("SequenceAt", 11, nil), seq, pos())
			bothEngines(t, node("SequenceInsert", 11, nil), seq, randomIndexingTensor(r, dt, shape...), pos())
			bothEngines(t, node("SequenceInsert", 11, nil), seq, randomIndexingTensor(r, dt, shape...))
			bothEngines(t, node("SequenceErase", 11, nil), seq, pos())
			bothEngines(t, node("SequenceErase", 11, nil), seq)
			bothEngines(t, node("SequenceLength", 11, nil), seq)
			for _, newAxis := range []int64{0, 1} {
				bothEngines(t, node("ConcatFromSequence", 11, map[string]ops.Attribute{
					"axis": intAttribute(int64(r.IntN(2*len(shape)+2) - len(shape) - 1)), "new_axis": intAttribute(newAxis)}), seq)
			}
			x := randomIndexingTensor(r, dt, shape...)
			axis := intAttribute(int64(r.IntN(2*len(shape)) - len(shape)))
			for _, keep := range []int64{0, 1} {
				attrs := map[string]ops.Attribute{"axis": axis, "keepdims": intAttribute(keep)}
				bothEngines(t, node("SplitToSequence", 11, attrs), x)
				bothEngines(t, node("SplitToSequence", 11, attrs), x, tensor.Scalar(int64(r.IntN(4))))
				bothEngines(t, node("SplitToSequence", 11, attrs), x, tensor.MustFromSlice([]int32{int32(r.IntN(3)), int32(r.IntN(3))}))
			}
			empty := &tensor.Optional{ElemType: "tensor(float)"}
			full := &tensor.Optional{Value: x}
			bothEngines(t, node("Optional", 15, nil), x)
			bothEngines(t, node("Optional", 15, nil), seq)
			bothEngines(t, node("Optional", 15, map[string]ops.Attribute{"type": {Type: ops.AttrTypeProto, String: "tensor(float)"}}))
			for _, v := range []int{15, 18} {
				for _, in := range []tensor.Value{empty, full, x, seq, &tensor.Optional{Value: seq}} {
					bothEngines(t, node("OptionalHasElement", v, nil), in)
					bothEngines(t, node("OptionalGetElement", v, nil), in)
				}
			}
			bothEngines(t, node("OptionalHasElement", 18, nil), nil)
		}
	}
}

func TestBitCastEngines(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 8))
	for _, from := range tensor.AllTypes() {
		x := randomIndexingTensor(r, from, 3, 5)
		for _, to := range tensor.AllTypes() {
			bothEngines(t, &ops.Node{OpType: "BitCast", Version: 26, Attrs: map[string]ops.Attribute{"to": intAttribute(int64(to))}}, x)
		}
	}
}

func TestTensorScatterEngines(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 8))
	for _, dt := range tensor.AllTypes() {
		for range 6 {
			shape := randomIndexingShape(r, 2, 4)
			axis := 1 + r.IntN(len(shape)-1)
			ushape := append([]int{}, shape...)
			ushape[axis] = r.IntN(shape[axis] + 2)
			starts := make([]int64, shape[0])
			for i := range starts {
				starts[i] = int64(r.IntN(shape[axis]+1)) - int64(r.IntN(2))
			}
			for _, mode := range []string{"linear", "circular", "bogus"} {
				attrs := map[string]ops.Attribute{"axis": intAttribute(int64(axis - r.IntN(2)*len(shape))), "mode": {Type: ops.AttrString, String: mode}}
				past, update := randomIndexingTensor(r, dt, shape...), randomIndexingTensor(r, dt, ushape...)
				bothEngines(t, &ops.Node{OpType: "TensorScatter", Version: 24, Attrs: attrs}, past, update, tensor.MustFromSlice(starts))
				bothEngines(t, &ops.Node{OpType: "TensorScatter", Version: 24, Attrs: attrs}, past, update)
			}
		}
	}
}

func TestWindowEngines(t *testing.T) {
	for _, op := range []string{"HannWindow", "HammingWindow", "BlackmanWindow"} {
		for _, dt := range tensor.AllTypes() {
			for _, size := range []int64{-1, 0, 1, 2, 7, 64} {
				for _, periodic := range []int64{0, 1} {
					bothEngines(t, &ops.Node{OpType: op, Version: 17, Attrs: map[string]ops.Attribute{
						"output_datatype": intAttribute(int64(dt)), "periodic": intAttribute(periodic)}}, tensor.MustFromSlice([]int32{int32(size)}))
				}
			}
		}
	}
}

func TestQuantizeEngines(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 8))
	quantized := []tensor.DataType{tensor.Uint8, tensor.Int8, tensor.Int16, tensor.Uint16, tensor.Int4, tensor.Uint4, tensor.Int2, tensor.Uint2,
		tensor.Float8E4M3FN, tensor.Float8E4M3FNUZ, tensor.Float8E5M2, tensor.Float8E5M2FNUZ, tensor.Float4E2M1, tensor.Int32}
	scales := []tensor.DataType{tensor.Float, tensor.Float16, tensor.BFloat16, tensor.Double}
	for _, version := range []int{10, 13, 19, 21, 23, 24, 25} {
		for _, qt := range quantized {
			for range 3 {
				shape := randomIndexingShape(r, 1, 3)
				axis := r.IntN(len(shape))
				block := 0
				sshape := []int{}
				switch r.IntN(3) {
				case 1:
					sshape = []int{shape[axis]}
				case 2:
					block = 1 + r.IntN(3)
					sshape = append([]int{}, shape...)
					sshape[axis] = (shape[axis] + block - 1) / block
				}
				st := scales[r.IntN(len(scales))]
				scale := randomIndexingTensor(r, st, sshape...)
				if st == tensor.Float { // small positive scales, so that values land in range
					for i := range scale.Len() {
						binary.LittleEndian.PutUint32(scale.Bytes()[4*i:], math.Float32bits(0.01+r.Float32()))
					}
				}
				zero := randomIndexingTensor(r, qt, sshape...)
				attrs := map[string]ops.Attribute{"axis": intAttribute(int64(axis)), "block_size": intAttribute(int64(block)),
					"saturate": intAttribute(int64(r.IntN(2)))}
				if version < 13 {
					delete(attrs, "axis")
				}
				if version < 21 {
					delete(attrs, "block_size")
				}
				if version < 19 {
					delete(attrs, "saturate")
				}
				q := randomIndexingTensor(r, qt, shape...)
				bothEngines(t, &ops.Node{OpType: "DequantizeLinear", Version: version, Attrs: attrs}, q, scale, zero)
				bothEngines(t, &ops.Node{OpType: "DequantizeLinear", Version: version, Attrs: attrs}, q, scale)
				x := randomIndexingTensor(r, []tensor.DataType{tensor.Float, tensor.Float16, tensor.Int32}[r.IntN(3)], shape...)
				if x.DataType() == tensor.Float {
					for i := range x.Len() {
						binary.LittleEndian.PutUint32(x.Bytes()[4*i:], math.Float32bits(r.Float32()*600-300))
					}
				}
				qattrs := map[string]ops.Attribute{}
				for k, v := range attrs {
					qattrs[k] = v
				}
				if version >= 21 {
					qattrs["output_dtype"] = intAttribute(int64(qt))
				}
				bothEngines(t, &ops.Node{OpType: "QuantizeLinear", Version: version, Attrs: qattrs}, x, scale, zero)
				bothEngines(t, &ops.Node{OpType: "QuantizeLinear", Version: version, Attrs: qattrs}, x, scale)
				if version >= 23 {
					qattrs["precision"] = intAttribute(int64(scales[r.IntN(len(scales))]))
					bothEngines(t, &ops.Node{OpType: "QuantizeLinear", Version: version, Attrs: qattrs}, x, scale, zero)
				}
			}
		}
	}
}

func TestDynamicQuantizeLinearEngines(t *testing.T) {
	r := rand.New(rand.NewPCG(14, 8))
	for range 40 {
		x := tensor.MustNew(tensor.Float, randomIndexingShape(r, 0, 3)...)
		lo, width := r.Float32()*10-8, r.Float32()*20
		for i := range x.Len() {
			binary.LittleEndian.PutUint32(x.Bytes()[4*i:], math.Float32bits(lo+r.Float32()*width))
		}
		bothEngines(t, &ops.Node{OpType: "DynamicQuantizeLinear", Version: 11, NumOutputs: 3}, x)
	}
	// Shapes that reach the vector loops (16 and 8 at a time) with a tail,
	// and the 16K-element blocks the kernel spreads over the cores.
	for _, shape := range [][]int{{3, 37}, {64, 512}, {5, 16384 + 7}} {
		x := tensor.MustNew(tensor.Float, shape...)
		for i := range x.Len() {
			binary.LittleEndian.PutUint32(x.Bytes()[4*i:], math.Float32bits(float32(r.NormFloat64()*3-1)))
		}
		bothEngines(t, &ops.Node{OpType: "DynamicQuantizeLinear", Version: 11, NumOutputs: 3}, x)
	}
	bothEngines(t, &ops.Node{OpType: "DynamicQuantizeLinear", Version: 11, NumOutputs: 3}, tensor.MustFromSlice([]float32{0, 0}))
	bothEngines(t, &ops.Node{OpType: "DynamicQuantizeLinear", Version: 11, NumOutputs: 3}, tensor.MustFromSlice([]float32{1, float32(math.NaN())}))
}

func TestStringOperatorEngines(t *testing.T) {
	texts := tensor.MustFromSlice([]string{"", " ", "a", "a-b", "--a--b-", "  hello   world ! ", "www.google.com", "x@gmail.com", "é ü\tß\n", "a- -b"}, 2, 5)
	for _, pattern := range []string{`www\.[\w.-]+\.\bcom\b`, `(\W|^)[\w.\-]{0,25}@(yahoo|gmail)\.com(\W|$)`, `a|a-b`, ``, `(`} {
		bothEngines(t, &ops.Node{OpType: "RegexFullMatch", Version: 20, Attrs: map[string]ops.Attribute{"pattern": {Type: ops.AttrString, String: pattern}}}, texts)
	}
	for _, delim := range []string{"", "-", "--", " ", "ab"} {
		for _, maxsplit := range []int64{-2, 0, 1, 2, 5} {
			attrs := map[string]ops.Attribute{"delimiter": {Type: ops.AttrString, String: delim}, "maxsplit": intAttribute(maxsplit)}
			bothEngines(t, &ops.Node{OpType: "StringSplit", Version: 20, NumOutputs: 2, Attrs: attrs}, texts)
		}
		bothEngines(t, &ops.Node{OpType: "StringSplit", Version: 20, NumOutputs: 2, Attrs: map[string]ops.Attribute{"delimiter": {Type: ops.AttrString, String: delim}}}, texts)
	}
	bothEngines(t, &ops.Node{OpType: "StringSplit", Version: 20, NumOutputs: 2}, tensor.MustFromSlice([]string{}))
}

func TestStringNormalizerEngines(t *testing.T) {
	words := []string{"Monday", "monday", "MONDAY", "tuesday", "Straße", "ǅemal", "", "ΣΑΣ"}
	for _, shape := range [][]int{{8}, {1, 8}, {2, 4}} {
		x := tensor.MustFromSlice(words, shape...)
		for _, action := range []string{"NONE", "LOWER", "UPPER", "bogus"} {
			for _, sensitive := range []int64{0, 1} {
				for _, stop := range [][]string{nil, {"monday"}, {"MONDAY", "straße", ""}, words} {
					attrs := map[string]ops.Attribute{"case_change_action": {Type: ops.AttrString, String: action},
						"is_case_sensitive": intAttribute(sensitive)}
					if stop != nil {
						attrs["stopwords"] = ops.Attribute{Type: ops.AttrStrings, Strings: stop}
					}
					bothEngines(t, &ops.Node{OpType: "StringNormalizer", Version: 10, Attrs: attrs}, x)
				}
			}
		}
	}
}

func TestStringConcatEngines(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 8))
	for range 40 {
		a := randomIndexingShape(r, 0, 3)
		b := append([]int{}, a[r.IntN(len(a)+1):]...)
		for i := range b {
			if r.IntN(3) == 0 {
				b[i] = 1
			}
		}
		if r.IntN(2) == 0 {
			a, b = b, a
		}
		bothEngines(t, &ops.Node{OpType: "StringConcat", Version: 20}, randomIndexingTensor(r, tensor.String, a...), randomIndexingTensor(r, tensor.String, b...))
	}
	bothEngines(t, &ops.Node{OpType: "StringConcat", Version: 20}, randomIndexingTensor(r, tensor.String, 2, 3), randomIndexingTensor(r, tensor.String, 4))
}

func TestNonMaxSuppressionEngines(t *testing.T) {
	r := rand.New(rand.NewPCG(16, 8))
	for range 60 {
		b, c, nb := r.IntN(3), 1+r.IntN(3), r.IntN(8)
		boxes := tensor.MustNew(tensor.Float, b, nb, 4)
		for i := range boxes.Len() {
			binary.LittleEndian.PutUint32(boxes.Bytes()[4*i:], math.Float32bits(float32(r.IntN(12))/2))
		}
		scores := tensor.MustNew(tensor.Float, b, c, nb)
		for i := range scores.Len() {
			binary.LittleEndian.PutUint32(scores.Bytes()[4*i:], math.Float32bits(float32(r.IntN(5))/4))
		}
		attrs := map[string]ops.Attribute{"center_point_box": intAttribute(int64(r.IntN(2)))}
		in := []tensor.Value{boxes, scores, tensor.MustFromSlice([]int64{int64(r.IntN(5))}),
			tensor.MustFromSlice([]float32{float32(r.IntN(5)) / 5}), tensor.MustFromSlice([]float32{float32(r.IntN(4)) / 4})}
		for k := 2; k <= 5; k++ {
			bothEngines(t, &ops.Node{OpType: "NonMaxSuppression", Version: 11, Attrs: attrs}, in[:k]...)
		}
	}
}

// TestNonMaxSuppressionManyBoxes holds the fast engine's grid of kept boxes
// to the reference on hundreds of boxes: clusters that overlap, wide boxes,
// boxes of no area, inverted or with NaN or infinite corners, tied and NaN
// scores, in both box formats, with and without a score threshold.
func TestNonMaxSuppressionManyBoxes(t *testing.T) {
	r := rand.New(rand.NewPCG(26, 11))
	coord := func(center bool) []float32 {
		x, y := float32(r.IntN(8))*40+r.Float32()*10, float32(r.IntN(8))*40+r.Float32()*10
		w, h := 4+r.Float32()*30, 4+r.Float32()*30
		switch r.IntN(20) {
		case 0:
			w *= 20 // spans many cells
		case 1:
			w = 0
		case 2:
			w = -w
		case 3:
			h = float32(math.NaN())
		case 4:
			x = float32(math.Inf(1 - 2*r.IntN(2)))
		case 5:
			w, h = -w, -h
		case 6:
			w = float32(r.IntN(2)) * 1e-30
		}
		if center {
			return []float32{x, y, w, h}
		}
		if r.IntN(2) == 0 {
			return []float32{y, x, y + h, x + w}
		}
		return []float32{y + h, x + w, y, x}
	}
	for trial := range 24 {
		center := trial%2 == 1
		b, c, nb := 1+r.IntN(2), 1+r.IntN(3), 50+r.IntN(250)
		box := make([]float32, 0, b*nb*4)
		for range b * nb {
			box = append(box, coord(center)...)
		}
		score := make([]float32, b*c*nb)
		for i := range score {
			switch r.IntN(12) {
			case 0:
				score[i] = float32(math.NaN())
			case 1, 2, 3:
				score[i] = float32(r.IntN(4)) / 4
			default:
				score[i] = r.Float32()
			}
		}
		attrs := map[string]ops.Attribute{"center_point_box": intAttribute(map[bool]int64{false: 0, true: 1}[center])}
		in := []tensor.Value{tensor.MustFromSlice(box, b, nb, 4), tensor.MustFromSlice(score, b, c, nb),
			tensor.MustFromSlice([]int64{int64([]int{nb, nb / 3, 5}[r.IntN(3)])}),
			tensor.MustFromSlice([]float32{[]float32{0, 0.3, 0.5, 0.9}[r.IntN(4)]}),
			tensor.MustFromSlice([]float32{[]float32{0.25, 0.5, -1}[r.IntN(3)]})}
		for k := 3; k <= 5; k++ {
			bothEngines(t, &ops.Node{OpType: "NonMaxSuppression", Version: 11, Attrs: attrs}, in[:k]...)
		}
	}
}
