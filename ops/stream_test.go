package ops

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/onnxshape/onnxshape/tensor"
)

// TestCopyStream copies rows of every length up to a few lines between
// every pair of alignments and checks the copy and the bytes around it
// (streaming stores where the platform has them, the unaligned ends with
// copy).
func TestCopyStream(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 2))
	src := make([]byte, 512)
	for i := range src {
		src[i] = byte(rng.Uint32())
	}
	for n := range 300 {
		for _, offs := range [][2]int{{0, 0}, {rng.IntN(16), rng.IntN(16)}, {rng.IntN(16), 0}, {0, rng.IntN(16)}} {
			dOff, sOff := offs[0], offs[1]
			got := asBytes(aligned16(64))
			for i := range got {
				got[i] = 0xa5
			}
			want := bytes.Clone(got)
			copy(want[16+dOff:16+dOff+n], src[sOff:sOff+n])
			if k := copyStream(got[16+dOff:16+dOff+n], src[sOff:sOff+n]); k != n {
				t.Fatalf("n %d: copied %d bytes", n, k)
			}
			storeFence()
			if !bytes.Equal(got, want) {
				t.Fatalf("n %d, dst at %d, src at %d: the copy differs", n, dOff, sOff)
			}
		}
	}
	// Overlapping rows take copy, which handles them.
	b := bytes.Clone(src)
	copyStream(b[8:400], b[0:392])
	want := bytes.Clone(src)
	copy(want[8:400], want[0:392])
	if !bytes.Equal(b, want) {
		t.Fatal("overlapping copy differs")
	}
}

// TestStreamsPolicy pins when the copy engine streams: from streamMin bytes
// written and read, a broadcast counting what it reads, never where the
// platform has no streaming stores.
func TestStreamsPolicy(t *testing.T) {
	half := streamMin / 2
	for _, c := range []struct {
		written, source int
		want            bool
	}{
		{half, half, true},               // a transpose at the threshold
		{half - 4, half, false},          // just below
		{25_690_112, 28 << 10, false},    // Expand: 25.7 MB from 28 KB stays in the cache
		{streamMin, streamMin * 4, true}, // a Slice of a larger source
		{0, 0, false},
	} {
		want := c.want && haveStreamStores
		if got := (*Options)(nil).streams(c.written, c.source); got != want {
			t.Errorf("streams(%d, %d) = %v, want %v", c.written, c.source, got, want)
		}
	}
	if haveStreamStores && !(&Options{streamFrom: 1}).streams(1, 1) {
		t.Error("streamFrom does not lower the threshold")
	}
}

// TestStreamedOperators runs the operators whose copies stream on outputs
// streamed and not, on every element size, and wants the same bytes.
func TestStreamedOperators(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	for _, dt := range []tensor.DataType{tensor.Uint8, tensor.Float16, tensor.Float, tensor.Double, tensor.Complex128} {
		x := randomTensor(rng, dt, []int{2, 12, 20, 36})
		runs := []struct {
			name string
			f    func(opt *Options) (*tensor.Tensor, error)
		}{
			{"Transpose to NHWC", func(opt *Options) (*tensor.Tensor, error) {
				return transpose(opt, opRef{"Transpose", 21}, x, []int{0, 2, 3, 1})
			}},
			{"Transpose to NCHW", func(opt *Options) (*tensor.Tensor, error) {
				return transpose(opt, opRef{"Transpose", 21}, x, []int{0, 3, 1, 2})
			}},
			{"SpaceToDepth", func(opt *Options) (*tensor.Tensor, error) {
				return spaceToDepth(opt, opRef{"SpaceToDepth", 13}, x, 2)
			}},
			{"Tile", func(opt *Options) (*tensor.Tensor, error) {
				return tile(opt, opRef{"Tile", 13}, x, []int{1, 2, 1, 2})
			}},
		}
		for _, r := range runs {
			want, err := r.f(&Options{Threads: 2})
			if err != nil {
				t.Fatalf("%v %s: %v", dt, r.name, err)
			}
			got, err := r.f(&Options{Threads: 2, streamFrom: 1})
			if err != nil {
				t.Fatalf("%v %s streamed: %v", dt, r.name, err)
			}
			if !got.Equal(want) {
				t.Errorf("%v %s: the streamed output differs", dt, r.name)
			}
		}
	}
}
