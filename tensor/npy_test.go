package tensor

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"math"
	"runtime"
	"strings"
	"testing"

	"github.com/x448/float16"
)

// npyFile builds a .npy file (version 1.0) with header dict and data, the
// way numpy lays it out: the data starts on a 64-byte boundary.
func npyFile(dict string, data []byte) []byte {
	total := (10 + len(dict) + 1 + 63) / 64 * 64
	header := dict + strings.Repeat(" ", total-10-len(dict)-1) + "\n"
	var b bytes.Buffer
	b.WriteString("\x93NUMPY\x01\x00")
	binary.Write(&b, binary.LittleEndian, uint16(len(header)))
	b.WriteString(header)
	b.Write(data)
	return b.Bytes()
}

func le[T any](v ...T) []byte {
	var b bytes.Buffer
	binary.Write(&b, binary.LittleEndian, v)
	return b.Bytes()
}

func TestWriteNPYMatchesNumpyLayout(t *testing.T) {
	x := MustFromSlice([]float32{1, 2, 3, 4, 5, 6}, 2, 3)
	var got bytes.Buffer
	if err := WriteNPY(&got, x); err != nil {
		t.Fatal(err)
	}
	// np.save of np.arange(1, 7, dtype='<f4').reshape(2, 3)
	want := npyFile("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", le[float32](1, 2, 3, 4, 5, 6))
	if !bytes.Equal(got.Bytes(), want) {
		t.Fatalf("got\n%q\nwant\n%q", got.Bytes(), want)
	}
	if len(got.Bytes())-24 != 128 {
		t.Fatalf("data starts at %d, want 128", len(got.Bytes())-24)
	}
}

func TestNPYRoundTrip(t *testing.T) {
	for _, x := range []*Tensor{
		MustFromSlice([]bool{true, false, true}, 3),
		MustFromSlice([]uint8{0, 255}),
		MustFromSlice([]int8{-128, 127}),
		MustFromSlice([]uint16{1, 65535}),
		MustFromSlice([]int16{-32768, 7}),
		MustFromSlice([]uint32{1, 1 << 31}),
		MustFromSlice([]int32{-1, 2, -3, 4}, 2, 2),
		MustFromSlice([]uint64{1 << 63}),
		MustFromSlice([]int64{-1 << 63, 1, 2, 3, 4, 5}, 1, 2, 3),
		MustFromSlice([]float16.Float16{float16.Fromfloat32(1.5), float16.Fromfloat32(-2)}),
		MustFromSlice([]float32{1.25}, []int{}...),
		MustFromSlice([]float64{3.5, math.Copysign(0, -1)}),
		MustFromSlice([]complex64{1 + 2i}),
		MustFromSlice([]complex128{3 - 4i, 0}),
		MustFromSlice([]float32{}, 0, 3),
		MustFromSlice([]string{"ab", "", "héllo", "日本"}, 2, 2),
		MustFromSlice([]string{"\xff\xfe", "ok"}),
	} {
		t.Run(x.Describe(), func(t *testing.T) {
			var b bytes.Buffer
			if err := WriteNPY(&b, x); err != nil {
				t.Fatal(err)
			}
			y, err := ReadNPY(&b)
			if err != nil {
				t.Fatal(err)
			}
			if !y.Equal(x) {
				t.Fatalf("read back %v %v, wrote %v %v", y.Describe(), y, x.Describe(), x)
			}
		})
	}
}

func TestReadNPYForeignLayouts(t *testing.T) {
	for _, tc := range []struct {
		name string
		file []byte
		want *Tensor
	}{
		{"big-endian int32", npyFile("{'descr': '>i4', 'fortran_order': False, 'shape': (2,), }", []byte{0, 0, 1, 2, 0xff, 0xff, 0xff, 0xfe}),
			MustFromSlice([]int32{258, -2})},
		{"big-endian complex64", npyFile("{'descr': '>c8', 'fortran_order': False, 'shape': (1,), }", []byte{0x3f, 0x80, 0, 0, 0x40, 0, 0, 0}),
			MustFromSlice([]complex64{1 + 2i})},
		{"bytes strings", npyFile("{'descr': '|S3', 'fortran_order': False, 'shape': (2,), }", []byte("ab\x00xyz")),
			MustFromSlice([]string{"ab", "xyz"})},
		{"unicode strings", npyFile("{'descr': '<U2', 'fortran_order': False, 'shape': (), }", le[uint32]('é', 0)),
			MustFromSlice([]string{"é"}, []int{}...)},
		{"Fortran order, rank 1", npyFile("{'descr': '<i2', 'fortran_order': True, 'shape': (3,), }", le[int16](1, 2, 3)),
			MustFromSlice([]int16{1, 2, 3})},
		{"scalar", npyFile("{'descr': '<f8', 'fortran_order': False, 'shape': (), }", le[float64](2.5)),
			MustFromSlice([]float64{2.5}, []int{}...)},
		{"empty", npyFile("{'descr': '<u1', 'fortran_order': False, 'shape': (2, 0), }", nil),
			MustFromSlice([]uint8{}, 2, 0)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ReadNPY(bytes.NewReader(tc.file))
			if err != nil {
				t.Fatal(err)
			}
			if !got.Equal(tc.want) {
				t.Fatalf("got %v %v, want %v %v", got.Describe(), got, tc.want.Describe(), tc.want)
			}
		})
	}
}

