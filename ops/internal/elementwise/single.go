package elementwise

import "github.com/onnxshape/onnxshape/tensor"

// A binary operator on inputs of one element each (a loop counter plus
// one, a scalar comparison in a control-flow body) is one call of the
// operator's loop: no walk to plan, no span to hand to the worker pool,
// nothing allocated. Where a model's If conditions and Loop bodies are
// scalar arithmetic, that is most of their nodes.

// singleRunner is a kernel that can run on one element without a walk.
type singleRunner interface {
	runSingle(out, a, b *tensor.Tensor)
}

// RunSingle runs k on a and b, of one element each, into out, of one
// element, and reports whether it could: false for a kernel without such
// a path (the 16-bit float ones), which then runs through k.Run. A run
// already cancelled returns its error, as k.Run does. The caller checks
// the counts.
func RunSingle(cfg Config, k BinaryKernel, out, a, b *tensor.Tensor) (bool, error) {
	s, ok := k.(singleRunner)
	if !ok {
		return false, nil
	}
	if err := cfg.cancelled(); err != nil {
		return true, err
	}
	s.runSingle(out, a, b)
	return true, nil
}

func (s BinarySpans[A, B, O]) runSingle(out, a, b *tensor.Tensor) {
	s.Both(Elems[O](out)[:1], Elems[A](a)[:1], Elems[B](b)[:1])
}
