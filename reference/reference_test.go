package reference_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/reference"
	"github.com/onnxshape/onnxshape/tensor"
)

// Every operator version the fast engine registers has a reference kernel,
// so that a run under graph.EngineReference never meets a node it cannot run.
func TestEverySchemaHasAReferenceKernel(t *testing.T) {
	schemas := ops.Schemas()
	if len(schemas) == 0 {
		t.Fatal("ops registers no schema")
	}
	for _, s := range schemas {
		if _, ok := reference.Kernel(s.Domain, s.Name, s.Since); !ok {
			t.Errorf("%s-%d (domain %q) has no reference kernel: add reference/%s.go", s.Name, s.Since, s.Domain, s.Name)
		}
	}
	if _, ok := reference.Kernel("com.example", "Unsqueeze", 13); ok {
		t.Error("a kernel of another domain")
	}
}

// runBoth runs node n on in through both engines under profile p and
// returns the two results; it fails the test when they disagree.
func runBoth(t *testing.T, p ops.Profile, n *ops.Node, in ...tensor.Value) ([]tensor.Value, error) {
	t.Helper()
	s, err := ops.Lookup("", n.OpType, n.Version)
	if err != nil {
		t.Fatal(err)
	}
	n.Version = s.Since
	ref, ok := reference.Kernel("", n.OpType, s.Since)
	if !ok {
		t.Fatalf("no reference kernel for %s-%d", n.OpType, s.Since)
	}
	opt := &ops.Options{Profile: p}
	fastOut, fastErr := s.Run(opt, n, in)
	refOut, refErr := ref(opt, n, in)
	switch {
	case fastErr != nil || refErr != nil:
		var ef, er *ops.Error
		if !errors.As(fastErr, &ef) || !errors.As(refErr, &er) || ef.Rule != er.Rule || ef.Op != er.Op || ef.Version != er.Version {
			t.Fatalf("%s-%d: fast %v, reference %v", n.OpType, n.Version, fastErr, refErr)
		}
		return nil, refErr
	case len(fastOut) != len(refOut):
		t.Fatalf("%s-%d: %d outputs from the fast engine, %d from the reference", n.OpType, n.Version, len(fastOut), len(refOut))
	}
	for k := range refOut {
		if !fastOut[k].(*tensor.Tensor).Equal(refOut[k].(*tensor.Tensor)) {
			t.Fatalf("%s-%d output %d: fast %v, reference %v", n.OpType, n.Version, k, fastOut[k], refOut[k])
		}
	}
	return refOut, nil
}

func iota64(n int) []int64 {
	v := make([]int64, n)
	for i := range v {
		v[i] = int64(i)
	}
	return v
}

func filled(v int64, shape ...int) *tensor.Tensor {
	n := 1
	for _, d := range shape {
		n *= d
	}
	return tensor.MustFromSlice(slices.Repeat([]int64{v}, n), shape...)
}

