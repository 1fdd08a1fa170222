package graph

import (
	"fmt"

	"github.com/onnxshape/onnxshape/onnx"
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// packWeights packs, once at load, the constant weights of the model's
// matrix products (ops.PackConstants: MatMul's and Gemm's B, the int8
// products' B, the int8 convolutions' weights, the recurrent layers' W and
// R; the normalizations' scale, bias, mean and variance as float64),
// whether initializers or Constant nodes, in the main graph and in every
// subgraph, so that no run copies or converts them again. The packed copies belong to the model, like its initializers: they
// count toward limit (the model's cap, MaxModelBytes, each cap on its own
// as onnx.Limits counts them), and a node whose weights would pass it keeps
// them unpacked, running as before. A run never charges them.
func (m *Model) packWeights(limit int64) {
	if limit == 0 {
		limit = onnx.DefaultMaxModelBytes
	} else if limit < 0 {
		limit = 1<<63 - 1
	}
	consts := make(map[int]tensor.Value, len(m.consts))
	for _, c := range m.consts {
		consts[c.slot] = c.value
	}
	// The output of a Constant node (constants.go) is as constant.
	m.forEachStep(func(st *step) {
		if st.constant != nil && len(st.out) == 1 && st.out[0] >= 0 {
			consts[st.out[0]] = st.constant
		}
	})
	var in []tensor.Value
	m.forEachStep(func(st *step) {
		if st.node == nil || st.node.Domain != "" {
			return
		}
		in = in[:0]
		some := false
		for _, s := range st.in {
			v := consts[s] // nil for -1 and for computed values
			in = append(in, v)
			some = some || v != nil
		}
		if !some {
			return
		}
		n, _ := ops.PackConstants(st.node, in, func(bytes int64) error {
			if bytes > limit-m.packed {
				return fmt.Errorf("%w: packed weights of %d bytes would pass the model's %d", ops.ErrLimit, m.packed+bytes, limit)
			}
			return nil
		})
		m.packed += n
	})
}

// PackedBytes is the memory the model holds beyond its initializers: its
// constant weights packed for the matrix-product engine at load (see
// ops.PackConstants). Every run shares them.
func (m *Model) PackedBytes() int64 {
	if m == nil {
		return 0
	}
	return m.packed
}