func TestReadNPYErrors(t *testing.T) {
	good := npyFile("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", le[float32](1, 2))
	huge := []byte("\x93NUMPY\x02\x00\xff\xff\xff\x7f")
	for _, tc := range []struct {
		name string
		file []byte
		want string
	}{
		{"empty file", nil, "magic"},
		{"not npy", []byte("PK\x03\x04 a zip file, maybe an npz"), "not a .npy file"},
		{"unknown version", []byte("\x93NUMPY\x09\x00\x10\x00"), "version 9.0"},
		{"truncated header", good[:20], "reading the header"},
		{"header too long", huge, "above the limit"},
		{"truncated data", good[:len(good)-1], "the header announces 8 bytes of data, the file holds 7"},
		{"trailing data", append(append([]byte{}, good...), 0), "the file holds more"},
		{"Fortran order", npyFile("{'descr': '<f4', 'fortran_order': True, 'shape': (1, 2), }", le[float32](1, 2)), "Fortran"},
		{"object array", npyFile("{'descr': '|O', 'fortran_order': False, 'shape': (1,), }", nil), `"|O" has no ONNX equivalent`},
		{"record type", npyFile("{'descr': [('a', '<i4')], 'fortran_order': False, 'shape': (1,), }", nil), "npy"},
		{"bool out of range", npyFile("{'descr': '|b1', 'fortran_order': False, 'shape': (1,), }", []byte{2}), "npy"},
		{"keys out of order", npyFile("{'shape': (1,), 'fortran_order': False, 'descr': '<f4', }", le[float32](1)), "npy"},
		{"no dictionary", npyFile("hello", nil), "not a Python dictionary"},
		{"negative dimension", npyFile("{'descr': '<f4', 'fortran_order': False, 'shape': (-1,), }", nil), "negative dimension"},
		{"bad code point", npyFile("{'descr': '<U1', 'fortran_order': False, 'shape': (1,), }", le[uint32](0x110000)), "not Unicode"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadNPY(bytes.NewReader(tc.file))
			if err == nil {
				t.Fatal("read a broken file")
			}
			if !errors.Is(err, ErrNPY) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want an ErrNPY saying %q", err, tc.want)
			}
		})
	}
}

func TestWriteNPYRefusesTypesNumpyLacks(t *testing.T) {
	for _, dt := range []DataType{BFloat16, Float8E4M3FN, Float8E5M2, Float8E4M3FNUZ, Float8E5M2FNUZ, Float8E8M0, Float4E2M1, Int4, Uint4, Int2, Uint2} {
		err := WriteNPY(&bytes.Buffer{}, MustNew(dt, 2))
		if !errors.Is(err, ErrNPY) || !strings.Contains(err.Error(), "numpy has no "+dt.String()) {
			t.Errorf("%v: got %v", dt, err)
		}
	}
}

func FuzzReadNPY(f *testing.F) {
	f.Add(npyFile("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", le[float32](1, 2)))
	f.Add(npyFile("{'descr': '<U2', 'fortran_order': False, 'shape': (1,), }", le[uint32]('a', 'b')))
	f.Add(npyFile("{'descr': '>i8', 'fortran_order': False, 'shape': (1, 1), }", make([]byte, 8)))
	f.Fuzz(func(t *testing.T, b []byte) {
		x, err := ReadNPY(bytes.NewReader(b))
		if err != nil {
			return
		}
		var out bytes.Buffer
		if err := WriteNPY(&out, x); err != nil {
			t.Fatalf("read %v but cannot write it: %v", x.Describe(), err)
		}
		y, err := ReadNPY(&out)
		if err != nil || !y.Equal(x) {
			t.Fatalf("round trip of %v: %v", x.Describe(), err)
		}
	})
}

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// leastAllocated is allocated's least over a few calls of f, which must be
// repeatable: the count is the whole process's, and a goroutine of the
// runtime or of another test may allocate while f runs.
func leastAllocated(f func()) uint64 {
	least := allocated(f)
	for i := 0; i < 4; i++ {
		least = min(least, allocated(f))
	}
	return least
}

// onlyReader hides every method of r but Read, as a pipe would.
type onlyReader struct{ r io.Reader }

func (o onlyReader) Read(p []byte) (int, error) { return o.r.Read(p) }

