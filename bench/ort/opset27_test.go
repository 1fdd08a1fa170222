//go:build ort

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/onnxshape/onnxshape/onnx"
	"github.com/onnxshape/onnxshape/tensor"
)

// The stateful attention family (opset 27: CausalConvWithState,
// LinearAttention; ai.onnx.preview: FlexAttention) against onnxruntime,
// on the node suite's models and inputs (read in place from
// ../shared/onnx-node, never copied). onnxruntime 1.30 runs none of
// them: it refuses every model of ai.onnx opset 27 ("Current official
// support for domain ai.onnx is till opset 26") and has no
// ai.onnx.preview FlexAttention ("is not a registered function/op"). A
// session it cannot create is logged and counted, not failed, so that the
// test compares on its own once onnxruntime runs them. Tolerance abs 1e-4, rel 1e-4 (2e-3 for float16).
func TestORTAttentionState27(t *testing.T) {
	root := os.Getenv("ONNXSHAPE_NODE_TESTS")
	if root == "" {
		root = filepath.Join("..", "..", "..", "shared", "onnx-node")
	}
	dirs, _ := filepath.Glob(filepath.Join(root, "test_*"))
	ran, refused := 0, map[string]int{}
	for _, dir := range dirs {
		name := filepath.Base(dir)
		if strings.Contains(name, "expanded") || !(strings.HasPrefix(name, "test_causal_conv_with_state") ||
			strings.HasPrefix(name, "test_linear_attention") || strings.HasPrefix(name, "test_flexattention")) {
			continue
		}
		model, err := os.ReadFile(filepath.Join(dir, "model.onnx"))
		if err != nil {
			t.Fatal(err)
		}
		mp, err := onnx.DecodeModel(model)
		if err != nil {
			t.Fatal(err)
		}
		c := &diffCase{name: name, abs: 1e-4, rel: 1e-4}
		for k, vi := range mp.GetGraph().GetInput() {
			v, _, err := onnx.ReadValueWith(filepath.Join(dir, "test_data_set_0", fmt.Sprintf("input_%d.pb", k)), vi.GetType(), nil)
			if err != nil {
				t.Fatal(err)
			}
			x := v.(*tensor.Tensor)
			c.inputs = append(c.inputs, diffInput{vi.GetName(), x})
			halfTolerance(c, x.DataType())
		}
		var names []string
		for _, o := range mp.GetGraph().GetOutput() {
			names = append(names, o.GetName())
		}
		ours, err := runOurs(model, c)
		if err != nil {
			t.Errorf("%s: onnxshape: %v", name, err)
			continue
		}
		var like []*tensor.Tensor
		for _, n := range names {
			like = append(like, ours[n])
		}
		theirs, err := runORTModel(model, c, names, like)
		if err != nil {
			op := mp.GetGraph().GetNode()[0].GetOpType()
			if refused[op] == 0 {
				t.Logf("%s: onnxruntime refuses: %v", name, err)
			}
			refused[op]++
			continue
		}
		ran++
		for i, n := range names {
			if msg := c.compareOutput(ours[n], theirs[i]); msg != "" {
				t.Errorf("%s output %s: %s", name, n, msg)
			}
		}
	}
	t.Logf("%d cases compared; onnxruntime refused %v", ran, refused)
}
