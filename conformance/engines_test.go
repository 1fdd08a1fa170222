package conformance

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
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
// cubic Resize), under ONNX rules and, for the models inside the SONNX
// profile, under the profile too, where a refusal must come from both
// engines under the same rule.
func TestEnginesAgreeOnNodeTests(t *testing.T) {
	dir := requireNodeTests(t)
	cases, err := FindCases(dir)
	if err != nil {
		t.Fatal(err)
	}
	manifest, err := ReadManifest("manifest.txt")
	if err != nil {
		t.Fatal(err)
	}
	compared := 0
	for _, c := range cases {
		name := filepath.Base(c)
		if e, ok := manifest[name]; !ok || !e.Pass {
			continue
		}
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
	return reference.Agree(node, in, fastOut, refOut)
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