func TestReadNPYLimit(t *testing.T) {
	gib := npyFile("{'descr': '<f4', 'fortran_order': False, 'shape': (268435456,), }", le[float32](1, 2))
	strs := npyFile("{'descr': '<U1048576', 'fortran_order': False, 'shape': (20000,), }", nil)
	tests := []struct {
		name  string
		r     io.Reader
		limit int64
		want  string
	}{
		{"1 GiB announced, cap 1 MiB", bytes.NewReader(gib), 1 << 20, "above the limit of 1048576"},
		{"1 GiB announced, 8 bytes there", bytes.NewReader(gib), -1, "the file holds 8"},
		{"1 GiB announced, 8 bytes through a pipe", onlyReader{bytes.NewReader(gib)}, -1, "the file holds fewer"},
		{"80 GB of strings announced", bytes.NewReader(strs), DefaultMaxNPYBytes, "above the limit"},
	}
	for _, tc := range tests {
		var err error
		grew := allocated(func() { _, err = ReadNPYLimit(tc.r, tc.limit) })
		if !errors.Is(err, ErrNPY) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want ErrNPY with %q", tc.name, err, tc.want)
		}
		if grew > 2*uint64(npyChunk) {
			t.Errorf("%s: allocated %d bytes", tc.name, grew)
		}
	}
	// At the cap the array is read, once: the tensor's storage and little more.
	data := make([]byte, 4<<20)
	file := npyFile("{'descr': '<f4', 'fortran_order': False, 'shape': (1048576,), }", data)
	var x *Tensor
	var err error
	grew := allocated(func() { x, err = ReadNPYLimit(bytes.NewReader(file), int64(len(data))) })
	if err != nil || x.Len() != 1<<20 {
		t.Fatalf("at the cap: %v", err)
	}
	if grew > uint64(len(data))+64<<10 {
		t.Errorf("reading 4 MiB allocated %d bytes", grew)
	}
	if _, err := ReadNPYLimit(bytes.NewReader(file), int64(len(data))-1); !errors.Is(err, ErrNPY) {
		t.Errorf("a byte above the cap: %v", err)
	}
}

func TestReadNPYInChunks(t *testing.T) {
	defer func(c int) { npyChunk = c }(npyChunk)
	npyChunk = 16
	want := MustFromSlice([]int32{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, 2, 5)
	file := npyFile("{'descr': '<i4', 'fortran_order': False, 'shape': (2, 5), }", le[int32](1, 2, 3, 4, 5, 6, 7, 8, 9, 10))
	got, err := ReadNPY(onlyReader{bytes.NewReader(file)})
	if err != nil || !got.Equal(want) {
		t.Fatalf("got %v, %v", got, err)
	}
	for _, cut := range []int{len(file) - 1, len(file) - 20} {
		if _, err := ReadNPY(onlyReader{bytes.NewReader(file[:cut])}); !errors.Is(err, ErrNPY) {
			t.Errorf("cut at %d: %v", cut, err)
		}
	}
	if _, err := ReadNPY(onlyReader{bytes.NewReader(append(file, 0))}); !errors.Is(err, ErrNPY) {
		t.Errorf("a byte too many: %v", err)
	}
}

func TestNPYDataSizeOfStrings(t *testing.T) {
	strs := make([]string, 20001)
	strs[0] = strings.Repeat("x", 4<<20)
	x := MustFromSlice(strs, len(strs))
	var size int64
	var err error
	grew := leastAllocated(func() { size, err = NPYDataSize(x) })
	if want := int64(4 * (4 << 20) * 20001); err != nil || size != want {
		t.Fatalf("NPYDataSize = %d, %v; want %d", size, err, want)
	}
	if grew > 1<<10 {
		t.Errorf("NPYDataSize allocated %d bytes", grew)
	}
	// Written one cell at a time: the writer's buffer, not width x count.
	small := MustFromSlice([]string{"héllo", "", "a"}, 3)
	var b bytes.Buffer
	if err := WriteNPY(&b, small); err != nil {
		t.Fatal(err)
	}
	if size, _ := NPYDataSize(small); int64(b.Len()) != 128+size {
		t.Errorf("wrote %d bytes, NPYDataSize says %d of data after a 128-byte header", b.Len(), size)
	}
	if _, err := NPYDataSize(MustNew(BFloat16, 2)); !errors.Is(err, ErrNPY) {
		t.Errorf("bfloat16: %v, want ErrNPY", err)
	}
}

func TestReadNPYHugeStringWidth(t *testing.T) {
	// 4 x width wraps around to -16 in an int64: refused, not divided by 0.
	for _, descr := range []string{"<U4611686018427387900", "|S9223372036854775807", "<U536870912"} {
		file := npyFile("{'descr': '"+descr+"', 'fortran_order': False, 'shape': (0,), }", nil)
		if _, err := ReadNPY(bytes.NewReader(file)); !errors.Is(err, ErrNPY) {
			t.Errorf("%s: %v, want ErrNPY", descr, err)
		}
	}
}
