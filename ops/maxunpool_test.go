package ops

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/onnxshape/onnxshape/internal/runenv"
	"github.com/onnxshape/onnxshape/tensor"
	"github.com/x448/float16"
)

// The two examples of onnx-maxunpool.rst, and what this implementation
// defines beyond them.
func TestMaxUnpoolExamples(t *testing.T) {
	cases := []struct {
		name   string
		x      []float32
		i      []int64
		shape  []int
		o      MaxUnpoolOptions
		want   []float32
		yShape []int
	}{
		{"without_output_shape", []float32{1, 2, 3, 4}, []int64{5, 7, 13, 15}, []int{1, 1, 2, 2},
			MaxUnpoolOptions{KernelShape: []int{2, 2}, Strides: []int{2, 2}},
			[]float32{0, 0, 0, 0, 0, 1, 0, 2, 0, 0, 0, 0, 0, 3, 0, 4}, []int{1, 1, 4, 4}},
		// The indices address the default 4x4 output, which is then padded
		// with zeros at the end of each axis up to 5x5.
		{"with_output_shape", []float32{5, 6, 7, 8}, []int64{5, 7, 13, 15}, []int{1, 1, 2, 2},
			MaxUnpoolOptions{KernelShape: []int{2, 2}, Strides: []int{2, 2}, OutputShape: []int{1, 1, 5, 5}},
			[]float32{0, 0, 0, 0, 0, 0, 5, 0, 6, 0, 0, 0, 0, 0, 0, 0, 7, 0, 8, 0, 0, 0, 0, 0, 0}, []int{1, 1, 5, 5}},
		{"output_shape equal to the default", []float32{1, 2, 3, 4}, []int64{5, 7, 13, 15}, []int{1, 1, 2, 2},
			MaxUnpoolOptions{KernelShape: []int{2, 2}, Strides: []int{2, 2}, OutputShape: []int{1, 1, 4, 4}},
			[]float32{0, 0, 0, 0, 0, 1, 0, 2, 0, 0, 0, 0, 0, 3, 0, 4}, []int{1, 1, 4, 4}},
		{"pads shrink the default shape", []float32{1, 2}, []int64{0, 2}, []int{1, 1, 2},
			MaxUnpoolOptions{KernelShape: []int{3}, Strides: []int{2}, Pads: []int{1, 1}},
			[]float32{1, 0, 2}, []int{1, 1, 3}},
		{"strides default to 1", []float32{1, 2}, []int64{1, 2}, []int{1, 1, 2},
			MaxUnpoolOptions{KernelShape: []int{2}},
			[]float32{0, 1, 2}, []int{1, 1, 3}},
		{"duplicate indices: the last element of X wins", []float32{1, 2, 3}, []int64{1, 1, 3}, []int{1, 1, 3},
			MaxUnpoolOptions{KernelShape: []int{2}, Strides: []int{2}},
			[]float32{0, 2, 0, 3, 0, 0}, []int{1, 1, 6}},
		{"an index may address another channel", []float32{7, 8}, []int64{3, 0}, []int{1, 2, 1},
			MaxUnpoolOptions{KernelShape: []int{2}},
			[]float32{8, 0, 0, 7}, []int{1, 2, 2}},
		{"output_shape may grow N and C too (as the reference)", []float32{7, 8}, []int64{3, 0}, []int{1, 2, 1},
			MaxUnpoolOptions{KernelShape: []int{2}, OutputShape: []int{2, 2, 3}},
			[]float32{8, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0}, []int{2, 2, 3}},
		{"empty X", []float32{}, []int64{}, []int{0, 1, 2},
			MaxUnpoolOptions{KernelShape: []int{2}, Strides: []int{2}},
			[]float32{}, []int{0, 1, 4}},
	}
	for _, c := range cases {
		x := tensor.MustFromSlice(c.x, c.shape...)
		i := tensor.MustFromSlice(c.i, c.shape...)
		y, err := MaxUnpool(x, i, c.o)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		got, _ := tensor.ToSlice[float32](y)
		if !slices.Equal(y.Shape(), c.yShape) || !slices.Equal(got, c.want) {
			t.Errorf("%s: got %v %v, want %v %v", c.name, y.Shape(), got, c.yShape, c.want)
		}
	}
}

