package ops_test

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/onnx"
	"github.com/onnxshape/onnxshape/tensor"
)

// TestPadResizeNodeTests runs the ONNX node tests of Pad, Resize, Upsample
// and CenterCropPad (which builds on Pad) found in ../shared/onnx-node (or
// $ONNXSHAPE_NODE_TESTS), comparing at rtol 1e-3, atol 1e-7 as ONNX's
// backend tests do.
func TestPadResizeNodeTests(t *testing.T) {
	dir := os.Getenv("ONNXSHAPE_NODE_TESTS")
	if dir == "" {
		dir = filepath.Join("..", "..", "shared", "onnx-node")
	}
	var cases []string
	for _, pat := range []string{"test_constant_pad*", "test_edge_pad*", "test_reflect_pad*", "test_wrap_pad*", "test_resize_*", "test_upsample_*"} {
		m, _ := filepath.Glob(filepath.Join(dir, pat))
		cases = append(cases, m...)
	}
	if len(cases) == 0 {
		t.Skipf("no ONNX node tests under %s", dir)
	}
	sort.Strings(cases)
	for _, c := range cases {
		name := filepath.Base(c)
		t.Run(name, func(t *testing.T) {
			if err := runNodeTest(c); err != nil {
				t.Error(err)
			}
		})
	}
}

func runNodeTest(dir string) error {
	m, err := graph.Load(filepath.Join(dir, "model.onnx"))
	if err != nil {
		return err
	}
	sets, _ := filepath.Glob(filepath.Join(dir, "test_data_set_*"))
	for _, set := range sets {
		inputs := map[string]tensor.Value{}
		for i, in := range m.Inputs() {
			b, err := os.ReadFile(filepath.Join(set, fmt.Sprintf("input_%d.pb", i)))
			if err != nil {
				return err
			}
			v, _, err := onnx.DecodeValue(b, in.TypeProto())
			if err != nil {
				return err
			}
			inputs[in.Name] = v
		}
		got, err := m.Run(context.Background(), inputs, nil)
		if err != nil {
			return err
		}
		for i, out := range m.Outputs() {
			b, err := os.ReadFile(filepath.Join(set, fmt.Sprintf("output_%d.pb", i)))
			if err != nil {
				return err
			}
			want, _, err := onnx.DecodeValue(b, out.TypeProto())
			if err != nil {
				return err
			}
			if err := closeTensors(got.Map()[out.Name].(*tensor.Tensor), want.(*tensor.Tensor), 1e-3, 1e-7); err != nil {
				return fmt.Errorf("%s: output %s: %v", filepath.Base(set), out.Name, err)
			}
		}
	}
	return nil
}

// closeTensors compares two tensors: same type and shape, strings and
// integers exactly, floats within atol + rtol*|want|.
func closeTensors(got, want *tensor.Tensor, rtol, atol float64) error {
	if got.DataType() != want.DataType() || !tensor.SameShape(got.Shape(), want.Shape()) {
		return fmt.Errorf("got %s, want %s", got.Describe(), want.Describe())
	}
	if !got.DataType().IsFloat() {
		if !got.Equal(want) {
			return fmt.Errorf("got %v, want %v", got, want)
		}
		return nil
	}
	g, _ := got.Float64s()
	w, _ := want.Float64s()
	for i := range g {
		if math.IsNaN(w[i]) && math.IsNaN(g[i]) {
			continue
		}
		if math.Abs(g[i]-w[i]) > atol+rtol*math.Abs(w[i]) {
			return fmt.Errorf("element %d is %v, want %v\ngot  %v\nwant %v", i, g[i], w[i], g, w)
		}
	}
	return nil
}
