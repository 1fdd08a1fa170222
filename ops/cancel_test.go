package ops

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"unsafe"

	"github.com/onnxshape/onnxshape/internal/runenv"
	"github.com/onnxshape/onnxshape/tensor"
)

// tripContext is cancelled the moment a kernel loop starts watching it (asks
// for its Done channel): checks made before the loops see a live context,
// the loop's first look a cancelled one. A cancellation in the middle of a
// kernel, without a clock.
type tripContext struct {
	context.Context
	once    sync.Once
	done    chan struct{}
	tripped atomic.Bool
}

func newTripContext() *tripContext {
	return &tripContext{Context: context.Background(), done: make(chan struct{})}
}

func (c *tripContext) Done() <-chan struct{} {
	c.once.Do(func() {
		c.tripped.Store(true)
		close(c.done)
	})
	return c.done
}

func (c *tripContext) Err() error {
	if c.tripped.Load() {
		return context.Canceled
	}
	return nil
}

// longKernel is one node of a kernel that runs long enough to poll its
// context many times: millions of elements.
type longKernel struct {
	name    string
	version int
	outputs int
	attrs   map[string]Attribute
	inputs  func() []tensor.Value
}

// clearsOutput lists the kernels whose output storage is cleared before
// the copy (or, for ConvTranspose and Col2Im, the scatter-add): no sentinel
// word survives there to show an unfinished copy.
var clearsOutput = map[string]bool{"CenterCropPad": true, "ConvTranspose": true, "Col2Im": true}

// floats returns a float tensor of shape holding a repeating ramp, so that
// outputs computed two ways can be compared.
func floats(shape ...int) *tensor.Tensor {
	x := tensor.MustNew(tensor.Float, shape...)
	v, _ := tensor.Data[float32](x)
	for i := range v {
		v[i] = float32(i % 1009)
	}
	return x
}

