package graph

import (
	"errors"
	"fmt"

	"github.com/onnxshape/onnxshape/ops"
)

// The kinds of error Load and Run return, each testable with errors.Is or
// errors.As, so that a service can tell a bad request from a bad model
// without reading messages. Every error of Load, LoadBytes, FromProto and
// Run is of exactly one kind below (a file Load cannot read keeps its
// io/fs error: errors.Is(err, fs.ErrNotExist)).
//
//	kind          test                                  what is known
//	invalid model errors.Is(err, ErrInvalidModel)        errors.As(err, &*NodeError) when a node is at fault
//	invalid input errors.Is(err, ErrInvalidInput)        errors.As(err, &*InputError): the input's name
//	unsupported   errors.Is(err, ErrUnsupported)         valid ONNX onnxshape does not run; a *NodeError when a node needs it
//	limit         errors.Is(err, ErrLimit)               a size cap was reached; a *NodeError names the node
//	cancelled     errors.Is(err, context.Canceled)       a *NodeError names the node where the run stopped (a model
//	              or context.DeadlineExceeded            without nodes has none)
//	refused       none of the others, and                an operator refused the values it was given at run time (their
//	              errors.As(err, &*ops.Error)            shapes or contents do not fit the node); a *NodeError names the node
//	internal      errors.Is(err, ErrInternal)            a bug in onnxshape (a kernel's panic: *PanicError); please report it
//
// The sentinels of the other packages are the same kinds: ErrUnsupported is
// ops.ErrUnsupported, which errors.Is also matches with onnx.ErrUnsupported
// and tensor.ErrUnsupported; ErrLimit is ops.ErrLimit and tensor.ErrLimit.
var (
	// ErrInvalidModel is the kind of every error about a model that breaks
	// the ONNX format or its rules: a file that does not decode, a graph
	// with a cycle, a value defined twice, an attribute of the wrong type.
	ErrInvalidModel = errors.New("invalid model")
	// ErrInvalidInput is the kind of every error about the inputs given
	// to Run: unknown, missing, nil, or of another type or shape than the
	// model declares. The error is an *InputError.
	ErrInvalidInput = errors.New("invalid input")
	// ErrUnsupported is the kind of the errors about valid ONNX that
	// onnxshape does not implement.
	ErrUnsupported = ops.ErrUnsupported
	// ErrLimit is the kind of the errors about a size cap.
	ErrLimit = ops.ErrLimit
	// ErrInternal is the kind of the errors that are bugs in onnxshape.
	ErrInternal = errors.New("internal error")
)

// InputError is the error of Run about one of its inputs. Its text is the
// message alone ("input \"x\" is nil"); errors.Is matches it with
// ErrInvalidInput.
type InputError struct {
	Name string // the input's name, as the caller gave it or the model declares it
	Err  error  // the cause, if any (tensor.ErrType, tensor.ErrShape, ...)
	msg  string
}

// Error returns the message, on one line.
func (e *InputError) Error() string { return e.msg }

// Unwrap returns the cause.
func (e *InputError) Unwrap() error { return e.Err }

// Is reports whether target is ErrInvalidInput.
func (e *InputError) Is(target error) bool { return target == ErrInvalidInput }

// inputError returns an *InputError for input name whose text is err's.
func inputError(name string, err error) *InputError {
	ie := &InputError{Name: name, msg: err.Error()}
	if cause := errors.Unwrap(err); cause != nil {
		ie.Err = cause
	}
	return ie
}

// Is reports whether target is ErrInternal.
func (e *PanicError) Is(target error) bool { return target == ErrInternal }

// kindError gives err a kind for errors.Is while keeping err's text and
// everything errors.As finds in it.
type kindError struct{ err, kind error }

func (e *kindError) Error() string   { return e.err.Error() }
func (e *kindError) Unwrap() []error { return []error{e.err, e.kind} }

// withKind returns err marked as kind, unless it is nil or already of a
// kind that describes it better (unsupported, limit, invalid model).
func withKind(err, kind error) error {
	if err == nil || errors.Is(err, kind) || errors.Is(err, ErrUnsupported) || errors.Is(err, ErrLimit) {
		return err
	}
	return &kindError{err, kind}
}

// NodeError is the error of one node of a model, at load or run time.
type NodeError struct {
	Node    string // the node's name; may be empty
	Index   int    // the node's position in the model file
	Op      string // operator type, prefixed by its domain outside ai.onnx
	Version int    // the since-version that serves the node; 0 if unresolved
	Err     error
}

// Error returns the message, on one line.
func (e *NodeError) Error() string {
	where := fmt.Sprintf("node #%d", e.Index)
	if e.Node != "" {
		where = fmt.Sprintf("node %q", e.Node)
	}
	op := e.Op
	if e.Version > 0 {
		op = fmt.Sprintf("%s-%d", e.Op, e.Version)
	}
	var p *PanicError
	if errors.As(e.Err, &p) {
		return fmt.Sprintf("internal error in %s (%s): %v", where, op, p.Value)
	}
	return fmt.Sprintf("%s (%s): %v", where, op, e.Err)
}

// Unwrap returns the node's underlying error.
func (e *NodeError) Unwrap() error { return e.Err }

// PanicError is the cause of a NodeError whose kernel panicked: a bug in
// onnxshape, reported as an error rather than a crash.
type PanicError struct {
	Value any
}

// Error returns the message, on one line.
func (e *PanicError) Error() string { return fmt.Sprintf("panic: %v", e.Value) }
