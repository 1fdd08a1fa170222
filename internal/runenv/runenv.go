// Package runenv is the narrow way in by which the model runner (package
// graph) hands the operator kernels (package ops) what a run has beyond
// the knobs a caller sets: its context, the storage allocator of a
// graph.Pool and the run's byte budget.
//
// ops keeps these unexported in ops.Options, so that no exported name of
// ops is plumbing; at init it installs the function that stores an Env in
// an *ops.Options, and graph calls Bind (infer too, to hold the kernels
// that fold constants to its total budget). The hook is typed any because
// this package cannot import ops (ops imports it); only the module's own
// packages can import an internal package, so the hook has few callers.
package runenv

import (
	"context"
	"slices"

	"github.com/onnxshape/onnxshape/internal/header"
	"github.com/onnxshape/onnxshape/tensor"
)

// Env is what one run hands the kernels it runs.
type Env struct {
	// Ctx, when set, stops long kernel loops once it is done: a cancelled
	// kernel returns the context's error, never a result.
	Ctx context.Context
	// Alloc, when set, provides the storage of the non-string tensors
	// operators create: size bytes, 8-byte aligned, of any content (the
	// operator clears what it does not overwrite). graph.Pool recycles
	// storage through it, so that a model run in a loop need not allocate.
	Alloc func(size int) []byte
	// Headers, when set, makes the headers of the non-string tensors an
	// operator creates with storage from Alloc (Headers.Wrap).
	Headers *Headers
	// Charge, when set, is told the bytes of every allocation that grows
	// with the input (outputs and kernel scratch alike) before it happens;
	// an error refuses it. The model runner keeps a run's live bytes under
	// its cap with it.
	Charge func(bytes int64) error
	// Scope, when set, is the model runner's state of the run, which a
	// subgraph (ops.Subgraph.Run) finds again through ScopeOf to run its
	// nodes within the run.
	Scope any
	// Fuse, when set, has the kernels apply what their nodes fused at load
	// (ops.FoldBatchNorm, ops.FuseActivation): the model runner sets it for
	// the fast engine under the ONNX profile only.
	Fuse bool
}

// scopeOf reads the Scope of an *ops.Options; package ops installs it.
var scopeOf func(opt any) any

// InstallScope records f as the function ScopeOf calls. Package ops calls
// it once, from its init.
func InstallScope(f func(opt any) any) { scopeOf = f }

// ScopeOf returns the Scope of the Env bound to opt, an *ops.Options (nil
// when opt is nil or has none).
func ScopeOf(opt any) any { return scopeOf(opt) }

// bind stores an Env in an *ops.Options; package ops installs it at init.
var bind func(opt any, e Env)

// Install records f as the function Bind calls. Package ops calls it once,
// from its init, before any other package can run a kernel.
func Install(f func(opt any, e Env)) { bind = f }

// Bind stores e in opt, which must be an *ops.Options; every kernel run
// with opt then sees e's context, allocator and budget.
func Bind(opt any, e Env) { bind(opt, e) }

// reset clears an *ops.Options for its next run, keeping what a run's
// kernels lend one another; package ops installs it at init.
var reset func(opt any)

// InstallReset records f as the function Reset calls. Package ops calls
// it once, from its init.
func InstallReset(f func(opt any)) { reset = f }

// Reset clears opt, an *ops.Options a model runner keeps from one run to
// the next, as a zero Options but for the accounts its kernels keep
// between calls (the products' and the convolutions'), which a run would
// otherwise make again.
func Reset(opt any) { reset(opt) }

// runPrepared runs an *ops.Prepared with reusable output headers; package
// ops installs it at init.
var runPrepared func(p, opt any, in []tensor.Value, reuse []*tensor.Tensor, out []tensor.Value) error

// InstallPrepared records f as the function RunPrepared calls. Package ops
// calls it once, from its init.
func InstallPrepared(f func(p, opt any, in []tensor.Value, reuse []*tensor.Tensor, out []tensor.Value) error) {
	runPrepared = f
}

// RunPrepared runs p, an *ops.Prepared, on in with opt, an *ops.Options,
// into out. reuse holds, per output, a header the model runner made in an
// earlier run and that nothing outside the runner can reach: the prepared
// node may point it at the new output's storage instead of allocating
// one (see package internal/header). The public ops.Prepared.Run has no
// such argument, so no caller's tensor can ever change under it.
func RunPrepared(p, opt any, in []tensor.Value, reuse []*tensor.Tensor, out []tensor.Value) error {
	return runPrepared(p, opt, in, reuse, out)
}

// Headers makes the headers of the tensors the running node creates, as
// tensor.Wrap does, but hands back first the headers the model runner
// lends the node: those the same node's outputs had in the run before,
// which nothing outside the runner can reach any more (see package
// internal/header). A warm run whose shapes repeat then allocates no
// header either. A concrete type rather than a function, so that the
// shape a kernel passes stays on its stack.
type Headers struct {
	// Lend is what the runner lends the running node; Made, the headers
	// Wrap returned to it, lent or new; On, whether a node is lending
	// (Wrap returns nil otherwise).
	Lend, Made []*tensor.Tensor
	On         bool
}

// Wrap returns buf as a tensor of type dt and shape in a lent header of
// that type and shape, or a new one; nil when no node is lending or
// tensor.Wrap fails (the caller then calls it for its error).
func (h *Headers) Wrap(dt tensor.DataType, shape []int, buf []byte) *tensor.Tensor {
	if !h.On {
		return nil
	}
	for i, t := range h.Lend {
		if t.DataType() == dt && slices.Equal(t.Shape(), shape) && header.Rewrap(t, buf) {
			h.Lend = slices.Delete(h.Lend, i, i+1)
			h.Made = append(h.Made, t)
			return t
		}
	}
	t, err := tensor.Wrap(dt, shape, buf)
	if err != nil {
		return nil
	}
	h.Made = append(h.Made, t)
	return t
}
