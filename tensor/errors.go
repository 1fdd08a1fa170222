package tensor

import "errors"

// The error kinds every package of onnxshape shares: each package may name
// its own sentinel for a kind (ops.ErrUnsupported reads "unsupported
// operator"), but such a sentinel wraps the kind, and errors.Is treats the
// kind and every sentinel built on it as one. So
// errors.Is(err, ops.ErrUnsupported), errors.Is(err, onnx.ErrUnsupported)
// and errors.Is(err, tensor.ErrUnsupported) give the same answer, whichever
// package made err. Package graph documents every kind a caller meets.
var (
	// ErrUnsupported is wrapped by the errors about valid ONNX that
	// onnxshape does not implement: an operator, a domain, an opset
	// version, a storage form or a kind of value.
	ErrUnsupported error = &kind{"unsupported"}
	// ErrLimit is wrapped by the errors about a configured size cap that
	// an allocation would pass (NewLimited's maxBytes, ops'
	// Options.MaxTensorBytes, graph's RunOptions.MaxRunBytes).
	ErrLimit error = &kind{"size limit exceeded"}
)

// kind is an error kind: a sentinel that also matches, for errors.Is, every
// error that wraps it, so that a package's own sentinel wrapping a kind is
// the same kind.
type kind struct{ text string }

func (k *kind) Error() string { return k.text }

// Is reports whether target is an error built by wrapping k.
func (k *kind) Is(target error) bool {
	if t, ok := target.(*kind); ok {
		return t == k
	}
	return target != nil && errors.Is(target, k)
}