func wantTensor(t *testing.T, got tensor.Value, shape []int, data []int64) {
	t.Helper()
	want := tensor.MustFromSlice(data, shape...)
	if g, ok := got.(*tensor.Tensor); !ok || !g.Equal(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

// The examples of sonnx-unsqueeze.md: X is 0..23 of shape [2, 3, 4]; the
// output holds the same elements in the same order, under the new shape.
// Both engines, under the profile, exactly.
func TestUnsqueezeSONNXExamples(t *testing.T) {
	x := tensor.MustFromSlice(iota64(24), 2, 3, 4)
	for _, c := range []struct {
		name  string
		axes  []int64
		shape []int
	}{
		{"Example 1", []int64{0}, []int{1, 2, 3, 4}},
		{"Example 2", []int64{-1}, []int{2, 3, 4, 1}},
		{"Example 3", []int64{0, 1}, []int{1, 1, 2, 3, 4}},
		{"Example 4", []int64{1, 2}, []int{2, 1, 1, 3, 4}},
	} {
		t.Run(c.name, func(t *testing.T) {
			n := &ops.Node{OpType: "Unsqueeze", Version: 25, NumOutputs: 1}
			out, err := runBoth(t, ops.ProfileSONNX, n, x, tensor.MustFromSlice(c.axes, len(c.axes)))
			if err != nil {
				t.Fatal(err)
			}
			wantTensor(t, out[0], c.shape, iota64(24))
		})
	}
	// [C2]: an axis named twice, as 1 and -4 of an output of rank 4.
	n := &ops.Node{OpType: "Unsqueeze", Version: 25, NumOutputs: 1}
	if _, err := runBoth(t, ops.ProfileSONNX, n, x, tensor.MustFromSlice([]int64{1, -4}, 2)); err == nil {
		t.Fatal("axes 1 and -4 of rank 5 are accepted")
	}
}

func concatNode(axis int64) *ops.Node {
	return &ops.Node{OpType: "Concat", Version: 13, NumOutputs: 1,
		Attrs: map[string]ops.Attribute{"axis": {Type: ops.AttrInt, Int: axis}}}
}

// The examples of sonnx-concat.md, in both engines under the profile.
func TestConcatSONNXExamples(t *testing.T) {
	t.Run("Example 1", func(t *testing.T) {
		// A0 (2,3) of 1s, A1 (4,3) of 2s, A2 (3,3) of 3s: (9,3) along axis
		// 0; along axis 1 the shapes differ off the axis: [C2].
		a := []tensor.Value{filled(1, 2, 3), filled(2, 4, 3), filled(3, 3, 3)}
		out, err := runBoth(t, ops.ProfileSONNX, concatNode(0), a...)
		if err != nil {
			t.Fatal(err)
		}
		want := slices.Concat(slices.Repeat([]int64{1}, 6), slices.Repeat([]int64{2}, 12), slices.Repeat([]int64{3}, 9))
		wantTensor(t, out[0], []int{9, 3}, want)
		_, err = runBoth(t, ops.ProfileSONNX, concatNode(1), a...)
		var e *ops.Error
		if !errors.As(err, &e) || e.Rule != "inputs [C2]" {
			t.Fatalf("axis 1: got %v, want an inputs [C2] error", err)
		}
	})
	t.Run("Example 2", func(t *testing.T) {
		// The document prints A0 and A1 as (2,3,3), but their data and its
		// results are (2,3,4): the data is followed.
		a0 := tensor.MustFromSlice([]int64{
			1, 2, 3, 10, 4, 5, 6, 11, 7, 8, 9, 12,
			11, 12, 13, 20, 14, 15, 16, 21, 17, 18, 19, 22}, 2, 3, 4)
		a1 := tensor.MustFromSlice([]int64{
			101, 102, 103, 110, 104, 105, 106, 120, 107, 108, 109, 130,
			111, 112, 113, 120, 114, 115, 116, 121, 117, 118, 119, 122}, 2, 3, 4)
		out, err := runBoth(t, ops.ProfileSONNX, concatNode(2), a0, a1)
		if err != nil {
			t.Fatal(err)
		}
		wantTensor(t, out[0], []int{2, 3, 8}, []int64{
			1, 2, 3, 10, 101, 102, 103, 110,
			4, 5, 6, 11, 104, 105, 106, 120,
			7, 8, 9, 12, 107, 108, 109, 130,
			11, 12, 13, 20, 111, 112, 113, 120,
			14, 15, 16, 21, 114, 115, 116, 121,
			17, 18, 19, 22, 117, 118, 119, 122})
		for axis, shape := range [][]int{{4, 3, 4}, {2, 6, 4}} {
			out, err := runBoth(t, ops.ProfileSONNX, concatNode(int64(axis)), a0, a1)
			if err != nil {
				t.Fatal(err)
			}
			if got := out[0].(*tensor.Tensor).Shape(); !slices.Equal(got, shape) {
				t.Fatalf("axis %d: shape %v, want %v", axis, got, shape)
			}
		}
	})
	t.Run("Example 3", func(t *testing.T) {
		// Four inputs (1,k,3,2) of 3s, 4s, 5s and 6s, k = 1, 3, 2, 4, along axis 1.
		a := []tensor.Value{filled(3, 1, 1, 3, 2), filled(4, 1, 3, 3, 2), filled(5, 1, 2, 3, 2), filled(6, 1, 4, 3, 2)}
		out, err := runBoth(t, ops.ProfileSONNX, concatNode(1), a...)
		if err != nil {
			t.Fatal(err)
		}
		var want []int64
		for _, b := range []struct{ v, k int64 }{{3, 1}, {4, 3}, {5, 2}, {6, 4}} {
			want = append(want, slices.Repeat([]int64{b.v}, int(b.k)*6)...)
		}
		wantTensor(t, out[0], []int{1, 10, 3, 2}, want)
	})
}

// The kernels that compute stop, in both engines, when the run's context is
// done, with the same [cancelled] rule.
func TestCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	x := tensor.MustNew(tensor.Float, 1, 1, 8, 8)
	resize := &ops.Node{OpType: "Resize", Version: 19, NumOutputs: 1,
		Attrs: map[string]ops.Attribute{"mode": {Type: ops.AttrString, String: "linear"}}}
	pool := &ops.Node{OpType: "MaxPool", Version: 22, NumOutputs: 1,
		Attrs: map[string]ops.Attribute{"kernel_shape": {Type: ops.AttrInts, Ints: []int64{2, 2}}}}
	for _, c := range []struct {
		n  *ops.Node
		in []tensor.Value
	}{
		{resize, []tensor.Value{x, nil, tensor.MustFromSlice([]float32{1, 1, 2, 2}, 4)}},
		{pool, []tensor.Value{x}},
	} {
		run, _ := reference.Kernel("", c.n.OpType, c.n.Version)
		_, err := run(ops.NewOptions(ops.WithContext(ctx)), c.n, c.in)
		var e *ops.Error
		if !errors.Is(err, context.Canceled) || !errors.As(err, &e) || e.Rule != "cancelled" {
			t.Errorf("%s: got %v, want a [cancelled] error", c.n.OpType, err)
		}
	}
}
