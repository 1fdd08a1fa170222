//go:build ort

package main

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	ort "github.com/yalue/onnxruntime_go"

	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/tensor"
)

// The openWakeWord pipeline: three models chained as openWakeWord's
// AudioFeatures and Model stream them, one 80 ms frame (1,280 samples at
// 16 kHz) at a time:
//
//  1. melspectrogram.onnx over the frame and the 480 samples before it
//     ([1, 1760] -> [1, 1, 8, 32]), each value v kept as v/10 + 2 in a
//     buffer of the last 76 mel frames (at first all ones);
//  2. embedding_model.onnx over those 76 frames ([1, 76, 32, 1] ->
//     [1, 1, 1, 96]), kept in a buffer of the last 16 embeddings (at first
//     zeros);
//  3. the wake word's classifier head (hey_jarvis_v0.1.onnx) over the 16
//     embeddings ([1, 16, 96] -> [1, 1]), the frame's score.
//
// The glue between the models is the same Go code for both engines, each
// fed its own outputs. TestWakeWordPipeline checks that the scores, and
// the mel and embedding buffers at the end, agree with onnxruntime's; with
// WAKE_BENCH=1 it also times a stream of 500 frames in each engine at 1
// and 2 threads, in turns over WAKE_ROUNDS rounds (3 by default), and
// reports the fastest round's wall and CPU time per frame:
//
//	cd bench/ort && WAKE_BENCH=1 go test -tags ort -run WakeWordPipeline -v .
const (
	wakeFrame   = 1280
	wakeContext = 480 // three hops of 160 samples before the frame
	wakeMels    = 76
	wakeEmbeds  = 16
)

var wakeFiles = [3]string{"melspectrogram.onnx", "embedding_model.onnx", "hey_jarvis_v0.1.onnx"}

// wakeEngine runs one of the three models on one input, returning its
// single output's elements (valid until the next call of the same model).
type wakeEngine interface {
	run(model int, in []float32) ([]float32, error)
	close()
}

// wakeShapes are the models' input and output shapes in the stream.
var wakeIn = [3][]int{{1, wakeFrame + wakeContext}, {1, wakeMels, 32, 1}, {1, wakeEmbeds, 96}}
var wakeOut = [3][]int{{1, 1, 8, 32}, {1, 1, 1, 96}, {1, 1}}

// wakeStream is openWakeWord's streaming state over one engine.
type wakeStream struct {
	e      wakeEngine
	audio  []float32 // the last wakeFrame+wakeContext samples
	mels   []float32 // wakeMels x 32
	embeds []float32 // wakeEmbeds x 96
}

func newWakeStream(e wakeEngine) *wakeStream {
	s := &wakeStream{e: e, audio: make([]float32, wakeFrame+wakeContext),
		mels: make([]float32, wakeMels*32), embeds: make([]float32, wakeEmbeds*96)}
	for i := range s.mels {
		s.mels[i] = 1
	}
	return s
}

// push runs one frame through the three models and returns its score.
func (s *wakeStream) push(frame []float32) (float32, error) {
	copy(s.audio, s.audio[wakeFrame:])
	copy(s.audio[wakeContext:], frame)
	mel, err := s.e.run(0, s.audio)
	if err != nil {
		return 0, err
	}
	copy(s.mels, s.mels[len(mel):])
	tail := s.mels[len(s.mels)-len(mel):]
	for i, v := range mel {
		tail[i] = v/10 + 2
	}
	emb, err := s.e.run(1, s.mels)
	if err != nil {
		return 0, err
	}
	copy(s.embeds, s.embeds[96:])
	copy(s.embeds[len(s.embeds)-96:], emb)
	score, err := s.e.run(2, s.embeds)
	if err != nil {
		return 0, err
	}
	return score[0], nil
}

// oursWake runs the models in onnxshape, pooled, each output released
// before the model's next run.
type oursWake struct {
	m    [3]*graph.Model
	in   [3]*tensor.Tensor
	name [3]string
	last [3]tensor.Value
	o    *graph.RunOptions
}

