// Loop runs its body again and again, carrying values from one iteration
// to the next, while an iteration count M is not reached and a condition
// holds; the body's scan outputs of every iteration are stacked along a
// new first axis.
//
// Versions: 1 and 11 (M and cond optional in both, as the spec's table
// says; 11 lets loop-carried values change shape); 13 (loop-carried values
// may be sequences); 16 (optionals); 19, 21, 23, 24 and 25 add element
// types. The body has 2+N inputs (iteration number, condition, N
// loop-carried values) and 1+N+K outputs (condition, N loop-carried
// values, K scan outputs); the node's outputs are the N final values and
// the K stacked scan outputs. Without cond the body's condition output is
// ignored; without M the loop runs while the condition holds: a loop that
// never ends is stopped by the run's context, and its scan outputs by the
// run's byte cap, each iteration's being charged as it is kept.
//
// Constraints, in order: [trip-count] M is an int64 tensor of one
// element; [cond] cond is a bool tensor of one element; [body] the body is
// set and has 2+N inputs and at least 1+N outputs; [type] loop-carried
// values are of a kind the version takes; [scan-output] scan outputs are
// tensors of one shape and type.

package ops

import (
	"math"
	"slices"
	"unsafe"

	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("Loop", []int{1, 11, 13, 16, 19, 21, 23, 24, 25}, [2]int{2, -1}, [2]int{1, -1}, loopNode)
	declareAttrs("Loop", AttrSpec{Name: "body", Type: AttrGraph})
}

func loopNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	op := n.op()
	trips := int64(-1) // no count
	m, err := n.tensorInput(in, 0)
	if err != nil {
		return nil, err
	}
	if m != nil {
		if m.DataType() != tensor.Int64 || m.Len() != 1 {
			return nil, op.errorf("trip-count", "M must be an int64 tensor of one element, got %s", m.Describe())
		}
		v, _ := m.Int64s()
		trips = max(v[0], 0)
	}
	c, err := n.tensorInput(in, 1)
	if err != nil {
		return nil, err
	}
	cond := true
	if c != nil {
		if cond, err = conditionOf(op, "cond", c); err != nil {
			return nil, err
		}
	}
	body, err := keptGraphs(n, "body", "").graph(0)
	if err != nil {
		return nil, err
	}
	if body == nil || body.Run == nil {
		return nil, op.errorf("body", "attribute body holds no graph")
	}
	state := make([]tensor.Value, 0, len(in))
	for i, v := range in[2:] {
		if err := checkFlowKind(op, "loop-carried input", i, v); err != nil {
			return nil, err
		}
		state = append(state, v)
	}
	nState := len(state)
	if body.Inputs != 2+nState {
		return nil, op.errorf("body", "the body has %d inputs, the node gives %d loop-carried values (the body takes 2 more)", body.Inputs, nState)
	}
	nScan := body.Outputs - 1 - nState
	if nScan < 0 {
		return nil, op.errorf("body", "the body has %d outputs, fewer than the condition and %d loop-carried values", body.Outputs, nState)
	}
	scans := make([]loopStack, nScan)
	exact := m != nil && c == nil // exactly trips iterations
	args := make([]tensor.Value, 2+nState)
	// The iteration number and the condition are handed to the body in
	// two scalars made once and rewritten at each iteration, unless the
	// body passed one of them on into a loop-carried value: then the
	// next iteration gets new ones.
	var iter, going *tensor.Tensor
	var iterKey, goingKey *byte // their storage
	var later []tensor.Value    // scan outputs to give back at a later iteration
	if body.Done != nil && nScan > 0 {
		later = make([]tensor.Value, 0, maxLater)
	}
	for i := int64(0); (trips < 0 || i < trips) && cond; i++ {
		if err := opt.cancelled(); err != nil {
			return nil, op.stopped(err)
		}
		if iter == nil {
			iter, going = tensor.Scalar(i), tensor.Scalar(cond)
		}
		elems[int64](iter)[0] = i
		going.Bytes()[0] = 0
		if cond {
			going.Bytes()[0] = 1
		}
		args[0], args[1] = iter, going
		copy(args[2:], state)
		out, err := body.Run(opt, args)
		if err != nil {
			return nil, err
		}
		if len(out) != body.Outputs {
			return nil, op.errorf("body", "the body produced %d outputs, it declares %d", len(out), body.Outputs)
		}
		prev := args[2:] // the values the iteration was given
		if c != nil || m == nil {
			t, ok := out[0].(*tensor.Tensor)
			if !ok || t == nil {
				return nil, op.errorf("cond", "the body's condition output is %s, not a tensor", describe(out[0]))
			}
			if cond, err = conditionOf(op, "the body's condition output", t); err != nil {
				return nil, err
			}
		}
		for k, v := range out[1 : 1+nState] {
			if err := checkFlowKind(op, "loop-carried output", k, v); err != nil {
				return nil, err
			}
			state[k] = v
		}
		for k, v := range out[1+nState:] {
			bound := int64(-1)
			if exact {
				bound = trips - i
			}
			if err := scans[k].push(opt, op, k, v, bound); err != nil {
				return nil, err
			}
		}
		if body.Done != nil {
			// What the body returned and the loop no longer reads goes
			// back for the next iteration's values: the carried values
			// of the iteration before (the body's but at the first), the
			// condition, the scan outputs now copied to their stacks.
			held := out[1 : 1+nState]
			if i > 0 {
				giveBack(opt, body, prev, held)
			}
			giveBack(opt, body, out[:1], held)
			if nScan > 0 {
				later = giveBackLater(opt, body, later, held, later[:0])
				later = giveBackLater(opt, body, out[1+nState:], held, later)
			}
		}
		if iterKey == nil {
			iterKey, goingKey = unsafe.SliceData(iter.Bytes()), unsafe.SliceData(going.Bytes())
		}
		for _, v := range out[1 : 1+nState] {
			if holdsStorage(v, iterKey) || holdsStorage(v, goingKey) {
				iter, going, iterKey, goingKey = nil, nil, nil, nil
				break
			}
		}
	}
	res := state
	for k := range scans {
		y, err := scans[k].result(opt, op, body.OutputTypes, 1+nState+k)
		if err != nil {
			return nil, err
		}
		res = append(res, y)
	}
	return res, nil
}

