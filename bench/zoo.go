package bench

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"

	"github.com/onnxshape/onnxshape/builder"
	"github.com/onnxshape/onnxshape/onnx"
	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/tensor"
)

// The model zoo: whole networks in the shapes exporters write them
// (torch.onnx, tf2onnx, onnxruntime's quantizer), with seeded random
// weights, for the whole-model benchmarks and the end-to-end comparison
// with onnxruntime. Nothing is downloaded: each network is built here with
// package builder, the way an exporter lays it out (BatchNormalization
// after every convolution, ReLU6 as Clip, attention as MatMul, Reshape,
// Transpose and Softmax, GELU through Erf, dynamic int8 quantization as
// DynamicQuantizeLinear, MatMulInteger, Cast and Mul).

// A ZooModel is one network of the zoo.
type ZooModel struct {
	// Name is the case's folder name, e.g. "resnet50".
	Name string
	// Doc says what the network is.
	Doc string
	// Build returns the model and its inputs at scale: 1 is the network's
	// real size; a larger scale divides widths and resolution by it for
	// quick tests.
	Build func(scale int) (*pb.ModelProto, []ZooInput, error)
}

// ZooInput is one graph input of a zoo model and its value.
type ZooInput struct {
	Name  string
	Value *tensor.Tensor
}

// Zoo returns the networks of the zoo.
func Zoo() []ZooModel {
	return []ZooModel{
		{"resnet50", "ResNet-50 (torchvision's layout): 224x224 RGB to 1000 classes", resnet50},
		{"mobilenetv2", "MobileNetV2 (torchvision's layout): inverted residuals, depthwise 3x3, ReLU6 as Clip", mobilenetV2},
		{"bert2", "a BERT-style encoder: 2 layers, hidden 256, 4 heads, sequence 128, GELU through Erf", bertEncoder},
		{"gpt2", "a GPT-style decoder: 2 layers, hidden 256, 4 heads, causal mask, sequence 64, tanh GELU", gptDecoder},
		{"mlp_int8", "an MLP quantized dynamically to int8 (DynamicQuantizeLinear, MatMulInteger, Cast, Mul), 3 layers of 512", mlpInt8},
	}
}

