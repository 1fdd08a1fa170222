//go:build ort

package main

import (
	"context"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	ort "github.com/yalue/onnxruntime_go"

	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/onnx"
	"github.com/onnxshape/onnxshape/tensor"
)

// vadModel is a silero voice-activity model and the names of its carried
// state: inputs fed by outputs of the same shape.
type vadModel struct {
	file  string
	carry map[string]string // output -> input
	shape map[string][]int  // a carried input's shape
}

var vadModels = []vadModel{
	{file: "silero_vad_v5.onnx", carry: map[string]string{"stateN": "state"}, shape: map[string][]int{"state": {2, 1, 128}}},
	{file: "silero_vad_legacy.onnx", carry: map[string]string{"hn": "h", "cn": "c"}, shape: map[string][]int{"h": {2, 1, 64}, "c": {2, 1, 64}}},
}

// TestSileroStreamTiming runs a stream of 1,000 512-sample steps of the
// silero VAD models (v5, and v4 as scripts/models.sh names it
// silero_vad_legacy) with their state carried from step to step, in
// onnxshape (graph.Stateful, pooled) and in onnxruntime (one session, the
// state copied from its outputs to its inputs), at 1 and 2 threads, the
// two in turns over VAD_ROUNDS rounds (3 by default); it reports the
// fastest round's time per step of each and checks that the two streams'
// probabilities agree; beside the wall time, the process's CPU time of
// each (user and system: on a machine shared with other work, the time it
// ran rather than waited; at 2 threads it counts every core's, spinning
// included). onnxruntime runs with its graph optimizations on
// (--ort-optimize's setting), as a user of it would. It runs only with
// VAD_BENCH=1 (VAD_MODEL=v5 runs only the models whose file names hold
// v5):
//
//	cd bench/ort && VAD_BENCH=1 go test -tags ort -run SileroStreamTiming -v .
func TestSileroStreamTiming(t *testing.T) {
	if os.Getenv("VAD_BENCH") == "" {
		t.Skip("set VAD_BENCH=1")
	}
	dir := modelsDir()
	rounds := 3
	if s := os.Getenv("VAD_ROUNDS"); s != "" {
		rounds = int(s[0] - '0')
	}
	const steps = 1000
	r := rand.New(rand.NewPCG(5, 6))
	chunks := make([][]float32, steps)
	for i := range chunks {
		chunks[i] = make([]float32, 512)
		for j := range chunks[i] {
			// Speech-like bursts over a low noise floor.
			amp := float32(0.01)
			if (i/50)%2 == 1 {
				amp = 0.4
			}
			chunks[i][j] = amp * float32(math.Sin(float64(i*512+j)*0.07)+0.3*(r.Float64()*2-1))
		}
	}
	for _, vm := range vadModels {
		if only := os.Getenv("VAD_MODEL"); only != "" && !strings.Contains(vm.file, only) {
			continue
		}
		m, err := onnx.ReadModel(filepath.Join(dir, vm.file))
		if err != nil {
			t.Skipf("%s: %v (run scripts/models.sh)", vm.file, err)
		}
		if err := setScalars(m, map[string]*tensor.Tensor{"sr": int64Scalar(16000)}); err != nil {
			t.Fatal(err)
		}
		model, err := onnx.EncodeModel(m)
		if err != nil {
			t.Fatal(err)
		}
		for _, threads := range []int{1, 2} {
			ours, err := newOursVAD(model, vm, threads)
			if err != nil {
				t.Fatal(err)
			}
			theirs, err := newORTVAD(model, vm, threads)
			if err != nil {
				t.Fatal(err)
			}
			bestOurs, bestORT := time.Duration(math.MaxInt64), time.Duration(math.MaxInt64)
			cpuOurs, cpuORT := math.Inf(1), math.Inf(1)
			var probOurs, probORT []float32
			for range rounds {
				start, cpu := time.Now(), cpuSeconds()
				p, err := ours.stream(chunks)
				if err != nil {
					t.Fatal(err)
				}
				bestOurs, probOurs = min(bestOurs, time.Since(start)), p
				cpuOurs = min(cpuOurs, cpuSeconds()-cpu)
				start, cpu = time.Now(), cpuSeconds()
				q, err := theirs.stream(chunks)
				if err != nil {
					t.Fatal(err)
				}
				bestORT, probORT = min(bestORT, time.Since(start)), q
				cpuORT = min(cpuORT, cpuSeconds()-cpu)
			}
			theirs.destroy()
			worst := 0.0
			for i := range probOurs {
				worst = max(worst, math.Abs(float64(probOurs[i]-probORT[i])))
			}
			t.Logf("%s threads=%d: onnxshape %.1f µs/step, onnxruntime %.1f µs/step (%.2fx); CPU %.1f / %.1f µs/step (%.2fx); fastest of %d rounds of %d steps; largest probability difference %.2g; load %s",
				vm.file, threads, us(bestOurs)/steps, us(bestORT)/steps, float64(bestOurs)/float64(bestORT),
				cpuOurs*1e6/steps, cpuORT*1e6/steps, cpuOurs/cpuORT, rounds, steps, worst, loadAverage())
			if worst > 1e-3 {
				t.Errorf("%s: the streams' probabilities differ by %g", vm.file, worst)
			}
		}
	}
}

