//go:build ort

package main

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/onnxshape/onnxshape/onnx"
	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/tensor"
)

// Public models, end to end: the files scripts/models.sh installs (from the
// npm packages that ship them) run in onnxshape and in onnxruntime on the
// same inputs, and every output must agree within the case's tolerance.
// Without the models (scripts/models.sh not run) the test is skipped,
// saying so; a model listed here that fails to load or run in onnxshape
// fails the test.

// modelCase is one public model and how to feed it.
type modelCase struct {
	file string
	// inputs builds the inputs; scalars are set as initializers of the
	// model (the Go binding of onnxruntime refuses rank-0 inputs).
	inputs  func(r *rand.Rand) []diffInput
	scalars map[string]*tensor.Tensor
	abs     float64
	rel     float64
}

func modelsDir() string {
	if d := os.Getenv("ONNXSHAPE_MODELS"); d != "" {
		return d
	}
	home, _ := os.UserHomeDir()
	return filepath.Join(home, ".cache", "onnxshape-models")
}

func uniform(r *rand.Rand, lo, hi float32, shape ...int) *tensor.Tensor {
	x := tensor.MustNew(tensor.Float, shape...)
	v, _ := tensor.Data[float32](x)
	for i := range v {
		v[i] = lo + r.Float32()*(hi-lo)
	}
	return x
}

func int64Scalar(v int64) *tensor.Tensor {
	x := tensor.MustNew(tensor.Int64)
	d, _ := tensor.Data[int64](x)
	d[0] = v
	return x
}

// publicModels lists the models that run end to end; the issue that adds an
// operator a model needs adds the model here.
var publicModels = []modelCase{}

// TestPublicModels runs each listed model in both engines.
func TestPublicModels(t *testing.T) {
	dir := modelsDir()
	if _, err := os.Stat(filepath.Join(dir, ".complete")); err != nil {
		t.Skipf("public models not installed in %s (run scripts/models.sh)", dir)
	}
	for _, mc := range publicModels {
		t.Run(strings.TrimSuffix(mc.file, ".onnx"), func(t *testing.T) {
			m, err := onnx.ReadModel(filepath.Join(dir, mc.file))
			if err != nil {
				t.Fatal(err)
			}
			if err := setScalars(m, mc.scalars); err != nil {
				t.Fatal(err)
			}
			model, err := onnx.EncodeModel(m)
			if err != nil {
				t.Fatal(err)
			}
			r := rand.New(rand.NewPCG(1, uint64(len(mc.file))))
			c := &diffCase{name: mc.file, inputs: mc.inputs(r), abs: mc.abs, rel: mc.rel}
			var names []string
			for _, o := range m.GetGraph().GetOutput() {
				names = append(names, o.GetName())
			}
			ours, err := runOurs(model, c)
			if err != nil {
				t.Fatalf("onnxshape: %v", err)
			}
			var like []*tensor.Tensor
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

// setScalars turns the named graph inputs into initializers holding the
// given values.
func setScalars(m *pb.ModelProto, scalars map[string]*tensor.Tensor) error {
	g := m.GetGraph()
	var kept []*pb.ValueInfoProto
	for _, in := range g.GetInput() {
		v, ok := scalars[in.GetName()]
		if !ok {
			kept = append(kept, in)
			continue
		}
		tp, err := onnx.TensorToProto(v, in.GetName())
		if err != nil {
			return err
		}
		g.Initializer = append(g.Initializer, tp)
	}
	g.Input = kept
	return nil
}