// Write writes the model at scale as root/<Name>/model.onnx and its inputs
// as root/<Name>/test_data_set_0/input_K.pb (the node-test layout ReadCase
// reads).
func (z ZooModel) Write(root string, scale int) error {
	m, inputs, err := z.Build(scale)
	if err != nil {
		return fmt.Errorf("%s: %w", z.Name, err)
	}
	b, err := onnx.EncodeModel(m)
	if err != nil {
		return fmt.Errorf("%s: %w", z.Name, err)
	}
	dir := filepath.Join(root, z.Name)
	data := filepath.Join(dir, "test_data_set_0")
	if err := os.MkdirAll(data, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "model.onnx"), b, 0o644); err != nil {
		return err
	}
	for i, in := range inputs {
		b, err := onnx.EncodeValue(in.Value, in.Name)
		if err != nil {
			return fmt.Errorf("%s: input %s: %w", z.Name, in.Name, err)
		}
		if err := os.WriteFile(filepath.Join(data, fmt.Sprintf("input_%d.pb", i)), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// net is a builder with a seeded source of weights.
type net struct {
	*builder.Builder
	r *rand.Rand
	n int // weights made so far, for their names
}

func newNet(opset int, seed string) *net {
	return &net{Builder: builder.New(opset), r: rng(seed, nil)}
}

// normal returns a constant of the given shape drawn from N(0, std²).
func (b *net) normal(std float64, shape ...int) builder.Value {
	t := tensor.MustNew(tensor.Float, shape...)
	v, _ := tensor.Data[float32](t)
	for i := range v {
		v[i] = float32(b.r.NormFloat64() * std)
	}
	b.n++
	return b.Constant(fmt.Sprintf("w%d", b.n), t)
}

// uniformConst returns a constant of the given shape drawn in [lo, hi).
func (b *net) uniformConst(lo, hi float64, shape ...int) builder.Value {
	t := tensor.MustNew(tensor.Float, shape...)
	v, _ := tensor.Data[float32](t)
	for i := range v {
		v[i] = float32(lo + b.r.Float64()*(hi-lo))
	}
	b.n++
	return b.Constant(fmt.Sprintf("w%d", b.n), t)
}

func (b *net) scalar(v float32) builder.Value {
	b.n++
	return b.Constant(fmt.Sprintf("c%d", b.n), tensor.Scalar(v))
}

// convBN is Conv (He-initialised, no bias, as torchvision's) followed by
// BatchNormalization with random statistics.
func (b *net) convBN(x builder.Value, cin, cout, k, stride, group int) builder.Value {
	w := b.normal(math.Sqrt(2/float64(cin/group*k*k)), cout, cin/group, k, k)
	y := b.Op("Conv", x, w, builder.Ints("kernel_shape", k, k), builder.Ints("strides", stride, stride),
		builder.Ints("pads", k/2, k/2, k/2, k/2), builder.Int("group", group))
	scale := b.uniformConst(0.5, 1.5, cout)
	bias := b.uniformConst(-0.1, 0.1, cout)
	mean := b.uniformConst(-0.1, 0.1, cout)
	variance := b.uniformConst(0.5, 1.5, cout)
	return b.Op("BatchNormalization", y, scale, bias, mean, variance, builder.Float("epsilon", 1e-5))
}

// classifier is GlobalAveragePool, Flatten and a Gemm to classes.
func (b *net) classifier(x builder.Value, c, classes int) builder.Value {
	p := b.Op("GlobalAveragePool", x)
	f := b.Op("Flatten", p, builder.Int("axis", 1))
	w := b.normal(1/math.Sqrt(float64(c)), classes, c)
	bias := b.uniformConst(-0.01, 0.01, classes)
	return b.Op("Gemm", f, w, bias, builder.Int("transB", 1))
}

func imageInput(b *net, size int) ZooInput {
	x := tensor.MustNew(tensor.Float, 1, 3, size, size)
	v, _ := tensor.Data[float32](x)
	for i := range v {
		v[i] = float32(b.r.NormFloat64())
	}
	return ZooInput{"input", x}
}

func resnet50(scale int) (*pb.ModelProto, []ZooInput, error) {
	b := newNet(13, "resnet50")
	size := 224 / scale
	in := imageInput(b, size)
	x := b.Input("input", tensor.Float, 1, 3, size, size)
	w := func(c int) int { return max(c/scale, 4) }
	x = b.Op("Relu", b.convBN(x, 3, w(64), 7, 2, 1))
	x = b.Op("MaxPool", x, builder.Ints("kernel_shape", 3, 3), builder.Ints("strides", 2, 2), builder.Ints("pads", 1, 1, 1, 1))
	cin := w(64)
	for stage, blocks := range []int{3, 4, 6, 3} {
		width := w(64 << stage)
		for i := range blocks {
			stride := 1
			if i == 0 && stage > 0 {
				stride = 2
			}
			y := b.Op("Relu", b.convBN(x, cin, width, 1, 1, 1))
			y = b.Op("Relu", b.convBN(y, width, width, 3, stride, 1))
			y = b.convBN(y, width, 4*width, 1, 1, 1)
			short := x
			if i == 0 {
				short = b.convBN(x, cin, 4*width, 1, stride, 1)
			}
			x = b.Op("Relu", b.Op("Add", y, short))
			cin = 4 * width
		}
	}
	b.Output("logits", b.classifier(x, cin, 1000))
	m, err := b.ModelProto()
	return m, []ZooInput{in}, err
}

func mobilenetV2(scale int) (*pb.ModelProto, []ZooInput, error) {
	b := newNet(13, "mobilenetv2")
	size := 224 / scale
	in := imageInput(b, size)
	x := b.Input("input", tensor.Float, 1, 3, size, size)
	w := func(c int) int { return max(c/scale, 4) }
	relu6 := func(v builder.Value) builder.Value {
		return b.Op("Clip", v, b.scalar(0), b.scalar(6))
	}
	x = relu6(b.convBN(x, 3, w(32), 3, 2, 1))
	cin := w(32)
	for _, s := range []struct{ t, c, n, stride int }{
		{1, 16, 1, 1}, {6, 24, 2, 2}, {6, 32, 3, 2}, {6, 64, 4, 2}, {6, 96, 3, 1}, {6, 160, 3, 2}, {6, 320, 1, 1},
	} {
		for i := range s.n {
			stride := 1
			if i == 0 {
				stride = s.stride
			}
			hidden := cin * s.t
			y := x
			if s.t != 1 {
				y = relu6(b.convBN(y, cin, hidden, 1, 1, 1))
			}
			y = relu6(b.convBN(y, hidden, hidden, 3, stride, hidden))
			y = b.convBN(y, hidden, w(s.c), 1, 1, 1)
			if stride == 1 && cin == w(s.c) {
				y = b.Op("Add", x, y)
			}
			x, cin = y, w(s.c)
		}
	}
	x = relu6(b.convBN(x, cin, w(1280), 1, 1, 1))
	b.Output("logits", b.classifier(x, w(1280), 1000))
	m, err := b.ModelProto()
	return m, []ZooInput{in}, err
}

// transformer holds the sizes of the two language models.
type transformer struct {
	layers, hidden, heads, ffn, seq, vocab int
}

// linear is MatMul by a [in, out] weight plus a bias, as torch.onnx writes
// nn.Linear.
func (b *net) linear(x builder.Value, in, out int) builder.Value {
	w := b.normal(1/math.Sqrt(float64(in)), in, out)
	return b.Op("Add", b.Op("MatMul", x, w), b.uniformConst(-0.02, 0.02, out))
}

func (b *net) layerNorm(x builder.Value, hidden int) builder.Value {
	return b.Op("LayerNormalization", x, b.uniformConst(0.8, 1.2, hidden), b.uniformConst(-0.1, 0.1, hidden),
		builder.Int("axis", -1), builder.Float("epsilon", 1e-12))
}

// attention is multi-head self-attention over x [1, seq, hidden] with an
// additive mask broadcast to [1, heads, seq, seq].
func (b *net) attention(x, mask builder.Value, t transformer) builder.Value {
	dh := t.hidden / t.heads
	heads := func(v builder.Value) builder.Value {
		r := b.Op("Reshape", v, b.Ints64(fmt.Sprintf("shape%d", b.n+1), 1, int64(t.seq), int64(t.heads), int64(dh)))
		b.n++
		return b.Op("Transpose", r, builder.Ints("perm", 0, 2, 1, 3))
	}
	q := heads(b.linear(x, t.hidden, t.hidden))
	k := b.Op("Transpose", heads(b.linear(x, t.hidden, t.hidden)), builder.Ints("perm", 0, 1, 3, 2))
	v := heads(b.linear(x, t.hidden, t.hidden))
	s := b.Op("Div", b.Op("MatMul", q, k), b.scalar(float32(math.Sqrt(float64(dh)))))
	p := b.Op("Softmax", b.Op("Add", s, mask), builder.Int("axis", -1))
	o := b.Op("Transpose", b.Op("MatMul", p, v), builder.Ints("perm", 0, 2, 1, 3))
	b.n++
	o = b.Op("Reshape", o, b.Ints64(fmt.Sprintf("shape%d", b.n), 1, int64(t.seq), int64(t.hidden)))
	return b.linear(o, t.hidden, t.hidden)
}

// embed looks the tokens up and adds the positions' embeddings.
func (b *net) embed(ids builder.Value, t transformer) builder.Value {
	tok := b.Op("Gather", b.normal(0.02, t.vocab, t.hidden), ids)
	return b.Op("Add", tok, b.normal(0.02, 1, t.seq, t.hidden))
}

func tokens(r *rand.Rand, t transformer) *tensor.Tensor {
	ids := tensor.MustNew(tensor.Int64, 1, t.seq)
	v, _ := tensor.Data[int64](ids)
	for i := range v {
		v[i] = r.Int64N(int64(t.vocab))
	}
	return ids
}

func bertEncoder(scale int) (*pb.ModelProto, []ZooInput, error) {
	t := transformer{layers: 2, hidden: 256, heads: 4, ffn: 1024, seq: 128 / scale, vocab: 1000}
	b := newNet(17, "bert2")
	ids := tokens(b.r, t)
	mask := tensor.MustNew(tensor.Int64, 1, t.seq)
	mv, _ := tensor.Data[int64](mask)
	for i := range mv {
		if i < t.seq*3/4 {
			mv[i] = 1
		}
	}
	x := b.embed(b.Input("input_ids", tensor.Int64, 1, t.seq), t)
	x = b.layerNorm(x, t.hidden)
	// The extended attention mask: (1 - mask) * -10000, over [1, 1, 1, seq].
	m := b.Op("Cast", b.Op("Unsqueeze", b.Input("attention_mask", tensor.Int64, 1, t.seq), b.Ints64("mask_axes", 1, 2)), builder.Int("to", int(tensor.Float)))
	m = b.Op("Mul", b.Op("Sub", b.scalar(1), m), b.scalar(-10000))
	for range t.layers {
		x = b.layerNorm(b.Op("Add", x, b.attention(x, m, t)), t.hidden)
		h := b.linear(x, t.hidden, t.ffn)
		// GELU as torch.onnx writes it below opset 20: x * 0.5 * (1 + erf(x / sqrt 2)).
		g := b.Op("Mul", b.Op("Mul", h, b.Op("Add", b.Op("Erf", b.Op("Div", h, b.scalar(math.Sqrt2))), b.scalar(1))), b.scalar(0.5))
		x = b.layerNorm(b.Op("Add", x, b.linear(g, t.ffn, t.hidden)), t.hidden)
	}
	b.Output("last_hidden_state", x)
	md, err := b.ModelProto()
	return md, []ZooInput{{"input_ids", ids}, {"attention_mask", mask}}, err
}

func gptDecoder(scale int) (*pb.ModelProto, []ZooInput, error) {
	t := transformer{layers: 2, hidden: 256, heads: 4, ffn: 1024, seq: 64 / scale, vocab: 1000}
	b := newNet(17, "gpt2")
	ids := tokens(b.r, t)
	x := b.embed(b.Input("input_ids", tensor.Int64, 1, t.seq), t)
	// The causal mask: -10000 above the diagonal.
	causal := tensor.MustNew(tensor.Float, 1, 1, t.seq, t.seq)
	cv, _ := tensor.Data[float32](causal)
	for i := range t.seq {
		for j := i + 1; j < t.seq; j++ {
			cv[i*t.seq+j] = -10000
		}
	}
	mask := b.Constant("causal_mask", causal)
	for range t.layers {
		x = b.Op("Add", x, b.attention(b.layerNorm(x, t.hidden), mask, t))
		h := b.linear(b.layerNorm(x, t.hidden), t.hidden, t.ffn)
		// GPT-2's GELU: 0.5x(1 + tanh(sqrt(2/pi)(x + 0.044715x^3))).
		cube := b.Op("Mul", b.Op("Pow", h, b.scalar(3)), b.scalar(0.044715))
		inner := b.Op("Mul", b.Op("Add", h, cube), b.scalar(float32(math.Sqrt(2/math.Pi))))
		g := b.Op("Mul", b.Op("Mul", h, b.scalar(0.5)), b.Op("Add", b.Op("Tanh", inner), b.scalar(1)))
		x = b.Op("Add", x, b.linear(g, t.ffn, t.hidden))
	}
	x = b.layerNorm(x, t.hidden)
	b.Output("logits", b.Op("MatMul", x, b.normal(0.02, t.hidden, t.vocab)))
	md, err := b.ModelProto()
	return md, []ZooInput{{"input_ids", ids}}, err
}

func mlpInt8(scale int) (*pb.ModelProto, []ZooInput, error) {
	const layers = 3
	width := 512 / scale
	batch := 64 / scale
	b := newNet(13, "mlp_int8")
	x := b.Input("input", tensor.Float, batch, width)
	in := tensor.MustNew(tensor.Float, batch, width)
	iv, _ := tensor.Data[float32](in)
	for i := range iv {
		iv[i] = float32(b.r.NormFloat64())
	}
	for l := range layers {
		// onnxruntime's dynamic quantizer: the activation quantized per
		// tensor at run time (uint8), the weight per tensor ahead (int8,
		// symmetric), the int32 product scaled back to float.
		q := b.OpN("DynamicQuantizeLinear", 3, x)
		w := tensor.MustNew(tensor.Int8, width, width)
		wv, _ := tensor.Data[int8](w)
		for i := range wv {
			wv[i] = int8(b.r.IntN(255) - 127)
		}
		b.n++
		wq := b.Constant(fmt.Sprintf("wq%d", b.n), w)
		wScale := float32(1 / (127 * math.Sqrt(float64(width))))
		wZero := b.Constant(fmt.Sprintf("wz%d", b.n), tensor.Scalar(int8(0)))
		prod := b.Op("MatMulInteger", q[0], wq, q[2], wZero)
		scale := b.Op("Mul", q[1], b.scalar(wScale))
		y := b.Op("Add", b.Op("Mul", b.Op("Cast", prod, builder.Int("to", int(tensor.Float))), scale), b.uniformConst(-0.1, 0.1, width))
		if l < layers-1 {
			y = b.Op("Relu", y)
		}
		x = y
	}
	b.Output("output", x)
	md, err := b.ModelProto()
	return md, []ZooInput{{"input", in}}, err
}
