package graph

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/onnxshape/onnxshape/tensor"
)

// Stateful runs a model whose outputs are its own next inputs: a voice
// activity detector's state, an RNN's h and c, a decoder's key-value
// cache. Each Run feeds the carried values in and keeps the new ones; a
// caller gives only the other inputs. A Stateful is one stream of calls:
// it is not safe for concurrent use (make one per stream; they may share
// the Model).
type Stateful struct {
	m       *Model
	carry   map[string]string // output -> the input it feeds
	initial map[string]tensor.Value
	state   map[string]tensor.Value
	// Options are the RunOptions of every Run (nil: the defaults).
	Options *RunOptions
}

// NewStateful returns a Stateful over m; carry maps each carried output to
// the input it feeds next time ({"stateN": "state"}). initial holds the
// first call's value of carried inputs; one left out starts as zeros of its
// declared type, which must then be a tensor of fixed shape.
func NewStateful(m *Model, carry map[string]string, initial map[string]tensor.Value) (*Stateful, error) {
	if m == nil || m.proto == nil {
		return nil, errNotLoaded
	}
	if len(carry) == 0 {
		return nil, fmt.Errorf("NewStateful: no output is carried")
	}
	inputs := map[string]ValueInfo{}
	for _, in := range m.Inputs() {
		inputs[in.Name] = in
	}
	outputs := map[string]bool{}
	for _, out := range m.Outputs() {
		outputs[out.Name] = true
	}
	s := &Stateful{m: m, carry: maps.Clone(carry), initial: map[string]tensor.Value{}}
	fed := map[string]string{}
	for _, out := range slices.Sorted(maps.Keys(carry)) {
		in := carry[out]
		if !outputs[out] {
			return nil, fmt.Errorf("NewStateful: the model has no output %q", out)
		}
		vi, ok := inputs[in]
		if !ok {
			return nil, fmt.Errorf("NewStateful: the model has no input %q (for output %q)", in, out)
		}
		if prev, dup := fed[in]; dup {
			return nil, fmt.Errorf("NewStateful: input %q is fed by both %q and %q", in, prev, out)
		}
		fed[in] = out
		if v, ok := initial[in]; ok {
			s.initial[in] = v
			continue
		}
		z, err := zeroOf(vi)
		if err != nil {
			return nil, fmt.Errorf("NewStateful: %w: give its initial value", err)
		}
		s.initial[in] = z
	}
	for in := range initial {
		if _, ok := fed[in]; !ok {
			return nil, fmt.Errorf("NewStateful: an initial value is given for %q, which no output feeds", in)
		}
	}
	s.Reset()
	return s, nil
}

// zeroOf is a tensor of zeros of the declared type of input vi.
func zeroOf(vi ValueInfo) (*tensor.Tensor, error) {
	t := vi.Type
	if t.Kind != KindTensor || !t.Ranked || t.DataType == tensor.Undefined {
		return nil, fmt.Errorf("input %q is declared %s, not a tensor of known type and shape", vi.Name, vi.Describe())
	}
	shape := make([]int, len(t.Shape))
	for i, d := range t.Shape {
		n, known := d.Value()
		if !known || n > int64(^uint(0)>>1) {
			return nil, fmt.Errorf("input %q has the shape %s, not fixed", vi.Name, vi.Describe())
		}
		shape[i] = int(n)
	}
	return tensor.New(t.DataType, shape...)
}

// Run runs one call on inputs and the carried values and returns all the
// outputs, the carried ones included; the carried outputs become the next
// call's inputs. After an error the state is as it was before the call.
func (s *Stateful) Run(ctx context.Context, inputs map[string]tensor.Value) (Result, error) {
	all := make(map[string]tensor.Value, len(inputs)+len(s.state))
	for name, v := range inputs {
		if _, carried := s.state[name]; carried {
			return Result{}, fmt.Errorf("input %q is carried from the last call's outputs: it cannot be given too", name)
		}
		all[name] = v
	}
	maps.Copy(all, s.state)
	out, err := s.m.Run(ctx, all, s.Options)
	if err != nil {
		return Result{}, err
	}
	for o, in := range s.carry {
		s.state[in] = out.values[out.index[o]]
	}
	return out, nil
}

// State returns the value the next call feeds to the carried input name,
// and whether name is carried.
func (s *Stateful) State(name string) (tensor.Value, bool) {
	v, ok := s.state[name]
	return v, ok
}

// Reset restores the initial values, as at a new stream's start.
func (s *Stateful) Reset() { s.state = maps.Clone(s.initial) }
