package graph_test

import (
	"context"
	"fmt"
	"log"

	"github.com/onnxshape/onnxshape/builder"
	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/tensor"
)

// vadLike is a voice-activity-detector-shaped model: each call takes a
// chunk of audio and the state the last call returned, and returns a
// probability and the new state (state*0.5 + the chunk's mean).
func vadLike() *graph.Model {
	b := builder.New(21)
	audio := b.Input("audio", tensor.Float, 1, 4)
	state := b.Input("state", tensor.Float, 1, 2)
	half := b.Constant("half", tensor.Scalar(float32(0.5)))
	next := b.Op("Add", b.Op("Mul", state, half), b.Op("ReduceMean", audio))
	b.Output("prob", b.Op("Sigmoid", b.Op("ReduceSum", next)))
	b.Output("stateN", next)
	data, err := b.Encode()
	if err != nil {
		log.Fatal(err)
	}
	m, err := graph.LoadBytes(data, "")
	if err != nil {
		log.Fatal(err)
	}
	return m
}

// A Stateful feeds a model's state output back as its next input: the
// caller passes only the audio, chunk after chunk.
func ExampleStateful() {
	m := vadLike()
	vad, err := graph.NewStateful(m, map[string]string{"stateN": "state"}, nil) // state starts as zeros
	if err != nil {
		log.Fatal(err)
	}
	for _, chunk := range [][]float32{{1, 1, 1, 1}, {0, 0, 0, 0}, {-2, -2, -2, -2}} {
		out, err := vad.Run(context.Background(), map[string]tensor.Value{"audio": tensor.MustFromSlice(chunk, 1, 4)})
		if err != nil {
			log.Fatal(err)
		}
		p, _ := tensor.Data[float32](out.Map()["prob"].(*tensor.Tensor))
		s, _ := vad.State("state")
		st, _ := tensor.Data[float32](s.(*tensor.Tensor))
		fmt.Printf("prob %.3f, state %v\n", p[0], st)
	}
	// Output:
	// prob 0.881, state [1 1]
	// prob 0.731, state [0.5 0.5]
	// prob 0.029, state [-1.75 -1.75]
}
