package graph

import (
	"math"
	"unsafe"

	"github.com/onnxshape/onnxshape/onnx"
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// Constant nodes, and what is computed from constants alone: exporters
// put hundreds of Constant nodes in the bodies of If and Loop (a
// voice-activity model's branches hold over 300), each run again at every
// call of the body, and some compute weights there (PyTorch's LSTM gates
// reordered by Slice, Concat and Unsqueeze of constants before the ONNX
// LSTM reads them). At load, each such node gets the tensor it produces:
// a Constant that sets only its value attribute returns that attribute's
// tensor as it is; a data-movement node (foldable) whose inputs are all
// initializers or such tensors is run once, its output kept by the model
// (counted with the packed weights in PackedBytes, within MaxModelBytes).
// A run of the fast engine under the ONNX rules stores the tensor in the
// node's slot without calling the kernel, and the model's load-time
// packing (packWeights) treats it as the initializer it is: a recurrent
// layer whose W and R are computed in a branch gets them transposed once,
// not at every call. Under the reference engine or the SONNX rules every
// node runs its kernel, as before.

// foldable are the operators folded at load over constant inputs: they
// only view or copy their inputs (Cast converts them; ConstantOfShape
// fills a shape; DequantizeLinear turns a quantized weight or int32 bias
// into floats, as its kernel would at every run), the same at every
// run, whatever the run's options but its cap on one tensor's size (which
// constantFits checks).
var foldable = map[string]bool{
	"Identity": true, "Reshape": true, "Squeeze": true, "Unsqueeze": true, "Flatten": true,
	"Transpose": true, "Slice": true, "Concat": true, "Gather": true, "Cast": true,
	"ConstantOfShape": true, "DequantizeLinear": true,
}

// maxFoldedBytes bounds one folded tensor: weights, not activations.
const maxFoldedBytes = 16 << 20

// markConstants records, on each step of the model and of its subgraphs
// that is such a node, the tensor it produces; limit is the model's cap
// on what it holds beyond its initializers (as packWeights takes it).
func (m *Model) markConstants(limit int64) {
	if limit == 0 {
		limit = onnx.DefaultMaxModelBytes
	} else if limit < 0 {
		limit = math.MaxInt64
	}
	known := make(map[int]tensor.Value, len(m.consts))
	for _, c := range m.consts {
		known[c.slot] = c.value
	}
	// A model output keeps its own storage: the caller may write into it.
	returned := map[int]bool{}
	for _, s := range m.outSlots {
		returned[s] = true
	}
	var in []tensor.Value
	m.forEachStepOuterFirst(func(st *step) {
		if st.constant = constantValue(st.node); st.constant != nil {
			if st.out[0] >= 0 {
				known[st.out[0]] = st.constant
			}
			return
		}
		n := st.node
		if n == nil || n.Domain != "" || !foldable[n.OpType] || len(st.out) != 1 || st.out[0] < 0 || returned[st.out[0]] || st.passThrough {
			return
		}
		in = in[:0]
		for _, s := range st.in {
			var v tensor.Value
			if s >= 0 {
				if v = known[s]; v == nil {
					return
				}
			}
			in = append(in, v)
		}
		out, err := st.schema.Run(&ops.Options{MaxTensorBytes: maxFoldedBytes}, n, in)
		if err != nil || len(out) != 1 {
			return // the run reports it, as without folding
		}
		t, ok := out[0].(*tensor.Tensor)
		if !ok || t == nil || t.DataType() == tensor.String {
			return
		}
		// A view of a constant costs nothing more; a copy is the model's.
		bytes := int64(t.ByteLen())
		for _, v := range in {
			if x, ok := v.(*tensor.Tensor); ok && x != nil && t.ByteLen() > 0 && unsafe.SliceData(x.Bytes()) == unsafe.SliceData(t.Bytes()) {
				bytes = 0
			}
		}
		if bytes > limit-m.packed {
			return
		}
		m.packed += bytes
		st.constant = t
		known[st.out[0]] = t
	})
}

// constantValue is the tensor the Constant node n returns as it is, nil
// when n is not a Constant of the default domain that sets only value
// (to a tensor other than strings, whose storage the run does not count
// as the model's).
func constantValue(n *ops.Node) *tensor.Tensor {
	if n == nil || n.Domain != "" || n.OpType != "Constant" || len(n.Attrs) != 1 {
		return nil
	}
	t, err := n.TensorAttr("value")
	if err != nil || t == nil || !t.DataType().Valid() || t.DataType() == tensor.String {
		return nil
	}
	return t
}

// constantFits reports whether the run may store t without its Constant
// kernel: the kernel's one check on a valid tensor is the size limit.
func (r *runState) constantFits(t *tensor.Tensor) bool {
	limit := r.opt.MaxTensorBytes
	switch {
	case limit == 0:
		limit = ops.DefaultMaxTensorBytes
	case limit < 0:
		limit = math.MaxInt64
	}
	per := int64(t.DataType().Size())
	return per == 0 || int64(t.Len()) <= limit/per
}

// forEachStepOuterFirst calls fn on every step of the model, then of its
// subgraphs, each body's before those of the bodies it holds (which
// compileBody lists before it), so that a value a body computes from
// constants is known to the bodies inside it.
func (m *Model) forEachStepOuterFirst(fn func(*step)) {
	for i := range m.steps {
		fn(&m.steps[i])
	}
	for k := len(m.bodies) - 1; k >= 0; k-- {
		b := m.bodies[k]
		for i := range b.steps {
			fn(&b.steps[i])
		}
	}
}