func us(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }

// oursVAD is a stream of the model in onnxshape.
type oursVAD struct {
	m     *graph.Model
	vm    vadModel
	o     *graph.RunOptions
	input *tensor.Tensor
}

func newOursVAD(model []byte, vm vadModel, threads int) (*oursVAD, error) {
	m, err := graph.LoadBytes(model, "")
	if err != nil {
		return nil, err
	}
	return &oursVAD{m: m, vm: vm, o: &graph.RunOptions{Threads: threads, Pool: graph.NewPool()}, input: tensor.MustNew(tensor.Float, 1, 512)}, nil
}

// stream runs the chunks from a zero state and returns each step's
// probability.
func (v *oursVAD) stream(chunks [][]float32) ([]float32, error) {
	zeros := map[string]tensor.Value{}
	for in, shape := range v.vm.shape {
		zeros[in] = tensor.MustNew(tensor.Float, shape...)
	}
	s, err := graph.NewStateful(v.m, v.vm.carry, zeros)
	if err != nil {
		return nil, err
	}
	s.Options = v.o
	probs := make([]float32, len(chunks))
	x, _ := tensor.Data[float32](v.input)
	var last graph.Result
	for i, c := range chunks {
		copy(x, c)
		out, err := s.Run(context.Background(), map[string]tensor.Value{"input": v.input})
		if err != nil {
			return nil, err
		}
		p, _ := tensor.Data[float32](out.Map()["output"].(*tensor.Tensor))
		probs[i] = p[0]
		// The step before's outputs (its state, this step's input) go
		// back to the pool.
		for _, x := range last.Map() {
			if err := v.o.Pool.Release(x); err != nil {
				return nil, err
			}
		}
		last = out
	}
	return probs, nil
}

// ortVAD is a stream of the model in onnxruntime: one session over tensors
// made once, the state copied from the outputs to the inputs after each
// step.
type ortVAD struct {
	s       *ort.AdvancedSession
	input   *ort.Tensor[float32]
	output  *ort.Tensor[float32]
	state   map[string]*ort.Tensor[float32] // carried inputs by name
	stateN  map[string]*ort.Tensor[float32] // carried outputs by name
	carry   map[string]string
	destroy func()
}

func newORTVAD(model []byte, vm vadModel, threads int) (*ortVAD, error) {
	so, err := ort.NewSessionOptions()
	if err != nil {
		return nil, err
	}
	defer so.Destroy()
	so.SetIntraOpNumThreads(threads)
	so.SetInterOpNumThreads(1)
	so.SetGraphOptimizationLevel(ort.GraphOptimizationLevelEnableAll)
	v := &ortVAD{state: map[string]*ort.Tensor[float32]{}, stateN: map[string]*ort.Tensor[float32]{}, carry: vm.carry}
	var all []ort.Value
	if v.input, err = ort.NewEmptyTensor[float32](ort.NewShape(1, 512)); err != nil {
		return nil, err
	}
	if v.output, err = ort.NewEmptyTensor[float32](ort.NewShape(1, 1)); err != nil {
		return nil, err
	}
	inNames, outNames := []string{"input"}, []string{"output"}
	ins, outs := []ort.Value{v.input}, []ort.Value{v.output}
	for out, in := range vm.carry {
		shape := ortShape(vm.shape[in])
		a, err := ort.NewEmptyTensor[float32](shape)
		if err != nil {
			return nil, err
		}
		b, err := ort.NewEmptyTensor[float32](shape)
		if err != nil {
			return nil, err
		}
		v.state[in], v.stateN[out] = a, b
		inNames, ins = append(inNames, in), append(ins, a)
		outNames, outs = append(outNames, out), append(outs, b)
	}
	all = append(append(all, ins...), outs...)
	if v.s, err = ort.NewAdvancedSessionWithONNXData(model, inNames, outNames, ins, outs, so); err != nil {
		return nil, err
	}
	v.destroy = func() {
		v.s.Destroy()
		for _, x := range all {
			x.Destroy()
		}
	}
	return v, nil
}

func (v *ortVAD) stream(chunks [][]float32) ([]float32, error) {
	for _, a := range v.state {
		clear(a.GetData())
	}
	probs := make([]float32, len(chunks))
	x := v.input.GetData()
	for i, c := range chunks {
		copy(x, c)
		if err := v.s.Run(); err != nil {
			return nil, err
		}
		probs[i] = v.output.GetData()[0]
		for out, in := range v.carry {
			copy(v.state[in].GetData(), v.stateN[out].GetData())
		}
	}
	return probs, nil
}
