package ops

import (
	"fmt"
	"strings"

	"github.com/onnxshape/onnxshape/tensor"
)

// ErrLimit is wrapped by the error of an operator whose output would exceed
// the configured size limit (Options.MaxTensorBytes). It is the kind
// tensor.ErrLimit itself, so errors.Is answers alike for either.
var ErrLimit = tensor.ErrLimit

// Error is the error of an operator that refuses its inputs or attributes.
// Its text names the operator, the version and the rule broken:
//
//	Unsqueeze-13 A [C2] axis 1 designated twice (1 and -4)
//
// Rule is a SONNX constraint or restriction id ("R1", "GR4", or a
// constraint qualified by the section of the specification that states it,
// as specifications reuse numbers: "A [C2]", "inputs [C1]") where the
// profile specifies the operator, and otherwise a short name of the ONNX rule
// ("perm", "axis-range"). Use errors.As to read the fields.
type Error struct {
	Op      string // operator name, e.g. "Unsqueeze"
	Version int    // the operator's since-version
	Rule    string // constraint id or rule name
	Msg     string
	Err     error // the underlying cause, if any (ErrLimit, tensor.ErrShape, ...)
}

// Error returns the message: operator, rule and what is wrong, on one line.
func (e *Error) Error() string {
	if strings.HasSuffix(e.Rule, "]") { // an id qualified by its section: "inputs [C1]"
		return fmt.Sprintf("%s-%d %s %s", e.Op, e.Version, e.Rule, e.Msg)
	}
	return fmt.Sprintf("%s-%d [%s] %s", e.Op, e.Version, e.Rule, e.Msg)
}

// Unwrap returns the underlying cause.
func (e *Error) Unwrap() error { return e.Err }

// opRef names one version of an operator; its methods make that operator's
// errors.
type opRef struct {
	name    string
	version int
}

// errorf returns an *Error for the broken rule.
func (o opRef) errorf(rule, format string, args ...any) error {
	return &Error{Op: o.name, Version: o.version, Rule: rule, Msg: fmt.Sprintf(format, args...)}
}

// wrap returns an *Error for the broken rule that wraps cause.
func (o opRef) wrap(rule string, cause error, format string, args ...any) error {
	return &Error{Op: o.name, Version: o.version, Rule: rule, Msg: fmt.Sprintf(format, args...) + ": " + cause.Error(), Err: cause}
}
