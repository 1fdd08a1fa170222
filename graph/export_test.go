package graph

import (
	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/tensor"
)

// PoolFreshBytes returns the bytes p allocated new rather than recycled:
// with sizes that repeat, the most storage the pool's runs held at once.
func PoolFreshBytes(p *Pool) int64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.fresh
}

// SetChargeHook makes o's runs tell f every charge before the run's own
// cap checks it, so that tests can watch or refuse a node's allocations.
func SetChargeHook(o *RunOptions, f func(int64) error) { o.charge = f }

// NewValueInfo returns the ValueInfo Load makes of a value declared with t.
func NewValueInfo(name string, t *pb.TypeProto) ValueInfo { return newValueInfo(name, t) }

// NewResult returns the Result of values named names, in that order.
func NewResult(names []string, values []tensor.Value) Result {
	return newResult(names, outputIndex(names), values)
}
