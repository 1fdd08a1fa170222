package reference_test

import (
	"math/rand/v2"
	"testing"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// The properties of STYLE.md, checked in the reference engine, each step
// also through the fast engine (compareEngines): Unsqueeze then Squeeze,
// Split then Concat, SpaceToDepth then DepthToSpace (DCR) are the
// identity; MaxPool's indices fed to MaxUnpool put every maximum back in
// place, so that pooling again gives the same maxima and indices.

// step runs one node through both engines under ONNX rules and returns the
// reference engine's outputs.
func step(t *testing.T, n *ops.Node, in ...tensor.Value) []tensor.Value {
	t.Helper()
	s, err := ops.Lookup("", n.OpType, n.Version)
	if err != nil {
		t.Fatal(err)
	}
	n.Version = s.Since
	if !compareEngines(t, ops.ProfileONNX, n, in) {
		t.Fatalf("%s-%d refuses its inputs", n.OpType, n.Version)
	}
	out, err := runReference(n, in)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func identical(t *testing.T, what string, got tensor.Value, want *tensor.Tensor) {
	t.Helper()
	if g, ok := got.(*tensor.Tensor); !ok || !g.Equal(want) {
		t.Fatalf("%s: got %v, want %v", what, got, want)
	}
}

func TestReferenceProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	for range 100 {
		dt := movementTypes[r.IntN(len(movementTypes))]

		// Unsqueeze then Squeeze on the same axes.
		x := randTensor(r, dt, randShape(r, r.IntN(4), 3), -9, 9, true)
		k := 1 + r.IntN(2)
		axes := r.Perm(x.Rank() + k)[:k]
		u := step(t, &ops.Node{OpType: "Unsqueeze", Version: 25, NumOutputs: 1}, x, ints64(axes...))
		sq := step(t, &ops.Node{OpType: "Squeeze", Version: 25, NumOutputs: 1}, u[0], ints64(axes...))
		identical(t, "Squeeze(Unsqueeze(x))", sq[0], x)

		// Split then Concat along one axis.
		x = randTensor(r, dt, randShape(r, 1+r.IntN(3), 5), -9, 9, true)
		axis := r.IntN(x.Rank())
		sizes := make([]int, 1+r.IntN(3))
		left := x.Shape()[axis]
		for i := range sizes[1:] {
			sizes[i] = r.IntN(left + 1)
			left -= sizes[i]
		}
		sizes[len(sizes)-1] = left
		parts := step(t, &ops.Node{OpType: "Split", Version: 18, NumOutputs: len(sizes),
			Attrs: map[string]ops.Attribute{"axis": attrInt(axis)}}, x, ints64(sizes...))
		c := step(t, &ops.Node{OpType: "Concat", Version: 13, NumOutputs: 1,
			Attrs: map[string]ops.Attribute{"axis": attrInt(axis)}}, parts...)
		identical(t, "Concat(Split(x))", c[0], x)

		// SpaceToDepth then DepthToSpace in DCR mode.
		b := 1 + r.IntN(3)
		x = randTensor(r, dt, []int{1 + r.IntN(2), 1 + r.IntN(3), b * (1 + r.IntN(3)), b * (1 + r.IntN(3))}, -9, 9, true)
		block := map[string]ops.Attribute{"blocksize": attrInt(b)}
		d := step(t, &ops.Node{OpType: "SpaceToDepth", Version: 13, NumOutputs: 1, Attrs: block}, x)
		block["mode"] = attrStr("DCR")
		s := step(t, &ops.Node{OpType: "DepthToSpace", Version: 13, NumOutputs: 1, Attrs: block}, d[0])
		identical(t, "DepthToSpace(SpaceToDepth(x))", s[0], x)

		// MaxPool, MaxUnpool, MaxPool: the same maxima at the same indices.
		spatial := 1 + r.IntN(3)
		shape := []int{1 + r.IntN(2), 1 + r.IntN(2)}
		var kernel []int
		for range spatial {
			k := 1 + r.IntN(3)
			kernel = append(kernel, k)
			shape = append(shape, k*(1+r.IntN(3)))
		}
		x = randTensor(r, tensor.Float, shape, 1, 8, false)
		geometry := map[string]ops.Attribute{"kernel_shape": attrInts(kernel...), "strides": attrInts(kernel...)}
		pool := func(x tensor.Value) []tensor.Value {
			return step(t, &ops.Node{OpType: "MaxPool", Version: 22, NumOutputs: 2, Attrs: geometry}, x)
		}
		p := pool(x)
		un := step(t, &ops.Node{OpType: "MaxUnpool", Version: 22, NumOutputs: 1, Attrs: geometry}, p[0], p[1])
		again := pool(un[0])
		identical(t, "MaxPool(MaxUnpool(MaxPool(x))) maxima", again[0], p[0].(*tensor.Tensor))
		identical(t, "MaxPool(MaxUnpool(MaxPool(x))) indices", again[1], p[1].(*tensor.Tensor))
	}
}
