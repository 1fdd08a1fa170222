package ops

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"

	"github.com/onnxshape/onnxshape/internal/runenv"
	"github.com/onnxshape/onnxshape/ops/internal/movement"
	"github.com/onnxshape/onnxshape/ops/internal/parallel"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	runenv.Install(func(opt any, e runenv.Env) { opt.(*Options).env = e })
	runenv.InstallReset(func(opt any) {
		o := opt.(*Options)
		*o = Options{gemm: o.gemm, conv: o.conv, blockStages: o.blockStages}
	})
	runenv.InstallScope(func(opt any) any {
		if o, ok := opt.(*Options); ok && o != nil {
			return o.env.Scope
		}
		return nil
	})
}

// Option sets one knob of a plain operator function (Transpose, Resize,
// ...) or of NewOptions.
type Option func(*Options)

// WithContext runs the operator under ctx: every kernel loop that can run
// for more than a few milliseconds looks at it, and a cancelled operator
// returns the context's error, never a result. A plain function whose
// context is already done refuses to start.
func WithContext(ctx context.Context) Option {
	return func(o *Options) { o.env.Ctx = ctx }
}

// WithMaxTensorBytes caps the storage of any one tensor the operator
// creates (see Options.MaxTensorBytes).
func WithMaxTensorBytes(n int64) Option {
	return func(o *Options) { o.MaxTensorBytes = n }
}

// WithThreads caps the cores the operator uses (see Options.Threads).
func WithThreads(n int) Option {
	return func(o *Options) { o.Threads = n }
}

// WithProfile selects the rules the operator follows (see Profile).
func WithProfile(p Profile) Option {
	return func(o *Options) { o.Profile = p }
}

// NewOptions returns the Options that opts set, for a Kernel run by hand
// or for Call.
func NewOptions(opts ...Option) *Options {
	o := new(Options)
	for _, set := range opts {
		if set != nil {
			set(o)
		}
	}
	return o
}

// callOptions returns the Options of a plain operator function's call,
// refused as op's cancellation when the context is already done.
func callOptions(op opRef, opts []Option) (*Options, error) {
	o := NewOptions(opts...)
	if err := o.cancelled(); err != nil {
		return nil, op.wrap("cancelled", err, "not started")
	}
	return o, nil
}

var defaultOptions Options

// Context returns the context the kernel runs under:
// context.Background() when it has none.
func (o *Options) Context() context.Context {
	if o == nil || o.env.Ctx == nil {
		return context.Background()
	}
	return o.env.Ctx
}

// Charge tells the run's byte budget, when it has one, that the kernel is
// about to allocate bytes that grow with its input, and returns its
// refusal. A kernel written outside this package (the reference engine's)
// calls it before each such allocation; this package's kernels do it
// through their size checks.
func (o *Options) Charge(bytes int64) error {
	if o == nil || o.env.Charge == nil || bytes <= 0 {
		return nil
	}
	return o.env.Charge(bytes)
}

func (o *Options) orDefault() *Options {
	if o == nil {
		return &defaultOptions
	}
	return o
}

// TensorLimit returns the cap on one tensor's bytes that o sets, the
// default filled in (math.MaxInt64 when there is no cap).
func (o *Options) TensorLimit() int64 { return o.orDefault().maxBytes() }

func (o *Options) maxBytes() int64 {
	switch {
	case o.MaxTensorBytes == 0:
		return DefaultMaxTensorBytes
	case o.MaxTensorBytes < 0:
		return 1<<63 - 1
	}
	return o.MaxTensorBytes
}

// threads returns how many goroutines a kernel may use.
func (o *Options) threads() int {
	n := runtime.GOMAXPROCS(0)
	if o.Threads > 0 && o.Threads < n {
		n = o.Threads
	}
	return n
}

// parallelRange runs f over [0, n) on the run's cores through the worker
// pool (ops/internal/parallel), on one core when work is below
// parallel.Work.
func parallelRange(opt *Options, n, work int, f func(lo, hi int) error) error {
	o := opt.orDefault()
	return parallel.Range(o.env.Ctx, o.threads(), n, work, f)
}

// alone reports whether parallelRange(opt, n, work, f) would call f(0, n)
// on the calling goroutine, and then the context's error parallelRange
// would return first. A small kernel then calls its loop itself: the
// closure parallelRange takes lives on the heap, one allocation a call
// that a chain of small nodes pays at every node.
func alone(opt *Options, n, work int) (bool, error) {
	o := opt.orDefault()
	if !parallel.Alone(o.threads(), n, work) {
		return false, nil
	}
	return true, parallel.Err(o.env.Ctx)
}

// moves returns what the movement engine (ops/internal/movement) needs of
// the run: its context, its cap on cores, the streaming threshold, and the
// prepared-node recorder when one is recording.
func (o *Options) moves() movement.Env {
	o = o.orDefault()
	e := movement.Env{Ctx: o.env.Ctx, Threads: o.Threads, StreamFrom: o.streamFrom}
	if r := o.rec; r != nil {
		e.Record = func(dst, src *tensor.Tensor, q movement.Plan) {
			r.plans = append(r.plans, recordedPlan{dst: dst, src: src, q: q})
		}
	}
	return e
}