func TestMaxUnpoolTypes(t *testing.T) {
	i := tensor.MustFromSlice([]int64{1}, 1, 1, 1)
	o := MaxUnpoolOptions{KernelShape: []int{2}}
	for _, c := range []struct {
		x    *tensor.Tensor
		want []byte
	}{
		{tensor.MustFromSlice([]float16.Float16{0x3C00}, 1, 1, 1), poolLE16(0, 0x3C00)},
		{tensor.MustFromSlice([]tensor.BF16{0x3F80}, 1, 1, 1), poolLE16(0, 0x3F80)},
		{tensor.MustFromSlice([]float64{2.5}, 1, 1, 1), tensor.MustFromSlice([]float64{0, 2.5}).Bytes()},
	} {
		y, err := MaxUnpool(c.x, i, o)
		if err != nil || string(y.Bytes()) != string(c.want) {
			t.Errorf("%v: got % x %v, want % x", c.x.DataType(), y.Bytes(), err, c.want)
		}
	}
	for _, c := range []struct {
		version int
		dt      tensor.DataType
		ok      bool
	}{
		{9, tensor.Float16, true}, {11, tensor.Double, true}, {11, tensor.BFloat16, false},
		{22, tensor.BFloat16, true}, {22, tensor.Int8, false}, {22, tensor.Uint8, false},
	} {
		_, err := maxUnpool(nil, opRef{"MaxUnpool", c.version}, tensor.MustNew(c.dt, 1, 1, 1), i, o)
		if (err == nil) != c.ok {
			t.Errorf("version %d, %v: got %v, want ok=%v", c.version, c.dt, err, c.ok)
		}
	}
}

func TestMaxUnpoolErrors(t *testing.T) {
	x := tensor.MustFromSlice([]float32{1, 2, 3, 4}, 1, 1, 2, 2)
	idx := func(v ...int64) *tensor.Tensor { return tensor.MustFromSlice(v, 1, 1, 2, 2) }
	k2 := []int{2, 2}
	s2 := []int{2, 2}
	cases := []struct {
		i    *tensor.Tensor
		o    MaxUnpoolOptions
		want string
	}{
		{idx(0, 1, 2, 16), MaxUnpoolOptions{KernelShape: k2, Strides: s2}, "MaxUnpool-22 [index] I[3] is 16, outside [0, 16) (the default output shape [1 1 4 4])"},
		{idx(0, -1, 2, 3), MaxUnpoolOptions{KernelShape: k2, Strides: s2}, "MaxUnpool-22 [index] I[1] is -1, outside [0, 16) (the default output shape [1 1 4 4])"},
		// output_shape does not widen the range the indices address.
		{idx(0, 1, 2, 24), MaxUnpoolOptions{KernelShape: k2, Strides: s2, OutputShape: []int{1, 1, 5, 5}}, "MaxUnpool-22 [index] I[3] is 24, outside [0, 16) (the default output shape [1 1 4 4])"},
		{tensor.MustFromSlice([]int64{0, 1, 2, 3}, 1, 1, 4), MaxUnpoolOptions{KernelShape: k2, Strides: s2}, "MaxUnpool-22 [I] I has shape [1 1 4], X has shape [1 1 2 2]: they must be the same"},
		{tensor.MustFromSlice([]int32{0, 1, 2, 3}, 1, 1, 2, 2), MaxUnpoolOptions{KernelShape: k2, Strides: s2}, "MaxUnpool-22 [type] I must be int64, got int32"},
		{idx(0, 1, 2, 3), MaxUnpoolOptions{KernelShape: k2, Strides: s2, OutputShape: []int{1, 1, 3, 5}}, "MaxUnpool-22 [output_shape] output_shape [1 1 3 5] is smaller than the default output shape [1 1 4 4] on axis 2"},
		{idx(0, 1, 2, 3), MaxUnpoolOptions{KernelShape: k2, Strides: s2, OutputShape: []int{4, 4}}, "MaxUnpool-22 [output_shape] output_shape has 2 values, X has rank 4"},
		{idx(0, 1, 2, 3), MaxUnpoolOptions{KernelShape: []int{2}}, "MaxUnpool-22 [kernel_shape] kernel_shape has 1 values for 2 spatial axes"},
		{idx(0, 1, 2, 3), MaxUnpoolOptions{KernelShape: k2, Strides: []int{0, 1}}, "MaxUnpool-22 [strides] strides[0] is 0, outside [1, 2147483647]"},
		{idx(0, 1, 2, 3), MaxUnpoolOptions{KernelShape: k2, Pads: []int{2, 0, 2, 0}}, "MaxUnpool-22 [output-shape] axis 2: the output length (2-1)*1 + 2 - 2 - 2 = -1 is impossible"},
	}
	for _, c := range cases {
		_, err := MaxUnpool(x, c.i, c.o)
		var oe *Error
		if err == nil || err.Error() != c.want || !errors.As(err, &oe) {
			t.Errorf("%+v: got %v,\nwant %s", c.o, err, c.want)
		}
	}
	_, err := maxUnpool(&Options{MaxTensorBytes: 64}, opRef{"MaxUnpool", 22}, x, idx(0, 1, 2, 3),
		MaxUnpoolOptions{KernelShape: k2, Strides: s2, OutputShape: []int{1, 1, 100, 100}})
	if !errors.Is(err, ErrLimit) {
		t.Errorf("got %v, want ErrLimit", err)
	}
}