func newOursWake(dir string, threads int) (*oursWake, error) {
	w := &oursWake{o: &graph.RunOptions{Threads: threads, Pool: graph.NewPool()}}
	for i, f := range wakeFiles {
		m, err := graph.Load(filepath.Join(dir, f))
		if err != nil {
			return nil, err
		}
		w.m[i], w.in[i], w.name[i] = m, tensor.MustNew(tensor.Float, wakeIn[i]...), m.Inputs()[0].Name
	}
	return w, nil
}

func (w *oursWake) run(i int, in []float32) ([]float32, error) {
	x, _ := tensor.Data[float32](w.in[i])
	copy(x, in)
	if w.last[i] != nil {
		if err := w.o.Pool.Release(w.last[i]); err != nil {
			return nil, err
		}
		w.last[i] = nil
	}
	out, err := w.m[i].Run(context.Background(), map[string]tensor.Value{w.name[i]: w.in[i]}, w.o)
	if err != nil {
		return nil, err
	}
	y := out.Map()[out.Names()[0]].(*tensor.Tensor)
	w.last[i] = y
	if !tensor.SameShape(y.Shape(), wakeOut[i]) {
		return nil, fmt.Errorf("%s: output shape %v, expected %v", wakeFiles[i], y.Shape(), wakeOut[i])
	}
	return tensor.Data[float32](y)
}

func (w *oursWake) close() {}

// ortWake runs the models in onnxruntime: a session each over tensors
// made once.
type ortWake struct {
	s   [3]*ort.AdvancedSession
	in  [3]*ort.Tensor[float32]
	out [3]*ort.Tensor[float32]
}

func newORTWake(dir string, threads int) (_ *ortWake, err error) {
	w := &ortWake{}
	defer func() {
		if err != nil {
			w.close()
		}
	}()
	for i, f := range wakeFiles {
		data, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			return nil, err
		}
		inName, outName, err := ioNames(data)
		if err != nil {
			return nil, err
		}
		so, err := ort.NewSessionOptions()
		if err != nil {
			return nil, err
		}
		so.SetIntraOpNumThreads(threads)
		so.SetInterOpNumThreads(1)
		so.SetGraphOptimizationLevel(ort.GraphOptimizationLevelEnableAll)
		if w.in[i], err = ort.NewEmptyTensor[float32](ortShape(wakeIn[i])); err != nil {
			so.Destroy()
			return nil, err
		}
		if w.out[i], err = ort.NewEmptyTensor[float32](ortShape(wakeOut[i])); err != nil {
			so.Destroy()
			return nil, err
		}
		w.s[i], err = ort.NewAdvancedSessionWithONNXData(data, []string{inName}, []string{outName},
			[]ort.Value{w.in[i]}, []ort.Value{w.out[i]}, so)
		so.Destroy()
		if err != nil {
			return nil, err
		}
	}
	return w, nil
}

// ioNames are a one-input, one-output model's value names, read by
// onnxshape's loader.
func ioNames(data []byte) (string, string, error) {
	m, err := graph.LoadBytes(data, "")
	if err != nil {
		return "", "", err
	}
	return m.Inputs()[0].Name, m.Outputs()[0].Name, nil
}

func (w *ortWake) run(i int, in []float32) ([]float32, error) {
	copy(w.in[i].GetData(), in)
	if err := w.s[i].Run(); err != nil {
		return nil, err
	}
	return w.out[i].GetData(), nil
}

func (w *ortWake) close() {
	for i := range w.s {
		if w.s[i] != nil {
			w.s[i].Destroy()
		}
		if w.in[i] != nil {
			w.in[i].Destroy()
		}
		if w.out[i] != nil {
			w.out[i].Destroy()
		}
	}
}

// wakeAudio is frames of 16-bit-scale audio: a tone in bursts over noise.
func wakeAudio(frames int) [][]float32 {
	r := rand.New(rand.NewPCG(7, 8))
	out := make([][]float32, frames)
	for i := range out {
		out[i] = make([]float32, wakeFrame)
		amp := 100.0
		if (i/10)%2 == 1 {
			amp = 6000
		}
		for j := range out[i] {
			t := float64(i*wakeFrame + j)
			out[i][j] = float32(math.Round(amp*(math.Sin(t*0.11)+0.5*math.Sin(t*0.023)) + 200*(r.Float64()*2-1)))
		}
	}
	return out
}

