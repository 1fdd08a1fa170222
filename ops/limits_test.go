package ops

import (
	"errors"
	"math"
	"runtime"
	"testing"

	"github.com/onnxshape/onnxshape/internal/runenv"
	"github.com/onnxshape/onnxshape/tensor"
)

// Hostile nodes that used to allocate gigabytes of kernel scratch before
// any cap was checked: each must now be refused with an error wrapping
// ErrLimit, fast, having allocated little.

// allocatedBy returns the bytes f allocates on the heap, as the runtime
// counts them. Refusing cheaply is measured in bytes, not in time: a
// timed assertion would fail on a loaded machine or under -race.
func allocatedBy(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// wantRefusedCheaply fails the test unless run returns an error wrapping
// ErrLimit having allocated less than most bytes.
func wantRefusedCheaply(t *testing.T, name string, most uint64, run func() error) {
	t.Helper()
	var err error
	bytes := allocatedBy(func() { err = run() })
	if !errors.Is(err, ErrLimit) {
		t.Errorf("%s: got %v, want an error wrapping ErrLimit", name, err)
	}
	if bytes > most {
		t.Errorf("%s: allocated %d bytes before refusing, want at most %d", name, bytes, most)
	}
}

// chargeLog is an Options.Charge that records what it is told and refuses
// above a budget.
type chargeLog struct {
	total, budget int64
}

func (c *chargeLog) charge(bytes int64) error {
	if c.total+bytes > c.budget {
		return errors.New("over the run's budget")
	}
	c.total += bytes
	return nil
}

func TestMaxPoolHostileGeometry(t *testing.T) {
	big := math.MaxInt32 - 1
	// Pads of 2^31-2 under a kernel of 2^31-1: 2^31 windows an axis, whose
	// tables asked for 34 GB. The profile checks every window holds an
	// element (C4), which needs the tables, before the output's size.
	o := MaxPoolOptions{KernelShape: []int{big + 1, 1}, Pads: []int{big, 0, big, 0}, Strides: []int{1, 1}, Dilations: []int{1, 1}}
	one := tensor.MustNew(tensor.Float, 1, 1, 1, 1)
	wantRefusedCheaply(t, "SONNX, window tables", 1<<20, func() error {
		_, _, err := maxPool(&Options{Profile: ProfileSONNX}, opRef{"MaxPool", 22}, one, o)
		return err
	})
	// An empty batch is outside the profile; under ONNX rules its output is
	// empty, and no table is built.
	x := tensor.MustNew(tensor.Float, 0, 1, 1, 1)
	_, _, err := maxPool(&Options{Profile: ProfileSONNX}, opRef{"MaxPool", 22}, x, o)
	checkRule(t, err, sonnxPositiveDims)
	var y *tensor.Tensor
	bytes := allocatedBy(func() {
		var err error
		if y, _, err = maxPool(nil, opRef{"MaxPool", 22}, x, o); err != nil {
			t.Errorf("ONNX, empty batch: %v", err)
		}
	})
	if y != nil && y.Len() != 0 || bytes > 1<<20 {
		t.Errorf("ONNX, empty batch: %v, %d bytes allocated", y, bytes)
	}

	// A 100x100 window over a 100x100 plane: a one-element output, but 8
	// bytes of keys per input element on each core.
	x = tensor.MustNew(tensor.Float, 1, 1, 100, 100)
	o = MaxPoolOptions{KernelShape: []int{100, 100}}
	wantRefusedCheaply(t, "keys over the cap", 1<<16, func() error {
		_, _, err := maxPool(&Options{MaxTensorBytes: 50000}, opRef{"MaxPool", 22}, x, o)
		return err
	})
	log := &chargeLog{budget: 50000}
	wantRefusedCheaply(t, "keys over the run's budget", 1<<16, func() error {
		_, _, err := maxPool(&Options{env: runenv.Env{Charge: log.charge}}, opRef{"MaxPool", 22}, x, o)
		return err
	})
	// Within the budget, the scratch is charged besides the outputs.
	log = &chargeLog{budget: 1 << 30}
	if _, _, err := maxPool(&Options{Threads: 1, env: runenv.Env{Charge: log.charge}}, opRef{"MaxPool", 22}, x, o); err != nil {
		t.Fatal(err)
	}
	if log.total < 8*100*100 {
		t.Errorf("charged %d bytes, want at least the keys of a plane (80000)", log.total)
	}
}

func TestResizeHostileConversion(t *testing.T) {
	// 16 MiB of uint8 computes in float64: 128 MiB converted before any
	// check, where the output is a quarter of the input.
	x := tensor.MustNew(tensor.Uint8, 1, 1, 4096, 4096)
	p := resizeParams{mode: "linear", coord: "half_pixel", nearest: "floor", cubicA: -0.75, keepAspect: "stretch", scales: []float64{1, 1, 0.5, 0.5}}
	wantRefusedCheaply(t, "uint8 linear", 1<<20, func() error {
		_, err := resize(&Options{MaxTensorBytes: 20 << 20}, opRef{"Resize", 19}, nil, x, p)
		return err
	})
	// float16 converts to float32: twice its bytes.
	h := tensor.MustNew(tensor.Float16, 1, 1, 1024, 1024)
	wantRefusedCheaply(t, "float16 linear", 1<<20, func() error {
		_, err := resize(&Options{MaxTensorBytes: 3 << 20}, opRef{"Resize", 19}, nil, h, p)
		return err
	})
	// The run's budget sees the conversion too.
	log := &chargeLog{budget: 8 << 20}
	wantRefusedCheaply(t, "uint8 linear, run budget", 1<<20, func() error {
		_, err := resize(&Options{env: runenv.Env{Charge: log.charge}}, opRef{"Resize", 19}, nil, x, p)
		return err
	})
	// Cubic antialias by 1/2^20 on a long axis: a plan of 2^21 taps for each
	// output.
	p = resizeParams{mode: "cubic", coord: "half_pixel", nearest: "floor", cubicA: -0.75, keepAspect: "stretch",
		antialias: true, scales: []float64{1, 1, 1.0 / (1 << 20), 1}}
	long := tensor.MustNew(tensor.Float, 1, 1, 1<<22, 1)
	wantRefusedCheaply(t, "antialias plan", 1<<20, func() error {
		_, err := resize(&Options{MaxTensorBytes: 1 << 20}, opRef{"Resize", 19}, nil, long, p)
		return err
	})
}

func TestSplitHostileBookkeeping(t *testing.T) {
	// A rank-2000 input cut into 200k parts: 3.2 GB of output shapes.
	shape := make([]int, 2000)
	for i := range shape {
		shape[i] = 1
	}
	shape[0] = 200000
	x := tensor.MustNew(tensor.Uint8, shape...)
	sizes := make([]int64, 200000)
	for i := range sizes {
		sizes[i] = 1
	}
	split := tensor.MustFromSlice(sizes, len(sizes))
	wantRefusedCheaply(t, "200k parts of rank 2000", 8<<20, func() error {
		_, err := runKernel(nil, "Split", 18, len(sizes), nil, x, split)
		return err
	})
	// num_outputs alone asks for a list of sizes and as many tensors.
	long := tensor.MustNew(tensor.Uint8, 1<<20)
	wantRefusedCheaply(t, "num_outputs 2^20", 1<<20, func() error {
		_, err := runKernel(&Options{MaxTensorBytes: 1 << 20}, "Split", 18, 0,
			map[string]Attribute{"num_outputs": intAttribute(1 << 20)}, long)
		return err
	})
}

func TestPadHostileTables(t *testing.T) {
	// A one-element uint8 tensor edge-padded to 100k per side on one axis:
	// 200 KB of output, 1.6 MB of tables, which the run's budget refuses.
	x := tensor.MustNew(tensor.Uint8, 1, 1)
	log := &chargeLog{budget: 1 << 20}
	wantRefusedCheaply(t, "edge tables", 1<<20, func() error {
		_, err := runNode(&Options{env: runenv.Env{Charge: log.charge}}, "Pad", 19, map[string]Attribute{"mode": strAttribute("edge")}, x, i64s(0, 100000, 0, 100000))
		return err
	})
}

func TestMaxUnpoolHostileTranslation(t *testing.T) {
	// With output_shape larger than the default, every index is translated
	// into a new list of 8 bytes an index.
	x := tensor.MustNew(tensor.Float, 1, 1, 512, 512)
	idx := tensor.MustNew(tensor.Int64, 1, 1, 512, 512)
	o := MaxUnpoolOptions{KernelShape: []int{1, 1}, OutputShape: []int{1, 1, 513, 513}}
	wantRefusedCheaply(t, "translated indices", 2<<20, func() error {
		_, err := maxUnpool(&Options{MaxTensorBytes: 1100000}, opRef{"MaxUnpool", 22}, x, idx, o)
		return err
	})
}

func TestResizeHostileLists(t *testing.T) {
	// A roi of a million float16 for a rank-4 X: 8 MB as float64 before
	// its length was checked.
	x := tensor.MustNew(tensor.Float, 1, 1, 2, 2)
	roi := tensor.MustNew(tensor.Float16, 1<<20)
	scales := tensor.MustFromSlice([]float32{1, 1, 2, 2}, 4)
	var err error
	bytes := allocatedBy(func() {
		_, err = runKernel(nil, "Resize", 19, 1, map[string]Attribute{"mode": strAttribute("linear")}, x, roi, scales)
	})
	checkRule(t, err, "roi")
	if bytes > 1<<16 {
		t.Errorf("allocated %d bytes before refusing the roi", bytes)
	}
	sizes := tensor.MustNew(tensor.Int64, 1<<20)
	_, err = runKernel(nil, "Resize", 19, 1, map[string]Attribute{"mode": strAttribute("linear")}, x, nil, nil, sizes)
	checkRule(t, err, "sizes")
}

// A string output too large for a 16-byte header per element must be
// refused by the size check, not overflow it (found by FuzzOperators).
func TestCheckSizeHugeStrings(t *testing.T) {
	s, err := Lookup("", "Expand", 13)
	if err != nil {
		t.Fatal(err)
	}
	x := tensor.MustFromSlice([]string{"a"})
	shape := tensor.MustFromSlice([]int64{math.MaxInt64})
	for _, opt := range []*Options{nil, {MaxTensorBytes: -1}} {
		if _, err := s.Run(opt, &Node{OpType: "Expand", Version: 13}, []tensor.Value{x, shape}); err == nil {
			t.Fatalf("%+v: a string tensor of MaxInt64 elements must be refused", opt)
		}
	}
	if err := (&Options{}).checkSize(opRef{"Expand", 13}, tensor.String, []int{math.MaxInt / 8}); !errors.Is(err, ErrLimit) {
		t.Fatalf("got %v", err)
	}
}