func TestMaxUnpoolNode(t *testing.T) {
	x := tensor.MustFromSlice([]float32{5, 6, 7, 8}, 1, 1, 2, 2)
	i := tensor.MustFromSlice([]int64{5, 7, 13, 15}, 1, 1, 2, 2)
	ints := func(v ...int64) Attribute { return Attribute{Type: AttrInts, Ints: v} }
	attrs := map[string]Attribute{"kernel_shape": ints(2, 2), "strides": ints(2, 2)}
	for _, v := range []int{9, 11, 22} {
		s, err := Lookup("", "MaxUnpool", v)
		if err != nil || s.Since != v {
			t.Fatalf("opset %d: %v %v", v, s, err)
		}
		n := &Node{OpType: "MaxUnpool", Version: v, Attrs: attrs, NumOutputs: 1}
		out, err := s.Run(nil, n, []tensor.Value{x, i, tensor.MustFromSlice([]int64{1, 1, 5, 5})})
		if err != nil || !slices.Equal(out[0].(*tensor.Tensor).Shape(), []int{1, 1, 5, 5}) {
			t.Errorf("version %d: %v %v", v, out, err)
		}
		out, err = s.Run(nil, n, []tensor.Value{x, i, nil})
		if err != nil || !slices.Equal(out[0].(*tensor.Tensor).Shape(), []int{1, 1, 4, 4}) {
			t.Errorf("version %d, no output_shape: %v %v", v, out, err)
		}
	}
	s, _ := Lookup("", "MaxUnpool", 22)
	for _, c := range []struct {
		attrs map[string]Attribute
		shape *tensor.Tensor
		want  string
	}{
		{map[string]Attribute{"strides": ints(2, 2)}, nil, "MaxUnpool-22 [kernel_shape] attribute kernel_shape is required"},
		{map[string]Attribute{"kernel_shape": ints(2, 2), "dilations": ints(1, 1)}, nil, "MaxUnpool-22 [attribute] attribute dilations is not defined in version 22"},
		{attrs, tensor.MustFromSlice([]int32{1, 1, 5, 5}), "MaxUnpool-22 [type] output_shape must be a 1-D int64 tensor, got int32 of shape [4]"},
		{attrs, tensor.MustFromSlice([]int64{1, 1, 5, 5}, 2, 2), "MaxUnpool-22 [type] output_shape must be a 1-D int64 tensor, got int64 of shape [2 2]"},
	} {
		n := &Node{OpType: "MaxUnpool", Version: 22, Attrs: c.attrs, NumOutputs: 1}
		in := []tensor.Value{x, i}
		if c.shape != nil {
			in = append(in, c.shape)
		}
		if _, err := s.Run(nil, n, in); err == nil || err.Error() != c.want {
			t.Errorf("got %v, want %s", err, c.want)
		}
	}
}

