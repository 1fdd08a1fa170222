//go:build ort

package main

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/onnxshape/onnxshape/tensor"
)

// Exported models: what torch.onnx.export writes for public architectures
// (torchvision's classifiers, SSDlite detector and LR-ASPP segmenter, the
// PyTorch tutorial's super-resolution network, pytorch/examples' fast
// neural style, a CRNN over LSTM and GRU, BERT- and GPT-shaped stacks of
// nn.TransformerEncoderLayer), made by
// scripts/export-models.py with seeded random weights, so that the exporter's
// own idioms (shape arithmetic, NMS and TopK, PixelShuffle, InstanceNorm,
// the masks) run end to end in both engines. Skipped without them.

func exportsDir() string {
	if d := os.Getenv("ONNXSHAPE_EXPORTS"); d != "" {
		return d
	}
	home, _ := os.UserHomeDir()
	return filepath.Join(home, ".cache", "onnxshape-exports")
}

// tokens is a rank-2 int64 tensor of ids below vocab.
func tokens(r *rand.Rand, vocab int64, rows, cols int) *tensor.Tensor {
	x := tensor.MustNew(tensor.Int64, rows, cols)
	v, _ := tensor.Data[int64](x)
	for i := range v {
		v[i] = r.Int64N(vocab)
	}
	return x
}

func image224(r *rand.Rand) []diffInput {
	return []diffInput{{"input", uniform(r, -2, 2, 1, 3, 224, 224)}}
}

var exportedModels = []modelCase{
	{file: "resnet18.onnx", abs: 1e-4, rel: 1e-3, inputs: image224},
	{file: "mobilenet_v3_small.onnx", abs: 1e-4, rel: 1e-3, inputs: image224},
	{file: "efficientnet_b0.onnx", abs: 1e-4, rel: 1e-3, inputs: image224},
	{file: "squeezenet1_1.onnx", abs: 1e-4, rel: 1e-3, inputs: image224},
	{file: "shufflenet_v2_x0_5.onnx", abs: 1e-4, rel: 1e-3, inputs: image224},
	// Statically quantized in PyTorch's FX mode (qnnpack, calibrated on
	// random images), exported as QuantizeLinear and DequantizeLinear
	// around float Conv, Add and Gemm. As with ISNet's ConvInteger layers,
	// a one-ulp difference in a Conv's sum (onnxshape's fast and reference
	// engines differ so from the first layer on) can move its
	// QuantizeLinear by one step: the mean difference is what stays small.
	{file: "resnet18_qdq.onnx", meanAbs: 0.02, inputs: image224},
	{file: "super_resolution.onnx", abs: 1e-4, rel: 1e-3,
		inputs: func(r *rand.Rand) []diffInput { return []diffInput{{"input", uniform(r, 0, 1, 1, 1, 224, 224)}} }},
	{file: "fast_neural_style.onnx", abs: 1e-3, rel: 1e-3, inputs: image224},
	{file: "lraspp_mobilenet_v3.onnx", abs: 1e-4, rel: 1e-3, inputs: image224},
	// Traced at width 128: the width, and so the LSTM's steps, is a symbol.
	{file: "crnn_lstm_gru.onnx", abs: 1e-4, rel: 1e-3,
		inputs: func(r *rand.Rand) []diffInput { return []diffInput{{"input", uniform(r, -1, 1, 2, 1, 32, 200)}} }},
	// The two transformer stacks were traced at other sizes (2x16 and
	// 1x12): batch and sequence are the graph's symbols.
	{file: "bert_like_encoder.onnx", abs: 1e-4, rel: 1e-3,
		inputs: func(r *rand.Rand) []diffInput {
			// The last row is padding after 5 tokens.
			mask := tensor.MustNew(tensor.Int64, 3, 9)
			m, _ := tensor.Data[int64](mask)
			for i := range m {
				if i < 2*9+5 {
					m[i] = 1
				}
			}
			return []diffInput{{"input_ids", tokens(r, 1000, 3, 9)}, {"attention_mask", mask}, {"token_type_ids", tokens(r, 2, 3, 9)}}
		}},
	{file: "gpt_like_decoder.onnx", abs: 1e-4, rel: 1e-3,
		inputs: func(r *rand.Rand) []diffInput { return []diffInput{{"input_ids", tokens(r, 1000, 2, 20)}} }},
	{file: "ssdlite320_mobilenet_v3.onnx", abs: 1e-4, rel: 1e-3,
		inputs: func(r *rand.Rand) []diffInput { return []diffInput{{"images", uniform(r, 0, 1, 3, 320, 320)}} }},
}

// TestExportedModels runs each exported model in both engines.
func TestExportedModels(t *testing.T) {
	dir := exportsDir()
	if _, err := os.Stat(filepath.Join(dir, ".complete")); err != nil {
		t.Skipf("exported models not made in %s (run scripts/export-models.py)", dir)
	}
	runModelCases(t, dir, exportedModels)
}