func longKernels() []longKernel {
	return []longKernel{
		{"MaxPool", 22, 2, map[string]Attribute{"kernel_shape": ints(3, 3, 3)},
			func() []tensor.Value { return []tensor.Value{floats(1, 2, 64, 64, 64)} }},
		{"MaxPool", 22, 2, map[string]Attribute{"kernel_shape": ints(3, 3), "strides": ints(2, 2)},
			func() []tensor.Value { return []tensor.Value{floats(1, 8, 512, 512)} }},
		{"Resize", 19, 1, map[string]Attribute{"mode": strAttribute("linear")},
			func() []tensor.Value {
				return []tensor.Value{floats(1, 4, 512, 512), nil, tensor.MustFromSlice([]float32{1, 1, 2, 2}, 4)}
			}},
		{"Resize", 19, 1, map[string]Attribute{"mode": strAttribute("cubic")},
			func() []tensor.Value {
				return []tensor.Value{floats(8, 512, 512), nil, tensor.MustFromSlice([]float32{2, 1, 1}, 3)}
			}},
		{"Resize", 19, 1, map[string]Attribute{"mode": strAttribute("nearest")},
			func() []tensor.Value {
				return []tensor.Value{floats(1, 4, 512, 512), nil, tensor.MustFromSlice([]float32{1, 1, 1.5, 1.5}, 4)}
			}},
		// Converted to float64 (uint8) and float32 (float16) first.
		{"Resize", 19, 1, map[string]Attribute{"mode": strAttribute("linear")},
			func() []tensor.Value {
				return []tensor.Value{tensor.MustNew(tensor.Uint8, 1, 4, 512, 512), nil, tensor.MustFromSlice([]float32{1, 1, 2, 2}, 4)}
			}},
		{"Resize", 19, 1, map[string]Attribute{"mode": strAttribute("linear")},
			func() []tensor.Value {
				return []tensor.Value{tensor.MustNew(tensor.Float16, 4, 512, 512), nil, tensor.MustFromSlice([]float32{2, 1, 1}, 3)}
			}},
		{"Pad", 21, 1, map[string]Attribute{"mode": strAttribute("reflect")},
			func() []tensor.Value { return []tensor.Value{floats(4, 1024, 1024), i64s(0, 1, 1, 0, 1, 1)} }},
		// The convolutions: im2col tiles, the 1x1 product, depthwise, the
		// transposed scatter, the integer path and Col2Im.
		{"Conv", 22, 1, map[string]Attribute{"pads": ints(1, 1, 1, 1)},
			func() []tensor.Value { return []tensor.Value{floats(1, 8, 128, 128), floats(8, 8, 3, 3)} }},
		{"Conv", 22, 1, nil,
			func() []tensor.Value { return []tensor.Value{floats(1, 16, 128, 128), floats(16, 16, 1, 1)} }},
		{"Conv", 22, 1, map[string]Attribute{"group": {Type: AttrInt, Int: 16}},
			func() []tensor.Value { return []tensor.Value{floats(1, 16, 128, 128), floats(16, 1, 3, 3)} }},
		{"ConvTranspose", 22, 1, map[string]Attribute{"strides": ints(2, 2)},
			func() []tensor.Value { return []tensor.Value{floats(1, 8, 64, 64), floats(8, 8, 3, 3)} }},
		{"ConvInteger", 10, 1, nil,
			func() []tensor.Value {
				return []tensor.Value{tensor.MustNew(tensor.Uint8, 1, 8, 128, 128), tensor.MustNew(tensor.Uint8, 8, 8, 3, 3)}
			}},
		{"Col2Im", 18, 1, nil,
			func() []tensor.Value { return []tensor.Value{floats(1, 72, 126*126), i64s(128, 128), i64s(3, 3)} }},
		{"Transpose", 21, 1, map[string]Attribute{"perm": ints(2, 1, 0)},
			func() []tensor.Value { return []tensor.Value{floats(64, 256, 256)} }},
		{"Tile", 13, 1, nil,
			func() []tensor.Value { return []tensor.Value{floats(1024, 1024), i64s(4, 1)} }},
		{"Expand", 13, 1, nil,
			func() []tensor.Value { return []tensor.Value{floats(1, 1024), i64s(4096, 1024)} }},
		{"Concat", 13, 1, map[string]Attribute{"axis": intAttribute(1)},
			func() []tensor.Value { return []tensor.Value{floats(2048, 1024), floats(2048, 1024)} }},
		{"Concat", 13, 1, map[string]Attribute{"axis": intAttribute(1)},
			func() []tensor.Value { return []tensor.Value{floats(1<<20, 2), floats(1<<20, 2)} }},
		{"Split", 18, 2, map[string]Attribute{"axis": intAttribute(1), "num_outputs": intAttribute(2)},
			func() []tensor.Value { return []tensor.Value{floats(4096, 1024)} }},
		{"Slice", 13, 1, nil,
			func() []tensor.Value {
				return []tensor.Value{floats(8192, 1024), i64s(0, 0), i64s(8192, 1024), i64s(0, 1), i64s(1, 2)}
			}},
		// Plans of one or two long axes: one copy a row.
		{"Slice", 13, 1, nil,
			func() []tensor.Value {
				return []tensor.Value{floats(1 << 23), i64s(1), i64s(1<<23 - 1), i64s(0), i64s(1)}
			}},
		{"Expand", 13, 1, nil,
			func() []tensor.Value { return []tensor.Value{floats(1, 1<<20), i64s(8, 1<<20)} }},
		{"DepthToSpace", 13, 1, map[string]Attribute{"blocksize": intAttribute(2)},
			func() []tensor.Value { return []tensor.Value{floats(1, 64, 256, 256)} }},
		{"SpaceToDepth", 13, 1, map[string]Attribute{"blocksize": intAttribute(2)},
			func() []tensor.Value { return []tensor.Value{floats(1, 16, 512, 512)} }},
		{"CenterCropPad", 18, 1, nil,
			func() []tensor.Value { return []tensor.Value{floats(2048, 2048), i64s(2000, 2100)} }},
		{"Upsample", 9, 1, map[string]Attribute{"mode": strAttribute("nearest")},
			func() []tensor.Value {
				return []tensor.Value{floats(1, 4, 512, 512), tensor.MustFromSlice([]float32{1, 1, 2, 2}, 4)}
			}},
		{"MaxUnpool", 22, 1, map[string]Attribute{"kernel_shape": ints(2, 2), "strides": ints(2, 2)},
			func() []tensor.Value {
				return []tensor.Value{floats(1, 4, 512, 512), planeIndices(4, 512*512, 1024*1024)}
			}},
		{"MaxUnpool", 22, 1, map[string]Attribute{"kernel_shape": ints(2, 2), "strides": ints(2, 2)},
			func() []tensor.Value {
				// Indices across planes: the whole output in order.
				idx := planeIndices(4, 512*512, 1024*1024)
				v, _ := tensor.Data[int64](idx)
				v[0] = int64(len(v) * 3)
				return []tensor.Value{floats(1, 4, 512, 512), idx}
			}},
	}
}

