package conformance

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"testing"

	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/internal/nodeproto"
	"github.com/onnxshape/onnxshape/onnx"
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/profile"
	"github.com/onnxshape/onnxshape/reference"
	"github.com/onnxshape/onnxshape/tensor"
)

// Both engines agree on every node test the manifest marks pass: the same
// outputs, bit for bit (within reference.Agree's stated bound for linear and
// cubic Resize and the convolutions; a model of several nodes whose outputs
// differ, node by node, each on the reference's values), under ONNX rules and, for the models inside the SONNX
// profile, under the profile too, where a refusal must come from both
// engines under the same rule.
func TestEnginesAgreeOnNodeTests(t *testing.T) {
	compared := 0
	for _, c := range passCases(t) {
		name := filepath.Base(c)
		t.Run(name, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join(c, "model.onnx"))
			if err != nil {
				t.Fatal(err)
			}
			m, err := graph.LoadBytes(b, c)
			if err != nil {
				t.Fatal(err)
			}
			profiles := []ops.Profile{ops.ProfileONNX}
			if profile.Enforce(m) == nil {
				profiles = append(profiles, ops.ProfileSONNX)
			}
			sets, _ := filepath.Glob(filepath.Join(c, "test_data_set_*"))
			sort.Strings(sets)
			for _, set := range sets {
				inputs := map[string]tensor.Value{}
				for k, vi := range m.Inputs() {
					v, err := readValue(filepath.Join(set, fmt.Sprintf("input_%d.pb", k)), vi)
					if err != nil {
						t.Fatal(err)
					}
					inputs[vi.Name] = v
				}
				for _, p := range profiles {
					if err := enginesAgree(m, c, inputs, p); err != nil {
						t.Errorf("%s under %v: %v", filepath.Base(set), p, err)
					}
				}
			}
			compared++
		})
	}
	if compared == 0 {
		t.Fatal("no pass case compared")
	}
}

// enginesAgree runs a one-node model through both engines under profile p.
func enginesAgree(m *graph.Model, dir string, inputs map[string]tensor.Value, p ops.Profile) error {
	run := func(e graph.Engine) (map[string]tensor.Value, error) {
		res, err := m.Run(context.Background(), inputs, &graph.RunOptions{Profile: p, Engine: e})
		return res.Map(), err
	}
	fast, errFast := run(graph.EngineFast)
	ref, errRef := run(graph.EngineReference)
	if errFast != nil || errRef != nil {
		return sameRefusal(errFast, errRef)
	}
	if len(m.Proto().GetGraph().GetNode()) > 1 {
		if err := outputsEqual(m, fast, ref); err == nil {
			return nil
		}
		if hasSubgraphs(m) {
			// Nodes inside a body cannot be fed one by one: the outputs
			// of a model whose bodies sum products (an expanded function
			// with MatMul inside Scan) must agree within the node tests'
			// own tolerance.
			for _, vi := range m.Outputs() {
				if err := Compare(fast[vi.Name], ref[vi.Name]); err != nil {
					return fmt.Errorf("output %s: %w", vi.Name, err)
				}
			}
			return nil
		}
		// A model of several nodes (an expanded function) whose float
		// sums differ in their last bits: the engines must agree node by
		// node, each node within reference.Agree's bound.
		return agreeNodeByNode(m, dir, inputs, p)
	}
	// The node and its inputs, for the bound of Resize.
	np := m.Proto().GetGraph().GetNode()[0]
	var node *ops.Node
	var in []tensor.Value
	for _, imp := range m.Proto().GetOpsetImport() {
		if imp.GetDomain() == np.GetDomain() {
			s, err := ops.Lookup(np.GetDomain(), np.GetOpType(), int(imp.GetVersion()))
			if err != nil {
				return err
			}
			if node, err = nodeproto.Decode(np, s.Since, dir); err != nil {
				return err
			}
		}
	}
	if node == nil {
		return fmt.Errorf("no opset import for the node's domain")
	}
	for _, name := range np.GetInput() {
		in = append(in, inputs[name])
	}
	var fastOut, refOut []tensor.Value
	for _, vi := range m.Outputs() {
		fastOut = append(fastOut, fast[vi.Name])
		refOut = append(refOut, ref[vi.Name])
	}
	return reference.Agree(node, in, fastOut, refOut)
}

