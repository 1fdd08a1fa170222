package tensor

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
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
