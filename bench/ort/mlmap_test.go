//go:build ort

package main

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/tensor"
)

// TestORTMapPipelines runs the scikit-learn-shaped classifiers of
// testdata/classic_ml.py that end in ZipMap (LinearClassifier with int64
// and with string labels, a TreeEnsembleClassifier, a Scaler/Normalizer
// pipeline) on random rows in onnxshape's fast and reference engines and
// in onnxruntime. onnxruntime_go reads tensors only: the label and the
// scores before ZipMap ("probabilities") are compared with onnxruntime
// (the string labels are not: the harness cannot read strings back), and
// ZipMap's maps are checked against our own scores (keys the labels in
// order, values the row) and across our two engines.
func TestORTMapPipelines(t *testing.T) {
	r := rand.New(rand.NewPCG(25, 3))
	for _, c := range []struct {
		file   string
		labels []string // the ZipMap keys, as text
	}{
		{"mlmap_linearclassifier_zipmap_int", []string{"0", "1", "2"}},
		{"mlmap_linearclassifier_zipmap_string", []string{"setosa", "versicolor", "virginica"}},
		{"mlmap_treeensembleclassifier_zipmap", []string{"5", "6", "7"}},
		{"mlmap_scaler_normalizer_linearclassifier_zipmap", []string{"3", "7"}},
	} {
		model, err := os.ReadFile(filepath.Join("testdata", c.file+".onnx"))
		if err != nil {
			t.Fatal(err)
		}
		m, err := graph.LoadBytes(model, "")
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		for _, n := range []int{1, 5, 64} {
			x := mlInput(r, tensor.Float, n, 4)
			in := map[string]tensor.Value{"x": x}
			fast, err := m.Run(context.Background(), in, nil)
			if err != nil {
				t.Fatalf("%s: onnxshape: %v", c.file, err)
			}
			ref, err := m.Run(context.Background(), in, &graph.RunOptions{Engine: graph.EngineReference})
			if err != nil {
				t.Fatalf("%s: onnxshape's reference engine: %v", c.file, err)
			}
			probs, _ := fast.Tensor("probabilities")
			label, _ := fast.Tensor("output_label")
			maps, err := fast.Maps("output_probability")
			if err != nil || len(maps) != n {
				t.Fatalf("%s: output_probability: %d maps, %v", c.file, len(maps), err)
			}
			p, _ := tensor.Data[float32](probs)
			for row, mp := range maps {
				v, _ := tensor.Data[float32](mp.Values)
				for j, want := range c.labels {
					if mp.KeyString(j) != want || v[j] != p[row*len(c.labels)+j] {
						t.Fatalf("%s row %d: map entry %d is %s: %v, want %s: %v", c.file, row, j, mp.KeyString(j), v[j], want, p[row*len(c.labels)+j])
					}
				}
			}
			refMaps, _ := ref.Maps("output_probability")
			for row := range maps {
				if !maps[row].Keys.Equal(refMaps[row].Keys) || !maps[row].Values.Equal(refMaps[row].Values) {
					t.Fatalf("%s row %d: the engines' maps differ", c.file, row)
				}
			}
			outs, like := []string{"probabilities"}, []*tensor.Tensor{probs}
			if label.DataType() != tensor.String {
				outs, like = append(outs, "output_label"), append(like, label)
			}
			dc := diffCase{inputs: []diffInput{{"x", x}}, abs: 1e-5, rel: 1e-5}
			theirs, err := runORTModel(model, &dc, outs, like)
			if err != nil {
				t.Fatalf("%s: onnxruntime: %v", c.file, err)
			}
			for j, o := range outs {
				if msg := dc.compareOutput(like[j], theirs[j]); msg != "" {
					t.Errorf("%s, %d rows, %s: %s", c.file, n, o, msg)
				}
			}
		}
	}
}

// TestMapInputPipeline runs DictVectorizer -> Cast -> LinearRegressor on a
// map fed by the caller, in both engines of onnxshape (onnxruntime_go
// cannot make a map to feed onnxruntime).
func TestMapInputPipeline(t *testing.T) {
	model, err := os.ReadFile(filepath.Join("testdata", "mlmap_dictvectorizer_linearregressor.onnx"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := graph.LoadBytes(model, "")
	if err != nil {
		t.Fatal(err)
	}
	x, _ := tensor.MapOf([]string{"weight", "age"}, []float64{70, 30})
	for _, e := range []graph.Engine{graph.EngineFast, graph.EngineReference} {
		res, err := m.Run(context.Background(), map[string]tensor.Value{"x": x}, &graph.RunOptions{Engine: e})
		if err != nil {
			t.Fatal(err)
		}
		y, _ := res.Tensor("y")
		// 2 + 0.5*30 - 1*0 + 0.25*70
		if d, _ := tensor.Data[float32](y); len(d) != 1 || d[0] != 34.5 {
			t.Errorf("%v engine: y = %v, want 34.5", e, d)
		}
	}
}