// holdsStorage reports whether v holds a tensor whose storage starts at key.
func holdsStorage(v tensor.Value, key *byte) bool {
	switch v := v.(type) {
	case *tensor.Tensor:
		return v != nil && v.DataType() != tensor.String && unsafe.SliceData(v.Bytes()) == key
	case *tensor.Sequence:
		if v != nil {
			for _, x := range v.Items {
				if holdsStorage(x, key) {
					return true
				}
			}
		}
	case *tensor.Optional:
		return v != nil && v.Value != nil && holdsStorage(v.Value, key)
	}
	return false
}

// describe is Describe for a value that may be nil.
func describe(v tensor.Value) string {
	if v == nil {
		return "missing"
	}
	return v.Describe()
}

// loopStack is one stacked scan output of a Loop: each iteration's
// element is copied to the end of a tensor of room elements, made at the
// first iteration (for all of them when the count is known) and doubled
// when full, so that the loop keeps no element the body returned.
type loopStack struct {
	y          *tensor.Tensor // [room, elem...]
	elem       []int
	n, room    int
	elemLength int // elements of one element
}

// loopStackRoom is the room a stack starts with when the number of
// iterations is not known.
const loopStackRoom = 16

// push copies v, the scan output k of an iteration, to the end of the
// stack; bound, when not negative, is the iterations left, this one
// included. Each element counts scanStepBytes besides its bytes, as a
// Scan's step does: the run's cap bounds the iterations of a loop of
// empty scan outputs that never ends.
func (st *loopStack) push(opt *Options, op opRef, k int, v tensor.Value, bound int64) error {
	t, ok := v.(*tensor.Tensor)
	if !ok || t == nil {
		return op.errorf("scan-output", "scan output %d is %s, not a tensor", k, describe(v))
	}
	if err := checkInput(op, "scan output", t); err != nil {
		return err
	}
	if st.y != nil && (st.y.DataType() != t.DataType() || !tensor.SameShape(st.elem, t.Shape())) {
		return op.errorf("scan-output", "scan output %d is %v %v in one iteration and %s in another", k, st.y.DataType(), st.elem, t.Describe())
	}
	if err := opt.charge(op, "a scan output's element", scanStepBytes); err != nil {
		return err
	}
	if st.n == st.room {
		room := max(2*st.room, loopStackRoom)
		left := int(min(bound, math.MaxInt32)) // bound < 0: not known
		if st.y == nil {
			st.elem, st.elemLength = slices.Clone(t.Shape()), t.Len()
			if left >= 0 {
				room = left // the final size, allocated once
			}
		}
		if left >= 0 {
			room = min(room, st.n+left)
		}
		shape := append(append(make([]int, 0, len(st.elem)+1), room), st.elem...)
		y, err := opt.newOverwritten(op, t.DataType(), shape)
		if err != nil {
			return err
		}
		if st.y != nil {
			copyBlocks(y, st.y, 1, st.n*st.elemLength, 0, 0, 0, 0)
		}
		st.y, st.room = y, room
	}
	copyBlocks(st.y, t, 1, st.elemLength, 0, st.n*st.elemLength, 0, 0)
	st.n++
	return nil
}

// result is the stacked output: the stack itself when full, else its
// elements copied to a tensor of their number; an empty tensor of the
// type the body declares for output out (float when it declares none)
// when the body never ran.
func (st *loopStack) result(opt *Options, op opRef, types []tensor.DataType, out int) (*tensor.Tensor, error) {
	if st.y == nil {
		return stack(opt, op, nil, 0, types, out)
	}
	if st.n == st.room {
		return st.y, nil
	}
	shape := append(append(make([]int, 0, len(st.elem)+1), st.n), st.elem...)
	y, err := opt.newOverwritten(op, st.y.DataType(), shape)
	if err != nil {
		return nil, err
	}
	copyBlocks(y, st.y, 1, st.n*st.elemLength, 0, 0, 0, 0)
	return y, nil
}

// stack joins list along a new axis; an empty list is an empty tensor of
// the type the body declares for output out (float when it declares none).
func stack(opt *Options, op opRef, list []*tensor.Tensor, axis int, types []tensor.DataType, out int) (*tensor.Tensor, error) {
	if len(list) == 0 {
		dt := tensor.Float
		if out < len(types) && types[out].Valid() {
			dt = types[out]
		}
		return tensor.New(dt, 0)
	}
	shape := list[0].Shape()
	if axis < 0 || axis > len(shape) {
		return nil, op.errorf("axis", "scan output axis %d outside [0, %d]", axis, len(shape))
	}
	unit := make([]int, 0, len(shape)+1)
	unit = append(append(append(unit, shape[:axis]...), 1), shape[axis:]...)
	views := make([]*tensor.Tensor, len(list))
	for i, t := range list {
		v, err := t.View(unit...)
		if err != nil {
			return nil, op.wrap("scan-output", err, "scan output element %d", i)
		}
		views[i] = v
	}
	return concat(opt, op, views, axis)
}