// streamScores runs the frames from a fresh stream and returns the scores
// and the stream at the end.
func streamScores(e wakeEngine, frames [][]float32) ([]float32, *wakeStream, error) {
	s := newWakeStream(e)
	scores := make([]float32, len(frames))
	for i, f := range frames {
		p, err := s.push(f)
		if err != nil {
			return nil, nil, err
		}
		scores[i] = p
	}
	return scores, s, nil
}

func maxAbsDiff(a, b []float32) float64 {
	worst := 0.0
	for i := range a {
		worst = max(worst, math.Abs(float64(a[i]-b[i])))
	}
	return worst
}

func TestWakeWordPipeline(t *testing.T) {
	dir := modelsDir()
	for _, f := range wakeFiles {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Skipf("%s: %v (run scripts/models.sh)", f, err)
		}
	}
	bench := os.Getenv("WAKE_BENCH") != ""
	frames, rounds := wakeAudio(60), 1
	if bench {
		frames, rounds = wakeAudio(500), 3
		if s := os.Getenv("WAKE_ROUNDS"); s != "" {
			rounds = int(s[0] - '0')
		}
	}
	threadCounts := []int{1}
	if bench {
		threadCounts = []int{1, 2}
	}
	for _, threads := range threadCounts {
		ours, err := newOursWake(dir, threads)
		if err != nil {
			t.Fatal(err)
		}
		theirs, err := newORTWake(dir, threads)
		if err != nil {
			t.Fatal(err)
		}
		bestOurs, bestORT := time.Duration(math.MaxInt64), time.Duration(math.MaxInt64)
		cpuOurs, cpuORT := math.Inf(1), math.Inf(1)
		var a, b []float32
		var sa, sb *wakeStream
		for range rounds {
			start, cpu := time.Now(), cpuSeconds()
			if a, sa, err = streamScores(ours, frames); err != nil {
				t.Fatal(err)
			}
			bestOurs, cpuOurs = min(bestOurs, time.Since(start)), min(cpuOurs, cpuSeconds()-cpu)
			start, cpu = time.Now(), cpuSeconds()
			if b, sb, err = streamScores(theirs, frames); err != nil {
				t.Fatal(err)
			}
			bestORT, cpuORT = min(bestORT, time.Since(start)), min(cpuORT, cpuSeconds()-cpu)
		}
		theirs.close()
		dScore, dMel, dEmb := maxAbsDiff(a, b), maxAbsDiff(sa.mels, sb.mels), maxAbsDiff(sa.embeds, sb.embeds)
		hi := float32(0)
		for _, p := range b {
			hi = max(hi, p)
		}
		t.Logf("threads=%d: largest differences: score %.2g (onnxruntime's highest score %.3g), mel %.2g, embedding %.2g", threads, dScore, hi, dMel, dEmb)
		if bench {
			n := float64(len(frames))
			t.Logf("threads=%d: onnxshape %.1f µs/frame, onnxruntime %.1f µs/frame (%.2fx); CPU %.1f / %.1f µs/frame (%.2fx); fastest of %d rounds of %d frames; load %s",
				threads, us(bestOurs)/n, us(bestORT)/n, float64(bestOurs)/float64(bestORT),
				cpuOurs*1e6/n, cpuORT*1e6/n, cpuOurs/cpuORT, rounds, len(frames), loadAverage())
		}
		// The mel values are log-scaled powers of 16-bit audio (tens);
		// the embeddings and scores come out of float32 convolutions and
		// a sigmoid.
		if dMel > 1e-3 || dEmb > 1e-3 || dScore > 1e-4 {
			t.Errorf("threads=%d: onnxshape and onnxruntime differ: score by %g, mel by %g, embedding by %g", threads, dScore, dMel, dEmb)
		}
	}
}
