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
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/profile"
	"github.com/onnxshape/onnxshape/reference"
	"github.com/onnxshape/onnxshape/tensor"
)

// Both engines agree on every node test the manifest marks pass: the same
// outputs, bit for bit (within reference.Agree's stated bound for linear and
// cubic Resize and for sums of products; within the node tests' tolerance
// for a model of several nodes with a sum of products inside), under ONNX rules and, for the models inside the SONNX
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
		return m.Run(context.Background(), inputs, &graph.RunOptions{Profile: p, Engine: e})
	}
	fast, errFast := run(graph.EngineFast)
	ref, errRef := run(graph.EngineReference)
	if errFast != nil || errRef != nil {
		return sameRefusal(errFast, errRef)
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
	err := reference.Agree(node, in, fastOut, refOut)
	if err == nil || !sumsProducts(m) {
		return err
	}
	// A graph of several nodes (an expanded function) with a float sum of
	// products inside: the two engines' sums differ in their last bits
	// (reference.Agree bounds them for the node alone), and what follows
	// carries the difference on; the outputs must agree within the node
	// tests' own tolerance.
	for i := range fastOut {
		if cerr := Compare(fastOut[i], refOut[i]); cerr != nil {
			return fmt.Errorf("%v; within the node tests' tolerance: %v", err, cerr)
		}
	}
	return nil
}

// sumsProducts reports whether a model of more than one node holds a
// MatMul, Gemm or Einsum.
func sumsProducts(m *graph.Model) bool {
	nodes := m.Proto().GetGraph().GetNode()
	if len(nodes) < 2 {
		return false
	}
	for _, n := range nodes {
		switch n.GetOpType() {
		case "MatMul", "Gemm", "Einsum":
			return true
		}
	}
	return false
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
			for k, v := range got {
				kept[k] = cloneValue(v)
			}
			again, err := warm.Run(ctx, inputs, nil)
			if err != nil {
				t.Errorf("%s: third run: %v", name, err)
				continue
			}
			for _, vi := range fresh.Outputs() {
				for _, pair := range [][2]tensor.Value{{got[vi.Name], want[vi.Name]}, {again[vi.Name], want[vi.Name]}, {got[vi.Name], kept[vi.Name]}} {
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
