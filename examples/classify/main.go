// Command classify runs an image classifier on an image file, end to end:
// decode (JPEG, PNG, GIF), resize to the model's input size, normalise with
// the ImageNet statistics (tensor.FromImage), run (package graph), and
// print the five most likely classes with their softmax probabilities.
//
//	go run ./examples/classify [-labels FILE] [-k 5] MODEL.onnx IMAGE
//
// MODEL is an ImageNet-style classifier with one input, NCHW [1,3,H,W] or
// NHWC [1,H,W,3], H and W fixed, and one output of class scores (logits or
// probabilities), such as torchvision's ResNet-50 or MobileNetV2 exported
// to ONNX. -labels names the classes, one a line.
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"image"
	_ "image/gif" // decoders for image.Decode
	_ "image/jpeg"
	_ "image/png"
	"io"
	"math"
	"os"
	"sort"

	"golang.org/x/image/draw"

	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/tensor"
)

// The ImageNet statistics, per RGB channel, on pixels scaled to [0, 1].
var imagenet = tensor.ImageOptions{Mean: [3]float32{0.485, 0.456, 0.406}, Std: [3]float32{0.229, 0.224, 0.225}}

// Class is one of a classifier's answers.
type Class struct {
	Index       int
	Probability float64
}

// Classify returns the k most likely classes of img under the classifier m,
// most likely first.
func Classify(ctx context.Context, m *graph.Model, img image.Image, k int) ([]Class, error) {
	if len(m.Inputs()) != 1 || len(m.Outputs()) != 1 {
		return nil, fmt.Errorf("a classifier has one input and one output, not %d and %d", len(m.Inputs()), len(m.Outputs()))
	}
	in := m.Inputs()[0]
	opts, h, w, err := layout(in)
	if err != nil {
		return nil, err
	}
	// Resize to the model's size (a classifier trained on center crops
	// does a little better with a crop first; this keeps it short).
	small := image.NewNRGBA(image.Rect(0, 0, w, h))
	scale(small, img)
	x, err := tensor.FromImage(small, opts)
	if err != nil {
		return nil, err
	}
	out, err := m.Run(ctx, map[string]tensor.Value{in.Name: x}, nil)
	if err != nil {
		return nil, err
	}
	scores, err := out.Tensor(m.Outputs()[0].Name)
	if err != nil {
		return nil, err
	}
	s, err := scores.Float64s()
	if err != nil {
		return nil, err
	}
	return top(softmax(s), k), nil
}

// scale resizes img into dst, bilinearly.
func scale(dst *image.NRGBA, img image.Image) {
	draw.BiLinear.Scale(dst, dst.Bounds(), img, img.Bounds(), draw.Src, nil)
}

// layout reads the input's declared shape: NCHW [1,3,H,W] or NHWC [1,H,W,3].
func layout(in graph.ValueInfo) (tensor.ImageOptions, int, int, error) {
	d := make([]int, len(in.Type.Shape)) // -1 for a symbolic dimension
	for i, dim := range in.Type.Shape {
		d[i] = -1
		if n, ok := dim.Value(); ok && n <= 1<<20 {
			d[i] = int(n)
		}
	}
	opts := imagenet
	if len(d) == 4 && d[0] <= 1 {
		switch {
		case d[1] == 3 && d[2] >= 0 && d[3] >= 0:
			return opts, d[2], d[3], nil
		case d[3] == 3 && d[1] >= 0 && d[2] >= 0:
			opts.Layout = tensor.NHWC
			return opts, d[1], d[2], nil
		}
	}
	return opts, 0, 0, fmt.Errorf("input %q is %s: want [1,3,H,W] or [1,H,W,3] with H and W fixed", in.Name, in.Describe())
}

// softmax turns scores into probabilities, unless they already are some.
func softmax(s []float64) []float64 {
	sum, probs := 0.0, true
	for _, v := range s {
		sum += v
		probs = probs && v >= 0 && v <= 1
	}
	if probs && math.Abs(sum-1) < 1e-3 {
		return s
	}
	most := math.Inf(-1)
	for _, v := range s {
		most = max(most, v)
	}
	p := make([]float64, len(s))
	sum = 0
	for i, v := range s {
		p[i] = math.Exp(v - most)
		sum += p[i]
	}
	for i := range p {
		p[i] /= sum
	}
	return p
}

// top returns the k largest of p, largest first (the lower index first
// among equals).
func top(p []float64, k int) []Class {
	c := make([]Class, len(p))
	for i, v := range p {
		c[i] = Class{i, v}
	}
	sort.SliceStable(c, func(i, j int) bool { return c[i].Probability > c[j].Probability })
	return c[:min(k, len(c))]
}

func main() {
	labels := flag.String("labels", "", "a file naming the classes, one a line")
	k := flag.Int("k", 5, "how many classes to print")
	flag.Parse()
	if flag.NArg() != 2 || *k < 1 {
		fmt.Fprintln(os.Stderr, "usage: classify [-labels FILE] [-k 5] MODEL.onnx IMAGE")
		os.Exit(2)
	}
	if err := run(flag.Arg(0), flag.Arg(1), *labels, *k, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "classify:", err)
		os.Exit(1)
	}
}

func run(modelPath, imagePath, labelsPath string, k int, w io.Writer) error {
	m, err := graph.Load(modelPath)
	if err != nil {
		return err
	}
	f, err := os.Open(imagePath)
	if err != nil {
		return err
	}
	defer f.Close()
	img, _, err := image.Decode(f)
	if err != nil {
		return fmt.Errorf("%s: %w", imagePath, err)
	}
	var names []string
	if labelsPath != "" {
		if names, err = readLines(labelsPath); err != nil {
			return err
		}
	}
	classes, err := Classify(context.Background(), m, img, k)
	if err != nil {
		return err
	}
	for _, c := range classes {
		name := fmt.Sprintf("class %d", c.Index)
		if c.Index < len(names) {
			name = names[c.Index]
		}
		fmt.Fprintf(w, "%6.2f%%  %s\n", 100*c.Probability, name)
	}
	return nil
}

func readLines(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var lines []string
	s := bufio.NewScanner(f)
	for s.Scan() {
		lines = append(lines, s.Text())
	}
	return lines, s.Err()
}