// outputsEqual reports whether the two runs' outputs are the same, bit for
// bit (sequences and optionals item by item).
func outputsEqual(m *graph.Model, fast, ref map[string]tensor.Value) error {
	for _, vi := range m.Outputs() {
		if !valuesEqual(fast[vi.Name], ref[vi.Name]) {
			return fmt.Errorf("output %s differs", vi.Name)
		}
	}
	return nil
}

func valuesEqual(a, b tensor.Value) bool {
	switch a := a.(type) {
	case *tensor.Tensor:
		b, ok := b.(*tensor.Tensor)
		return ok && a != nil && b != nil && a.Equal(b)
	case *tensor.Sequence:
		b, ok := b.(*tensor.Sequence)
		if !ok || a == nil || b == nil || a.ElemType != b.ElemType || len(a.Items) != len(b.Items) {
			return false
		}
		for i := range a.Items {
			if !valuesEqual(a.Items[i], b.Items[i]) {
				return false
			}
		}
		return true
	case *tensor.Optional:
		b, ok := b.(*tensor.Optional)
		if !ok || a == nil || b == nil || (a.Value == nil) != (b.Value == nil) {
			return false
		}
		return a.Value == nil || valuesEqual(a.Value, b.Value)
	}
	return false
}

// hasSubgraphs reports whether a node of m's graph carries a graph
// attribute (If, Loop, Scan, SequenceMap).
func hasSubgraphs(m *graph.Model) bool {
	for _, n := range m.Proto().GetGraph().GetNode() {
		for _, a := range n.GetAttribute() {
			if a.GetG() != nil || len(a.GetGraphs()) > 0 {
				return true
			}
		}
	}
	return false
}

// agreeNodeByNode runs the nodes of a model of one graph (no subgraphs) in
// order through both engines, each node on the reference engine's values,
// and requires every node's outputs to agree (reference.Agree).
func agreeNodeByNode(m *graph.Model, dir string, inputs map[string]tensor.Value, p ops.Profile) error {
	values := map[string]tensor.Value{}
	for k, v := range inputs {
		values[k] = v
	}
	g := m.Proto().GetGraph()
	for _, tp := range g.GetInitializer() {
		if _, ok := values[tp.GetName()]; ok {
			continue
		}
		t, err := onnx.TensorFromProto(tp, dir)
		if err != nil {
			return err
		}
		values[tp.GetName()] = t
	}
	opset := map[string]int{}
	for _, imp := range m.Proto().GetOpsetImport() {
		opset[imp.GetDomain()] = int(imp.GetVersion())
	}
	opt := &ops.Options{Profile: p}
	for k, np := range g.GetNode() {
		s, err := ops.Lookup(np.GetDomain(), np.GetOpType(), opset[np.GetDomain()])
		if err != nil {
			return err
		}
		node, err := nodeproto.Decode(np, s.Since, dir)
		if err != nil {
			return err
		}
		ref, ok := reference.Kernel(np.GetDomain(), np.GetOpType(), s.Since)
		if !ok {
			return fmt.Errorf("node %d (%s): no reference kernel", k, np.GetOpType())
		}
		var in []tensor.Value
		for _, name := range np.GetInput() {
			in = append(in, values[name])
		}
		fastOut, errFast := s.Run(opt, node, in)
		refOut, errRef := ref(opt, node, in)
		if errFast != nil || errRef != nil {
			return fmt.Errorf("node %d (%s): fast %v, reference %v", k, np.GetOpType(), errFast, errRef)
		}
		if err := reference.Agree(node, in, fastOut, refOut); err != nil {
			return fmt.Errorf("node %d (%s): %w", k, np.GetOpType(), err)
		}
		for i, name := range np.GetOutput() {
			if i < len(refOut) {
				values[name] = refOut[i]
			}
		}
	}
	return nil
}

// sameRefusal requires both engines to have failed, under the same rule of
// the same operator version.
func sameRefusal(errFast, errRef error) error {
	if errFast == nil || errRef == nil {
		return fmt.Errorf("one engine only failed: fast %v, reference %v", errFast, errRef)
	}
	var ef, er *ops.Error
	if errors.As(errFast, &ef) != errors.As(errRef, &er) {
		return fmt.Errorf("the engines fail differently: fast %v, reference %v", errFast, errRef)
	}
	if ef != nil && (ef.Op != er.Op || ef.Version != er.Version || ef.Rule != er.Rule) {
		return fmt.Errorf("the engines break different rules: fast %v, reference %v", errFast, errRef)
	}
	return nil
}

