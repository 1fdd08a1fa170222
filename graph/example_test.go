package graph_test

import (
	"context"
	"fmt"
	"log"

	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/tensor"
)

// Load the bundled example model and run it on a 6x8 RGB image.
func ExampleModel_Run() {
	m, err := graph.Load("../examples/letterbox.onnx")
	if err != nil {
		log.Fatal(err)
	}
	img := tensor.MustNew(tensor.Uint8, 1, 6, 8, 3) // NHWC, all black
	out, err := m.Run(context.Background(), map[string]tensor.Value{"image": img}, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(out.Map()["pixels"].Describe())
	// Output: tensor(float)[1 4 12 12]
}

// Run checks each input against the type the model declares.
func ExampleModel_Run_wrongInput() {
	m, err := graph.Load("../examples/letterbox.onnx")
	if err != nil {
		log.Fatal(err)
	}
	img := tensor.MustNew(tensor.Uint8, 1, 6, 8) // the channel axis is missing
	_, err = m.Run(context.Background(), map[string]tensor.Value{"image": img}, nil)
	fmt.Println(err)
	// Output: input "image": onnx: value does not fit tensor(uint8)[1,6,8,3]: invalid shape: shape [1 6 8] has rank 3, not 4
}

// MemoryPlan tells the cap a run needs before it runs on real data: the
// peak of the bytes the run holds at once, and the node at the peak.
func ExampleModel_MemoryPlan() {
	m, err := graph.Load("../examples/letterbox.onnx")
	if err != nil {
		log.Fatal(err)
	}
	plan, err := m.MemoryPlan(context.Background(), nil, nil) // the declared input shape
	if err != nil {
		log.Fatal(err)
	}
	at := plan.Steps[plan.PeakStep]
	fmt.Printf("peak %d bytes, at %s (%s)\n", plan.Peak, at.Node, at.Op)
	for _, s := range plan.Steps {
		fmt.Printf("%-9s needs %4d, holds %3d\n", s.Node, s.Needs, s.Live)
	}
	// Output:
	// peak 4752 bytes, at normalise (Div)
	// to_nchw   needs  144, holds 144
	// crop      needs   72, holds 216
	// add_alpha needs   96, holds 168
	// letterbox needs  280, holds 240
	// upscale   needs 2200, holds 720
	// to_float  needs 2304, holds 3024
	// normalise needs 2304, holds 4752
}

// A Pool recycles storage between runs; the outputs stay the caller's until
// released, and a second release is an error.
func ExamplePool_Release() {
	m, err := graph.Load("../examples/letterbox.onnx")
	if err != nil {
		log.Fatal(err)
	}
	pool := graph.NewPool()
	img := tensor.MustNew(tensor.Uint8, 1, 6, 8, 3)
	for range 3 {
		out, err := m.Run(context.Background(), map[string]tensor.Value{"image": img}, &graph.RunOptions{Pool: pool})
		if err != nil {
			log.Fatal(err)
		}
		// ... use the outputs, then give them back for the next run.
		if err := pool.Release(out.Map()["pixels"], out.Map()["square"]); err != nil {
			log.Fatal(err)
		}
		if err := pool.Release(out.Map()["pixels"]); err != nil {
			fmt.Println(err)
			break
		}
	}
	// Output: graph: Release: value #0, tensor(float)[1 4 12 12]: not an output the pool handed out and still lends
}

// RunOptions.Outputs asks for intermediate values by name: only the nodes
// they depend on run.
func ExampleRunOptions_outputs() {
	m, err := graph.Load("../examples/letterbox.onnx")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(m.ValueNames())
	img := tensor.MustNew(tensor.Uint8, 1, 6, 8, 3)
	out, err := m.Run(context.Background(), map[string]tensor.Value{"image": img}, &graph.RunOptions{Outputs: []string{"to_nchw"}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(out.Names(), out.Map()["to_nchw"].Describe())
	_, err = m.Run(context.Background(), map[string]tensor.Value{"image": img}, &graph.RunOptions{Outputs: []string{"to_nhcw"}})
	fmt.Println(err)
	// Output:
	// [image to_nchw crop add_alpha square upscale to_float pixels]
	// [to_nchw] tensor(uint8)[1 3 6 8]
	// invalid input: the model has no value "to_nhcw"; closest: "to_nchw"
}

// Load reads and checks a model; its inputs and outputs are listed before
// anything runs.
func ExampleLoad() {
	m, err := graph.Load("../examples/letterbox.onnx")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(m.Inputs()[0].Name, m.Inputs()[0].Describe())
	fmt.Println(m.Outputs()[0].Name, m.Outputs()[0].Describe())
	// Output:
	// image tensor(uint8)[1,6,8,3]
	// pixels tensor(float)[1,4,12,12]
}

// RunOptions.Times tells where the runs' time goes, node by node.
func ExampleNodeTimes() {
	m, err := graph.Load("../examples/letterbox.onnx")
	if err != nil {
		log.Fatal(err)
	}
	img := tensor.MustNew(tensor.Uint8, 1, 6, 8, 3)
	times := &graph.NodeTimes{}
	for range 3 {
		if _, err := m.Run(context.Background(), map[string]tensor.Value{"image": img}, &graph.RunOptions{Times: times}); err != nil {
			log.Fatal(err)
		}
	}
	nodes := times.Nodes()
	slowest := nodes[0]
	for _, n := range nodes {
		if n.Time > slowest.Time {
			slowest = n
		}
	}
	fmt.Printf("%d runs of %d nodes; the slowest ran %d times\n", times.Runs(), len(nodes), slowest.Runs)
	// Output: 3 runs of 7 nodes; the slowest ran 3 times
}