// MaxPool with non-overlapping windows, then MaxUnpool with its indices,
// then MaxPool again gives back the first MaxPool's values and indices. The
// values are positive: MaxUnpool fills the rest with zeros, which would beat
// a negative maximum. The spatial dims are multiples of the strides, so the
// default unpooled shape is X's shape, which the indices address.
func TestMaxPoolUnpoolRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for iter := range 200 {
		r := 1 + rng.IntN(3)
		shape := []int{1 + rng.IntN(2), 1 + rng.IntN(3)}
		var kernel []int
		for range r {
			k := 1 + rng.IntN(3)
			kernel = append(kernel, k)
			shape = append(shape, k*(1+rng.IntN(4)))
		}
		n := 1
		for _, d := range shape {
			n *= d
		}
		v := make([]float32, n)
		for i := range v {
			v[i] = float32(1 + rng.IntN(8)) // ties included
		}
		x := tensor.MustFromSlice(v, shape...)
		po := MaxPoolOptions{KernelShape: kernel, Strides: kernel}
		y, ind, err := MaxPool(x, po)
		if err != nil {
			t.Fatal(err)
		}
		u, err := MaxUnpool(y, ind, MaxUnpoolOptions{KernelShape: kernel, Strides: kernel})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(u.Shape(), shape) {
			t.Fatalf("iter %d: unpooled shape %v, want %v", iter, u.Shape(), shape)
		}
		y2, ind2, err := MaxPool(u, po)
		if err != nil {
			t.Fatal(err)
		}
		if !y2.Equal(y) || !ind2.Equal(ind) {
			t.Fatalf("iter %d, shape %v kernel %v: the round trip changed the pooling", iter, shape, kernel)
		}
	}
}

// MaxUnpool against its definition (zeros, then y[I[i]] = X[i] in order)
// on random shapes and indices: each plane's indices in its own plane, as
// MaxPool gives them (the plane-by-plane path, on one core and three), some
// addressing another plane or out of range (the path in order, which the
// first path hands over to after writing part of the output), with
// duplicates, and with storage from an allocator that holds garbage.
func TestMaxUnpoolPlanes(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	poisoned := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = 0xA5
		}
		return b
	}
	byPlanes := 0
	for iter := range 400 {
		r := 1 + rng.IntN(3)
		shape := []int{rng.IntN(3), 1 + rng.IntN(4)}
		o := MaxUnpoolOptions{}
		for range r {
			shape = append(shape, 1+rng.IntN(5))
			o.KernelShape = append(o.KernelShape, 1+rng.IntN(3))
			o.Strides = append(o.Strides, 1+rng.IntN(3))
		}
		def, _, err := maxUnpoolShape(opRef{"MaxUnpool", 22}, tensor.Float, shape, shape, o)
		if err != nil {
			t.Fatal(err)
		}
		planes := shape[0] * shape[1]
		n, _ := tensor.NumElements(shape)
		size, _ := tensor.NumElements(def)
		inPlane, outPlane := n/max(planes, 1), size/max(planes, 1)
		x := make([]float32, n)
		idx := make([]int64, n)
		mode := rng.IntN(4) // 0, 1: in plane; 2: some in other planes; 3: one out of range
		for i := range idx {
			x[i] = float32(1 + rng.IntN(1000))
			idx[i] = int64(i/inPlane*outPlane + rng.IntN(outPlane))
			if mode == 2 && rng.IntN(10) == 0 {
				idx[i] = int64(rng.IntN(size))
			}
		}
		if mode == 3 && n > 0 {
			idx[rng.IntN(n)] = []int64{-1, int64(size)}[rng.IntN(2)]
		}
		want := make([]float32, size)
		var wantErr string
		for i, g := range idx {
			if g < 0 || g >= int64(size) {
				wantErr = fmt.Sprintf("MaxUnpool-22 [index] I[%d] is %d, outside [0, %d) (the default output shape %v)", i, g, size, def)
				break
			}
			want[g] = x[i]
		}
		xt, it := tensor.MustFromSlice(x, shape...), tensor.MustFromSlice(idx, shape...)
		if planes > 0 && size > 0 {
			own := true // every index in its own plane
			for i, g := range idx {
				own = own && g >= 0 && int(g)/outPlane == i/inPlane
			}
			if own {
				byPlanes++
			}
			if ok, _ := scatterPlanes(&Options{Threads: 2}, tensor.MustNew(tensor.Float, def...), idx, xt); ok != own {
				t.Fatalf("iter %d, shape %v: plane by plane: %v, want %v", iter, shape, ok, own)
			}
		}
		for _, opt := range []*Options{{Threads: 1}, {Threads: 3}, {Threads: 3, env: runenv.Env{Alloc: poisoned}}} {
			y, err := maxUnpool(opt, opRef{"MaxUnpool", 22}, xt, it, o)
			if wantErr != "" {
				if err == nil || err.Error() != wantErr {
					t.Fatalf("iter %d, shape %v: got %v, want %s", iter, shape, err, wantErr)
				}
				continue
			}
			if err != nil {
				t.Fatalf("iter %d, shape %v: %v", iter, shape, err)
			}
			got, _ := tensor.ToSlice[float32](y)
			if !slices.Equal(got, want) {
				t.Fatalf("iter %d, shape %v %+v, threads %d:\n got %v\nwant %v", iter, shape, o, opt.Threads, got, want)
			}
		}
	}
	if byPlanes < 100 {
		t.Errorf("only %d cases for the plane-by-plane path", byPlanes)
	}
}