// A node runs prepared (ops.Prepared) when its inputs have the types,
// shapes and parameter values of its last run: every pass case, run once on
// other float data to prepare its node and then on its own inputs, gives
// bit for bit the outputs of a model that has never run, and a third run
// (reusing the headers of the second) gives them again, the second run's
// outputs unchanged.
func TestPreparedNodesReplayNodeTests(t *testing.T) {
	ctx := context.Background()
	for _, c := range passCases(t) {
		name := filepath.Base(c)
		b, err := os.ReadFile(filepath.Join(c, "model.onnx"))
		if err != nil {
			t.Fatal(err)
		}
		sets, _ := filepath.Glob(filepath.Join(c, "test_data_set_*"))
		sort.Strings(sets)
		for _, set := range sets {
			fresh, err1 := graph.LoadBytes(b, c)
			warm, err2 := graph.LoadBytes(b, c)
			if err1 != nil || err2 != nil {
				t.Fatalf("%s: %v %v", name, err1, err2)
			}
			inputs, other := map[string]tensor.Value{}, map[string]tensor.Value{}
			for k, vi := range fresh.Inputs() {
				v, err := readValue(filepath.Join(set, fmt.Sprintf("input_%d.pb", k)), vi)
				if err != nil {
					t.Fatal(err)
				}
				inputs[vi.Name], other[vi.Name] = v, otherFloats(v)
			}
			want, errWant := fresh.Run(ctx, inputs, nil)
			warm.Run(ctx, other, nil) // prepares; may fail on other data
			got, errGot := warm.Run(ctx, inputs, nil)
			if (errWant == nil) != (errGot == nil) {
				t.Errorf("%s: fresh %v, prepared %v", name, errWant, errGot)
				continue
			}
			if errWant != nil {
				continue
			}
			kept := map[string]tensor.Value{}
			for k, v := range got.Map() {
				kept[k] = cloneValue(v)
			}
			again, err := warm.Run(ctx, inputs, nil)
			if err != nil {
				t.Errorf("%s: third run: %v", name, err)
				continue
			}
			for _, vi := range fresh.Outputs() {
				for _, pair := range [][2]tensor.Value{{got.Map()[vi.Name], want.Map()[vi.Name]}, {again.Map()[vi.Name], want.Map()[vi.Name]}, {got.Map()[vi.Name], kept[vi.Name]}} {
					if !identical(pair[0], pair[1]) {
						t.Errorf("%s %s: output %s: prepared %v, fresh %v", name, filepath.Base(set), vi.Name, pair[0], pair[1])
					}
				}
			}
		}
	}
}

// otherFloats returns v with every float32 element x replaced by 0.5x+1,
// other values as they are.
func otherFloats(v tensor.Value) tensor.Value {
	t, ok := v.(*tensor.Tensor)
	if !ok || t.DataType() != tensor.Float {
		return v
	}
	xs, _ := tensor.ToSlice[float32](t)
	for i := range xs {
		xs[i] = 0.5*xs[i] + 1
	}
	u, err := tensor.FromSlice(xs, t.Shape()...)
	if err != nil {
		return v
	}
	return u
}

// cloneValue copies a tensor's storage; other values are kept as they are.
func cloneValue(v tensor.Value) tensor.Value {
	if t, ok := v.(*tensor.Tensor); ok {
		return t.Clone()
	}
	return v
}

// identical reports two values of the same type, shape and bits.
func identical(a, b tensor.Value) bool {
	x, ok1 := a.(*tensor.Tensor)
	y, ok2 := b.(*tensor.Tensor)
	if !ok1 || !ok2 {
		return ok1 == ok2 && a.Describe() == b.Describe()
	}
	return x.DataType() == y.DataType() && slices.Equal(x.Shape(), y.Shape()) &&
		bytes.Equal(x.Bytes(), y.Bytes()) && slices.Equal(x.Strings(), y.Strings())
}
