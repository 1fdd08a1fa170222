package graph

import (
	"fmt"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/reference"
)

// Engine selects the kernels a run uses: the fast ones of package ops, or
// the reference engine's (package reference), plain transcriptions of the
// specification that the fast kernels are tested against. Both give the
// same outputs bit for bit (Resize, the products and the normalizations
// within a stated bound, see package reference; under ops.ProfileSONNX
// both run the reference kernel of the admitted ones among them,
// referenceUnderSONNX, so that the profile's results never depend on the
// engine) and refuse the same inputs under the same rule.
type Engine int

const (
	// EngineDefault is the fast engine under the ONNX profile and the
	// reference engine under ops.ProfileSONNX.
	EngineDefault Engine = iota
	// EngineFast runs package ops's kernels: copy plans, threads, pooled
	// storage.
	EngineFast
	// EngineReference runs package reference's kernels: element by element,
	// one goroutine, fresh storage.
	EngineReference
)

// String returns the engine's name, as --engine takes it.
func (e Engine) String() string {
	switch e {
	case EngineFast:
		return "fast"
	case EngineReference:
		return "reference"
	}
	return "default"
}

// ParseEngine reads an engine's name: "fast", "reference" or "default" (or
// "", the default).
func ParseEngine(s string) (Engine, error) {
	switch s {
	case "", "default":
		return EngineDefault, nil
	case "fast":
		return EngineFast, nil
	case "reference":
		return EngineReference, nil
	}
	return EngineDefault, fmt.Errorf("unknown engine %q (want fast or reference)", s)
}

// Resolve returns the engine that runs under profile p: e itself, or for
// EngineDefault the reference engine under SONNX and the fast one otherwise.
func (e Engine) Resolve(p ops.Profile) Engine {
	if e != EngineDefault {
		return e
	}
	if p == ops.ProfileSONNX {
		return EngineReference
	}
	return EngineFast
}

// engine returns the engine a run with options o uses.
func (o *RunOptions) engine() Engine {
	if o == nil {
		return EngineFast
	}
	return o.Engine.Resolve(o.Profile)
}

// referenceKernel returns the reference engine's kernel for schema, nil
// when it has none (a run under EngineReference then fails on the node).
func referenceKernel(s *ops.Schema) ops.Kernel {
	k, _ := reference.Kernel(s.Domain, s.Name, s.Since)
	return k
}

// referenceUnderSONNX are the operators the profile admits whose fast
// kernel agrees with the reference engine's only within a stated bound
// (Resize's linear and cubic filters, MatMul's sums of products in another
// order and precision, BatchNormalization's affine map folded per channel):
// under ops.ProfileSONNX both engines run the reference kernel, so that
// the profile's results do not depend on the engine.
var referenceUnderSONNX = map[string]bool{"Resize": true, "MatMul": true, "BatchNormalization": true}

// kernel returns the kernel that runs the step under engine e and profile p.
func (st *step) kernel(e Engine, p ops.Profile) (ops.Kernel, error) {
	if p == ops.ProfileSONNX && st.node.Domain == "" && referenceUnderSONNX[st.node.OpType] && st.reference != nil {
		return st.reference, nil
	}
	if e != EngineReference {
		return st.schema.Run, nil
	}
	if st.reference == nil {
		return nil, fmt.Errorf("%w: the reference engine has no kernel for %s-%d", ops.ErrUnsupported, opName(st.node), st.schema.Since)
	}
	return st.reference, nil
}