// FuzzMaxUnpool feeds arbitrary indices and geometry to MaxUnpool: it must
// refuse or place every element of X, never write out of bounds.
func FuzzMaxUnpool(f *testing.F) {
	f.Add(uint8(2), int8(2), int8(2), int8(0), int8(0), int64(0), int64(3), int8(0))
	f.Add(uint8(3), int8(3), int8(1), int8(1), int8(2), int64(-1), int64(99), int8(4))
	f.Fuzz(func(t *testing.T, d uint8, k, s, p0, p1 int8, i0, i1 int64, grow int8) {
		n := int(d % 6)
		x := make([]float32, 2*n)
		idx := make([]int64, 2*n)
		for j := range x {
			x[j] = float32(j + 1)
			idx[j] = i0 + int64(j)*i1
		}
		o := MaxUnpoolOptions{KernelShape: []int{int(k)}, Strides: []int{int(s)}, Pads: []int{int(p0), int(p1)}}
		if grow != 0 {
			o.OutputShape = []int{1, 2, n + int(grow)}
		}
		y, err := maxUnpool(&Options{MaxTensorBytes: 1 << 20}, opRef{"MaxUnpool", 22}, tensor.MustFromSlice(x, 1, 2, n), tensor.MustFromSlice(idx, 1, 2, n), o)
		if err != nil {
			return
		}
		got, _ := tensor.ToSlice[float32](y)
		nonzero := 0
		for _, v := range got {
			if v != 0 {
				nonzero++
			}
		}
		distinct := map[int64]bool{}
		for _, g := range idx {
			distinct[g] = true
		}
		if nonzero != len(distinct) {
			t.Fatalf("%d distinct indices, %d elements placed: %v", len(distinct), nonzero, got)
		}
	})
}

// The benchmark case maxunpool_2x2_s2: X [8, 64, 56, 56] float32 unpooled
// by a 2x2, stride-2 kernel to [8, 64, 112, 112], each index one element of
// its window, as MaxPool would give it; with new storage for every run, and
// with the output's storage reused (as a graph.Pool gives it) on one core
// and on two.
func BenchmarkMaxUnpool2x2s2(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	const n, c, h, w = 8, 64, 56, 56
	v := make([]float32, n*c*h*w)
	idx := make([]int64, len(v))
	i := 0
	for p := range n * c {
		for y := range h {
			for x := range w {
				v[i] = rng.Float32()
				idx[i] = int64((p*2*h+2*y+rng.IntN(2))*2*w + 2*x + rng.IntN(2))
				i++
			}
		}
	}
	x := tensor.MustFromSlice(v, n, c, h, w)
	ind := tensor.MustFromSlice(idx, n, c, h, w)
	o := MaxUnpoolOptions{KernelShape: []int{2, 2}, Strides: []int{2, 2}}
	for _, run := range []struct {
		name string
		opt  *Options
	}{
		{"new", nil},
		{"reused/threads=1", &Options{Threads: 1, env: runenv.Env{Alloc: reusedStorage()}}},
		{"reused/threads=2", &Options{Threads: 2, env: runenv.Env{Alloc: reusedStorage()}}},
	} {
		b.Run(run.name, func(b *testing.B) {
			b.SetBytes(int64(len(v) * (4 + 8 + 4*4)))
			for b.Loop() {
				if _, err := maxUnpool(run.opt, opRef{"MaxUnpool", 22}, x, ind, o); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
