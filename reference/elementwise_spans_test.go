package reference

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// The vector span loops of the elementwise engine (comparisons, Min, Max,
// BitShift, IsNaN, IsInf, Where, the bool logic) against the reference, on
// shapes long enough to reach them: spans of up to 100 elements (the
// loops take 32 at a time, the rest runs in Go), every rank from 1 to 5,
// and each input the whole shape, a scalar, a row (the last axis), a
// column (the first axis) or a random broadcast. The inputs must come out
// unchanged.
var spanOps = []string{"Equal", "Less", "LessOrEqual", "Greater", "GreaterOrEqual", "Min", "Max",
	"BitShift", "IsNaN", "IsInf", "Where", "And", "Or", "Xor", "Not"}

func spanShape(rng *rand.Rand, rank int) []int {
	s := make([]int, rank)
	for k := range s {
		s[k] = 1 + rng.IntN(4)
	}
	s[rank-1] = 1 + rng.IntN(100)
	return s
}

// broadcastOf is a shape that broadcasts to out, by kind.
func broadcastOf(rng *rand.Rand, out []int, kind int) []int {
	switch kind {
	case 0:
		return slices.Clone(out)
	case 1:
		return []int{}
	case 2: // a row: the last axis
		return []int{out[len(out)-1]}
	case 3: // a column: the first axis
		s := slices.Clone(out)
		for k := 1; k < len(s); k++ {
			s[k] = 1
		}
		return s
	}
	return squeezeSomeDims(rng, out)
}

func TestSpanLoopsMatchReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, s := range ops.Schemas() {
		if s.Domain != "" || !slices.Contains(spanOps, s.Name) {
			continue
		}
		ref, ok := Kernel("", s.Name, s.Since)
		if !ok {
			t.Fatalf("no reference kernel for %s-%d", s.Name, s.Since)
		}
		compared := 0
		for _, dt := range tensor.AllTypes() {
			if dt.Bits() < 8 || dt == tensor.String || dt == tensor.Float8E8M0 {
				continue
			}
			for trial := range 10 {
				out := spanShape(rng, 1+trial%5)
				node := &ops.Node{OpType: s.Name, Version: s.Since, Attrs: map[string]ops.Attribute{}, NumOutputs: 1}
				switch s.Name {
				case "BitShift":
					node.Attrs["direction"] = ops.Attribute{Type: ops.AttrString, String: []string{"LEFT", "RIGHT"}[trial%2]}
				case "IsInf":
					node.Attrs["detect_positive"] = ops.Attribute{Type: ops.AttrInt, Int: int64(trial % 2)}
					node.Attrs["detect_negative"] = ops.Attribute{Type: ops.AttrInt, Int: int64(trial / 2 % 2)}
				}
				inType := dt
				if slices.Contains([]string{"Not", "And", "Or", "Xor"}, s.Name) {
					if dt != tensor.Bool {
						continue
					}
				}
				var in []tensor.Value
				switch {
				case s.Name == "Where":
					in = []tensor.Value{
						randomElementwiseTensor(rng, tensor.Bool, broadcastOf(rng, out, rng.IntN(5))),
						randomElementwiseTensor(rng, dt, broadcastOf(rng, out, rng.IntN(5))),
						randomElementwiseTensor(rng, dt, broadcastOf(rng, out, rng.IntN(5)))}
				case s.Inputs[1] == 1:
					in = []tensor.Value{randomElementwiseTensor(rng, inType, out)}
				case s.Since < 7 || (s.Inputs[1] < 0 && s.Since < 8):
					continue // the legacy broadcasts: TestElementwiseMatchesOps
				default:
					ka, kb := trial%5, rng.IntN(5)
					if trial%2 == 1 {
						ka, kb = kb, ka
					}
					in = []tensor.Value{randomElementwiseTensor(rng, inType, broadcastOf(rng, out, ka)), randomElementwiseTensor(rng, inType, broadcastOf(rng, out, kb))}
				}
				var before [][]byte
				for _, v := range in {
					before = append(before, bytes.Clone(v.(*tensor.Tensor).Bytes()))
				}
				want, err := s.Run(nil, node, in)
				var opErr *ops.Error
				if errors.As(err, &opErr) && opErr.Rule == "type" {
					continue
				}
				name := fmt.Sprintf("%s-%d %v trial %d (%s)", s.Name, s.Since, dt, trial, describeElementwiseInputs(in))
				for i, v := range in {
					if !bytes.Equal(before[i], v.(*tensor.Tensor).Bytes()) {
						t.Fatalf("%s: input %d modified", name, i)
					}
				}
				got, rerr := ref(nil, node, in)
				if (err == nil) != (rerr == nil) {
					t.Errorf("%s: ops error %v, reference error %v", name, err, rerr)
					continue
				}
				if err != nil {
					continue
				}
				compared++
				if msg := sameElementwiseTensor(want[0].(*tensor.Tensor), got[0].(*tensor.Tensor)); msg != "" {
					t.Errorf("%s: %s", name, msg)
				}
			}
		}
		if compared == 0 && s.Since >= 7 {
			t.Errorf("%s-%d: no type compared", s.Name, s.Since)
		}
	}
}
