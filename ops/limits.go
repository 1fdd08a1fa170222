package ops

import (
	"fmt"
	"math"

	"github.com/onnxshape/onnxshape/ops/internal/poll"
	"github.com/onnxshape/onnxshape/tensor"
)

// The two promises every kernel keeps to the run that calls it:
//
//   - Bounded memory. Whatever a kernel allocates that grows with its
//     inputs or attributes (outputs, and scratch: tables, keys, converted
//     copies, shape bookkeeping) is refused before it is allocated when one
//     buffer would exceed Options.MaxTensorBytes, and is told to the
//     run's budget (Options.Charge), which caps a run's live bytes. Outputs
//     go through newTensor; scratch goes through scratch below. Allocations bounded by
//     a rank or a constant need neither.
//   - Cancellation. A loop that can run longer than about 10 ms polls the
//     run's context every pollWork elements or so (a countdown, not a
//     clock), and a cancelled kernel returns the context's error, never a
//     result.

// The audit of every make in the package's kernels. Checked and charged
// through scratch: MaxPool's window tables and per-core keys and row maxima
// (maxPoolScratch), Resize's axis plans, index tables, converted input,
// intermediates and per-core rows, Pad's index tables, Split's sizes and
// output shapes, MaxUnpool's translated indices, the convolutions' float32
// copies of float16 and bfloat16 inputs and outputs and QLinearConv's int32
// sums (the engine ops/internal/conv charges its im2col and col2im tiles
// and transposed weights through Options.convConfig, all of them before any
// work; the products' packing scratch goes through one gemm.Scratch per
// operator call, charged once for what the call's products hold at once).
// The weights PackConstants packs at load are the model's, counted by the
// model runner against the model's cap, never a run's. Outputs go through
// newTensor. Not charged, each bounded:
//   - by the rank (a shape, strides, a permutation, per-axis parameters,
//     index walkers, the copy plans of ops/internal/movement);
//   - by the number of a node's inputs or outputs (Concat's and stitch's
//     lists, the result slice of values);
//   - by the worker count (parallelRange's errors);
//   - by an input already held, at most its own size again: the lists read
//     from small inputs (axes, shape, repeats, pads, starts and ends, split)
//     are copied once as ints; Resize's roi, scales and sizes are refused
//     when longer than X's axes can use before they are converted.

// scratch checks one scratch allocation of count elements of size bytes
// each against the per-tensor cap, then charges it: the error, wrapping
// ErrLimit, names what the kernel wanted. Call it before allocating.
func (o *Options) scratch(op opRef, what string, count, size int) error {
	o = o.orDefault()
	bytes, ok := mulBytes(count, size)
	if !ok || bytes > o.maxBytes() {
		return &Error{Op: op.name, Version: op.version, Rule: "size",
			Msg: fmt.Sprintf("%s would take %d elements of %d bytes, above the limit of %d bytes", what, count, size, o.maxBytes()),
			Err: ErrLimit}
	}
	return o.charge(op, what, bytes)
}

// mulBytes returns count*size, ok false when either is negative or the
// product overflows an int64.
func mulBytes(count, size int) (int64, bool) {
	if count < 0 || size < 0 {
		return 0, false
	}
	if size != 0 && int64(count) > math.MaxInt64/int64(size) {
		return 0, false
	}
	return int64(count) * int64(size), true
}

// addCounts returns a+b for counts of elements or bytes, saturated at
// math.MaxInt so that a sum of hostile dims is refused, never wrapped.
func addCounts(a, b int) int {
	if a < 0 || b < 0 || a > math.MaxInt-b {
		return math.MaxInt
	}
	return a + b
}

// mulCounts is addCounts for a product.
func mulCounts(a, b int) int {
	if a < 0 || b < 0 || (a != 0 && b > math.MaxInt/a) {
		return math.MaxInt
	}
	return a * b
}

// tensorHeaderBytes is what a tensor costs besides its storage and shape,
// rounded up: the bookkeeping of an operator with many outputs counts it.
const tensorHeaderBytes = 128

// pollWork is the work, in elements moved or compared, between two looks at
// the run's context (poll.Work).
const pollWork = poll.Work

// canceller counts a loop's work down to its next look at the context
// (poll.Canceller). Each goroutine keeps its own; the zero value (no
// context) never stops.
type canceller = poll.Canceller

// canceller returns the countdown of one loop of the run.
func (o *Options) canceller() canceller {
	return poll.New(o.orDefault().env.Ctx)
}

// stopped wraps the error of a cancelled kernel: the context's error stays
// visible to errors.Is.
func (o opRef) stopped(err error) error {
	return o.wrap("cancelled", err, "run stopped")
}

// nilSafe returns run refusing a nil node, which every kernel reads first.
func nilSafe(op opRef, run Kernel) Kernel {
	return func(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
		if n == nil {
			return nil, op.errorf("node", "the node is nil")
		}
		return run(opt, n, in)
	}
}

// checkInput refuses a nil tensor, or the zero tensor.Tensor{} (which has
// no element type), given for the input called name.
func checkInput(op opRef, name string, t *tensor.Tensor) error {
	if t == nil {
		return op.errorf("input", "input %s is nil", name)
	}
	if !t.DataType().Valid() {
		return op.errorf("input", "input %s has no element type (a zero tensor.Tensor?)", name)
	}
	return nil
}

// checkValue is checkInput for an input that may be any value: a tensor,
// a sequence or optional whose tensors are checked in turn, or a map. nil (an
// absent value) passes; the operator decides whether it may be absent.
func checkValue(op opRef, name string, v tensor.Value) error {
	switch v := v.(type) {
	case *tensor.Tensor:
		return checkInput(op, name, v)
	case *tensor.Sequence:
		if v == nil {
			return op.errorf("input", "input %s is a nil sequence", name)
		}
		for i, t := range v.Items {
			if t == nil || !t.DataType().Valid() {
				return checkInput(op, fmt.Sprintf("%s[%d]", name, i), t)
			}
		}
	case *tensor.Optional:
		if v == nil {
			return op.errorf("input", "input %s is a nil optional", name)
		}
		if v.Value != nil {
			return checkValue(op, name, v.Value)
		}
	case *tensor.Map:
		if err := v.Check(); err != nil {
			return op.errorf("input", "input %s %v", name, err)
		}
	case *tensor.MapSequence:
		if err := v.Check(); err != nil {
			return op.errorf("input", "input %s %v", name, err)
		}
	}
	return nil
}

// sizeOfFloat is the size in bytes of a computing type's element, for the
// scratch a kernel charges before it converts into that type.
func sizeOfFloat[A float32 | float64]() int {
	var z A
	if _, ok := any(z).(float32); ok {
		return 4
	}
	return 8
}
