//go:build ort

package main

import (
	"testing"

	"github.com/onnxshape/onnxshape/bench"
	"github.com/onnxshape/onnxshape/onnx"
	"github.com/onnxshape/onnxshape/tensor"
)

// The zoo's networks (package bench: ResNet-50, MobileNetV2, a BERT-style
// encoder, a GPT-style decoder, an int8 MLP, in the layouts exporters
// write), scaled down 4x for speed, run in both engines and agree.
func TestZooAgrees(t *testing.T) {
	for _, z := range bench.Zoo() {
		t.Run(z.Name, func(t *testing.T) {
			m, inputs, err := z.Build(4)
			if err != nil {
				t.Fatal(err)
			}
			model, err := onnx.EncodeModel(m)
			if err != nil {
				t.Fatal(err)
			}
			c := &diffCase{name: z.Name, abs: 1e-3, rel: 1e-3}
			for _, in := range inputs {
				c.inputs = append(c.inputs, diffInput{in.Name, in.Value})
			}
			var names []string
			for _, o := range m.GetGraph().GetOutput() {
				names = append(names, o.GetName())
			}
			ours, err := runOurs(model, c)
			if err != nil {
				t.Fatalf("onnxshape: %v", err)
			}
			like := []*tensor.Tensor{}
			for _, n := range names {
				like = append(like, ours[n])
			}
			theirs, err := runORTModel(model, c, names, like)
			if err != nil {
				t.Fatalf("onnxruntime: %v", err)
			}
			for i, n := range names {
				if msg := c.compareOutput(ours[n], theirs[i]); msg != "" {
					t.Errorf("output %s: %s", n, msg)
				}
			}
		})
	}
}