// streams reports whether a copy writing written bytes from a source of
// source bytes uses streaming stores (movement.Env.Streams).
func (o *Options) streams(written, source int) bool {
	return movement.Env{StreamFrom: o.orDefault().streamFrom}.Streams(written, source)
}

// asElems views tensor storage as []E (movement.AsElems).
func asElems[E any](b []byte) []E { return movement.AsElems[E](b) }

// cancelled returns the context's error, if the run has one and it is done.
func (o *Options) cancelled() error {
	if o.env.Ctx == nil {
		return nil
	}
	return o.env.Ctx.Err()
}

// checkSize returns an error if a tensor of type dt and shape would be
// impossible or larger than the limit. It allocates nothing, so operators
// call it before they allocate an output whose size comes from their inputs.
func (o *Options) checkSize(op opRef, dt tensor.DataType, shape []int) error {
	n, err := tensor.NumElements(shape)
	if err != nil {
		return op.wrap("size", err, "output of shape %v", slices.Clone(shape)) // shape stays the caller's
	}
	// Bytes of storage: a 16-byte header per string (the strings themselves
	// are shared), the element size otherwise.
	per := int64(dt.Size())
	if dt == tensor.String {
		per = 16
	}
	if per > 0 && int64(n) > o.maxBytes()/per {
		return &Error{Op: op.name, Version: op.version, Rule: "size",
			Msg: fmt.Sprintf("output %v of shape %v would take %d elements of %d bytes, above the limit of %d bytes", dt, slices.Clone(shape), n, per, o.maxBytes()),
			Err: ErrLimit}
	}
	return nil
}

// charge tells the run's budget, when there is one, that the kernel is about to
// allocate bytes (for an output or for scratch), and returns its refusal as
// op's error wrapping ErrLimit.
func (o *Options) charge(op opRef, what string, bytes int64) error {
	if err := o.Charge(bytes); err != nil {
		return &Error{Op: op.name, Version: op.version, Rule: "size",
			Msg: fmt.Sprintf("%s of %d bytes: %v", what, bytes, err), Err: errors.Join(ErrLimit, err)}
	}
	return nil
}

// chargeOutput is charge for an output of type dt; the message is made
// only when the charge is refused.
func (o *Options) chargeOutput(op opRef, dt tensor.DataType, bytes int64) error {
	if o.env.Charge == nil || bytes <= 0 {
		return nil
	}
	if err := o.Charge(bytes); err != nil {
		return &Error{Op: op.name, Version: op.version, Rule: "size",
			Msg: fmt.Sprintf("output %v of %d bytes: %v", dt, bytes, err), Err: errors.Join(ErrLimit, err)}
	}
	return nil
}

// newTensor allocates a zero-filled output after checkSize.
func (o *Options) newTensor(op opRef, dt tensor.DataType, shape []int) (*tensor.Tensor, error) {
	return o.allocTensor(op, dt, shape, true)
}

// newOverwritten allocates an output that the kernel will write entirely,
// so storage from the run's allocator need not be cleared first.
func (o *Options) newOverwritten(op opRef, dt tensor.DataType, shape []int) (*tensor.Tensor, error) {
	return o.allocTensor(op, dt, shape, false)
}

func (o *Options) allocTensor(op opRef, dt tensor.DataType, shape []int, zero bool) (t *tensor.Tensor, err error) {
	if err := o.checkSize(op, dt, shape); err != nil {
		return nil, err
	}
	if o.rec != nil {
		defer func() {
			if err == nil {
				o.rec.allocs = append(o.rec.allocs, recordedAlloc{t: t, zero: zero})
			}
		}()
	}
	if o.env.Charge != nil {
		n, _ := tensor.NumElements(shape) // checked above
		per := int64(dt.Size())
		if dt == tensor.String {
			per = 16
		}
		if err := o.chargeOutput(op, dt, int64(n)*per); err != nil {
			return nil, err
		}
	}
	if o.env.Alloc != nil && dt != tensor.String {
		size, err := tensor.ByteSize(dt, shape)
		if err == nil {
			buf := o.env.Alloc(size)
			if zero {
				clear(buf)
			}
			if h := o.env.Headers; h != nil && o.rec == nil {
				// A recorded node's outputs are the Prepared's to replay
				// (prepared.go): they take no header of the runner's.
				if t := h.Wrap(dt, shape, buf); t != nil {
					return t, nil
				}
			}
			t, err := tensor.Wrap(dt, shape, buf)
			if err == nil {
				return t, nil
			}
		}
	}
	t, err = tensor.New(dt, shape...)
	if err != nil {
		return nil, op.wrap("size", err, "output of shape %v", slices.Clone(shape))
	}
	return t, nil
}