// planeIndices returns MaxUnpool indices of shape [1, planes, 512, 512]
// that put each plane's elements at the start of its output plane.
func planeIndices(planes, inPlane, outPlane int) *tensor.Tensor {
	v := make([]int64, planes*inPlane)
	for p := range planes {
		for i := range inPlane {
			v[p*inPlane+i] = int64(p*outPlane + i)
		}
	}
	return tensor.MustFromSlice(v, 1, planes, 512, 512)
}

// sentinelAlloc is an Options.Alloc that fills the storage it hands out
// with a word no output of the tests' zero inputs holds, to tell whether a
// kernel wrote all its outputs.
type sentinelAlloc struct {
	mu   sync.Mutex
	bufs [][]byte
}

const sentinelWord = 0xA5A5A5A5A5A5A5A5

func (a *sentinelAlloc) get(size int) []byte {
	w := make([]uint64, (size+7)/8)
	for i := range w {
		w[i] = sentinelWord
	}
	b := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(w))), len(w)*8)[:size]
	a.mu.Lock()
	a.bufs = append(a.bufs, b)
	a.mu.Unlock()
	return b
}

// untouched reports whether some 8-byte word of the storage handed out
// still holds the sentinel.
func (a *sentinelAlloc) untouched() bool {
	for _, b := range a.bufs {
		for _, w := range asElems[uint64](b[:len(b)&^7]) {
			if w == sentinelWord {
				return true
			}
		}
	}
	return false
}

// wantCancelled fails the test unless err is the context's cancellation,
// wrapped in an *Error that names the operator.
func wantCancelled(t *testing.T, k longKernel, err error) {
	t.Helper()
	var e *Error
	switch {
	case !errors.Is(err, context.Canceled):
		t.Errorf("%s-%d: got %v, want context.Canceled", k.name, k.version, err)
	case !errors.As(err, &e) || e.Op != k.name:
		t.Errorf("%s-%d: %v does not name the operator", k.name, k.version, err)
	}
}

// Every long kernel stops when its context is cancelled: at once when it is
// cancelled before the call, and at its loops' first look when it is
// cancelled while they run, leaving some of its output unwritten. It never
// returns a result.
func TestLongKernelsCancelled(t *testing.T) {
	for _, k := range longKernels() {
		in := k.inputs()
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		out, err := runKernel(&Options{env: runenv.Env{Ctx: ctx}}, k.name, k.version, k.outputs, k.attrs, in...)
		wantCancelled(t, k, err)
		if out != nil {
			t.Errorf("%s-%d: a cancelled kernel returned outputs", k.name, k.version)
		}

		for _, threads := range []int{1, 2} {
			trip := newTripContext()
			var alloc sentinelAlloc
			out, err = runKernel(&Options{Threads: threads, env: runenv.Env{Ctx: trip, Alloc: alloc.get}}, k.name, k.version, k.outputs, k.attrs, in...)
			wantCancelled(t, k, err)
			if !clearsOutput[k.name] && !alloc.untouched() {
				t.Errorf("%s-%d on %d threads: every output word was written: the kernel finished before it stopped", k.name, k.version, threads)
			}
			if !trip.tripped.Load() {
				t.Errorf("%s-%d: the kernel never looked at its context in its loops", k.name, k.version)
			}
			if out != nil {
				t.Errorf("%s-%d: a cancelled kernel returned outputs", k.name, k.version)
			}
		}

		// Not cancelled, the same node runs to the end, and its loops'
		// steps (smaller where the run can be cancelled) change no value.
		live, err := runKernel(&Options{env: runenv.Env{Ctx: context.Background()}}, k.name, k.version, k.outputs, k.attrs, in...)
		if err != nil {
			t.Errorf("%s-%d: %v", k.name, k.version, err)
			continue
		}
		plain, err := runKernel(nil, k.name, k.version, k.outputs, k.attrs, in...)
		if err != nil {
			t.Fatal(err)
		}
		for i := range plain {
			if !plain[i].(*tensor.Tensor).Equal(live[i].(*tensor.Tensor)) {
				t.Errorf("%s-%d: output %d differs when the run can be cancelled", k.name, k.version, i)
			}
		}
	}
}
