// Where selects, elementwise, X where condition is true and Y where it is
// false; the three inputs broadcast to each other (numpy's rule).
//
// Versions: 9, and 16, which adds bfloat16; X and Y are of any one type
// the version lists (every number, bool, string, complex). The rules:
// [type] condition is bool and Y's type is X's, one the version allows;
// [broadcast] the three shapes broadcast. The kernel only moves data, so
// it runs on the element's size.

package ops

import (
	"github.com/onnxshape/onnxshape/ops/internal/elementwise"
	"github.com/onnxshape/onnxshape/tensor"
)

var whereTypes = func() versionTypes {
	t := numberTypes | boolTypes | typesOf(tensor.String, tensor.Complex64, tensor.Complex128)
	return versionTypes{9: t, 16: t | typesOf(tensor.BFloat16)}
}()

func init() {
	register("Where", []int{9, 16}, [2]int{3, 3}, [2]int{1, 1}, whereNode)
	declareAttrs("Where")
}

// Where returns x where cond is true and y elsewhere, the three broadcast
// (ONNX Where, version 16).
func Where(cond, x, y *tensor.Tensor, opts ...Option) (*tensor.Tensor, error) {
	op := opRef{"Where", 16}
	opt, err := callOptions(op, opts)
	if err != nil {
		return nil, err
	}
	return where(opt, op, cond, x, y)
}

func whereNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	var ts [3]*tensor.Tensor
	for i, name := range []string{"condition", "X", "Y"} {
		t, err := n.requiredInput(in, i, name)
		if err != nil {
			return nil, err
		}
		ts[i] = t
	}
	z, err := where(opt, n.op(), ts[0], ts[1], ts[2])
	if err != nil {
		return nil, err
	}
	return values(z), nil
}

func where(opt *Options, op opRef, cond, x, y *tensor.Tensor) (*tensor.Tensor, error) {
	opt = opt.orDefault()
	for _, t := range []struct {
		name string
		t    *tensor.Tensor
	}{{"condition", cond}, {"X", x}, {"Y", y}} {
		if err := checkInput(op, t.name, t.t); err != nil {
			return nil, err
		}
	}
	if cond.DataType() != tensor.Bool {
		return nil, op.errorf("type", "condition must be bool, got %v", cond.DataType())
	}
	if err := whereTypes.check(op, "X", x.DataType()); err != nil {
		return nil, err
	}
	if y.DataType() != x.DataType() {
		return nil, op.errorf("type", "Y of type %v must have X's type %v", y.DataType(), x.DataType())
	}
	// SONNX (based on Where 16): condition, X and Y have one shape
	// (condition [C1]).
	if err := opt.sameShapes(op, x.DataType(), []string{"condition", "X", "Y"}, cond.Shape(), x.Shape(), y.Shape()); err != nil {
		return nil, err
	}
	out, err := whereShape(op, cond.Shape(), x.Shape(), y.Shape())
	if err != nil {
		return nil, err
	}
	z, err := opt.newOverwritten(op, x.DataType(), out)
	if err != nil {
		return nil, err
	}
	w := newBroadcastWalk(out, cond.Shape(), x.Shape(), y.Shape())
	switch {
	case x.DataType() == tensor.String:
		err = whereRun(opt, w, z, cond, x, y, selectAny[string])
	case x.DataType().Size() == 1:
		err = whereRun(opt, w, z, cond, x, y, elementwise.SelectWords[uint8])
	case x.DataType().Size() == 2:
		err = whereRun(opt, w, z, cond, x, y, elementwise.SelectWords[uint16])
	case x.DataType().Size() == 4:
		err = whereRun(opt, w, z, cond, x, y, elementwise.Select32)
	case x.DataType().Size() == 8:
		err = whereRun(opt, w, z, cond, x, y, elementwise.SelectWords[uint64])
	default: // complex128
		err = whereRun(opt, w, z, cond, x, y, selectAny[[2]uint64])
	}
	if err != nil {
		return nil, op.wrap("cancelled", err, "run stopped")
	}
	return z, nil
}

// whereShape is the output shape: the broadcast of the three shapes.
func whereShape(op opRef, cond, x, y []int) ([]int, error) {
	out, err := broadcastShapes(cond, x)
	if err == nil {
		out, err = broadcastShapes(out, y)
	}
	if err != nil {
		return nil, op.errorf("broadcast", "condition %v, X %v and Y %v: %v", cond, x, y, err)
	}
	return out, nil
}

// whereRun walks the broadcast; selectAll is the loop for a span over
// which all three inputs advance.
func whereRun[T any](opt *Options, w *broadcastWalk, z, cond, x, y *tensor.Tensor, selectAll func(o []T, c []uint8, a, b []T)) error {
	o, c, a, b := elems[T](z), elems[uint8](cond), elems[T](x), elems[T](y)
	sc, sa, sb := w.Step[0], w.Step[1], w.Step[2]
	return w.Run(opt.elementwise(), max(z.DataType().Size(), 8), func(oo int, in []int, n int) {
		o := o[oo : oo+n]
		switch {
		case sc == 1 && sa == 1 && sb == 1:
			selectAll(o, c[in[0]:in[0]+n], a[in[1]:in[1]+n], b[in[2]:in[2]+n])
		case sc == 0:
			src, at, step := b, in[2], sb
			if c[in[0]] != 0 {
				src, at, step = a, in[1], sa
			}
			if step == 1 {
				copy(o, src[at:at+n])
			} else {
				for i := range o {
					o[i] = src[at]
				}
			}
		case sc == 1 && selectSteps(o, c[in[0]:in[0]+n], a[in[1]:], sa, b[in[2]:], sb):
		default:
			c := c[in[0] : in[0]+n]
			for i := range o {
				v := b[in[2]+i*sb]
				if c[i] != 0 {
					v = a[in[1]+i*sa]
				}
				o[i] = v
			}
		}
	})
}

// selectAny is the select loop of elements that are not machine words.
func selectAny[T any](o []T, c []uint8, a, b []T) {
	for i := range o {
		if c[i] != 0 {
			o[i] = a[i]
		} else {
			o[i] = b[i]
		}
	}
}

// selectSteps runs the branch-free select of machine words over a span
// where the condition advances and X or Y may be a broadcast scalar,
// reporting false for the other element types.
func selectSteps[T any](o []T, c []uint8, a []T, sa int, b []T, sb int) bool {
	switch o := any(o).(type) {
	case []uint8:
		elementwise.SelectSteps(o, c, any(a).([]uint8), sa, any(b).([]uint8), sb)
	case []uint16:
		elementwise.SelectSteps(o, c, any(a).([]uint16), sa, any(b).([]uint16), sb)
	case []uint32:
		elementwise.SelectSteps(o, c, any(a).([]uint32), sa, any(b).([]uint32), sb)
	case []uint64:
		elementwise.SelectSteps(o, c, any(a).([]uint64), sa, any(b).([]uint64), sb)
	default:
		return false
	}
	return true
}
