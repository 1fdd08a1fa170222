package tensor

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/sbinet/npyio/npy"
)

// ErrNPY is wrapped by every error about a .npy file that ReadNPY cannot
// read or WriteNPY cannot write.
var ErrNPY = errors.New("npy")

// maxNPYHeader caps the header of a .npy file; numpy writes a few dozen
// bytes, and the format's own limit (4 GiB) would let a broken file make
// ReadNPY allocate that much before it reads any data.
const maxNPYHeader = 1 << 20

// npyTypes maps numpy's type codes (without the byte-order character) to
// ONNX types: every type both can hold. Strings ("U<n>", "S<n>") are
// handled apart.
var npyTypes = map[string]DataType{
	"b1": Bool, "u1": Uint8, "i1": Int8, "u2": Uint16, "i2": Int16,
	"u4": Uint32, "i4": Int32, "u8": Uint64, "i8": Int64,
	"f2": Float16, "f4": Float, "f8": Double, "c8": Complex64, "c16": Complex128,
}

// ReadNPY reads one array in NumPy's .npy format (versions 1 to 3): bool,
// signed and unsigned integers, float16/32/64, complex64/128 in either byte
// order, and fixed-width strings ("U" and "S" types). Arrays in Fortran
// order of rank above 1, object arrays and record types are refused.
func ReadNPY(r io.Reader) (*Tensor, error) {
	header, err := readNPYHeader(r)
	if err != nil {
		return nil, err
	}
	descr, shape := header.Descr.Type, header.Descr.Shape
	if shape == nil {
		shape = []int{}
	}
	if header.Descr.Fortran && len(shape) > 1 {
		return nil, fmt.Errorf("%w: Fortran-order arrays are not supported; save np.ascontiguousarray(a)", ErrNPY)
	}
	n, err := NumElements(shape)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNPY, err)
	}
	order, code := splitByteOrder(descr)

	if kind, width, ok := npyStringType(code); ok {
		return readNPYStrings(r, shape, n, kind, width, order)
	}
	dt, ok := npyTypes[code]
	if !ok {
		return nil, fmt.Errorf("%w: numpy type %q has no ONNX equivalent", ErrNPY, descr)
	}
	size, err := ByteSize(dt, shape)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNPY, err)
	}
	data, err := readExactly(r, size)
	if err != nil {
		return nil, err
	}
	if !isNative(order) {
		swapElements(data, dt)
	}
	t, err := FromBytes(dt, shape, data)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNPY, err)
	}
	return t, nil
}

// readNPYHeader reads the magic string, version and header of a .npy file
// and parses the header with npyio. The header's length is checked first,
// so that a broken file cannot make the parser allocate gigabytes, and a
// panic in the parser is turned into an error.
func readNPYHeader(r io.Reader) (h npy.Header, err error) {
	var pre [10]byte
	if _, err := io.ReadFull(r, pre[:8]); err != nil {
		return h, fmt.Errorf("%w: reading the magic string: %w", ErrNPY, err)
	}
	if !bytes.Equal(pre[:6], npy.Magic[:]) {
		return h, fmt.Errorf("%w: not a .npy file (no \\x93NUMPY magic string)", ErrNPY)
	}
	var length int
	switch pre[6] {
	case 1:
		if _, err := io.ReadFull(r, pre[8:10]); err != nil {
			return h, fmt.Errorf("%w: reading the header length: %w", ErrNPY, err)
		}
		length = int(binary.LittleEndian.Uint16(pre[8:10]))
	case 2, 3:
		var l [4]byte
		if _, err := io.ReadFull(r, l[:]); err != nil {
			return h, fmt.Errorf("%w: reading the header length: %w", ErrNPY, err)
		}
		length = int(binary.LittleEndian.Uint32(l[:]))
	default:
		return h, fmt.Errorf("%w: unknown format version %d.%d", ErrNPY, pre[6], pre[7])
	}
	if length > maxNPYHeader {
		return h, fmt.Errorf("%w: header of %d bytes, above the limit of %d", ErrNPY, length, maxNPYHeader)
	}
	text := make([]byte, length)
	if _, err := io.ReadFull(r, text); err != nil {
		return h, fmt.Errorf("%w: reading the header: %w", ErrNPY, err)
	}
	if !bytes.Contains(text, []byte("\n")) || !bytes.Contains(text, []byte("}")) {
		return h, fmt.Errorf("%w: header %q is not a Python dictionary", ErrNPY, text)
	}

	// npyio reads version 1 and 2 headers; version 3 only differs in
	// allowing UTF-8 in the header, which npyio reads as version 2.
	var buf bytes.Buffer
	buf.Write(npy.Magic[:])
	buf.Write([]byte{2, 0})
	binary.Write(&buf, binary.LittleEndian, uint32(length))
	buf.Write(text)
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%w: malformed header %q", ErrNPY, text)
		}
	}()
	nr, err := npy.NewReader(&buf)
	if err != nil {
		return h, fmt.Errorf("%w: header %q: %w", ErrNPY, text, err)
	}
	for _, d := range nr.Header.Descr.Shape {
		if d < 0 {
			return h, fmt.Errorf("%w: negative dimension in header %q", ErrNPY, text)
		}
	}
	return nr.Header, nil
}

// splitByteOrder splits a numpy type string such as "<f4" into its byte
// order and type code.
func splitByteOrder(descr string) (binary.ByteOrder, string) {
	if descr == "" {
		return binary.NativeEndian, descr
	}
	switch descr[0] {
	case '<':
		return binary.LittleEndian, descr[1:]
	case '>':
		return binary.BigEndian, descr[1:]
	case '|', '=':
		return binary.NativeEndian, descr[1:]
	}
	return binary.NativeEndian, descr
}

// npyStringType parses the fixed-width string codes "U<n>" (n UTF-32 code
// points) and "S<n>" (n bytes).
func npyStringType(code string) (kind byte, width int, ok bool) {
	if len(code) < 2 || (code[0] != 'U' && code[0] != 'S') {
		return 0, 0, false
	}
	w, err := strconv.Atoi(code[1:])
	if err != nil || w < 0 {
		return 0, 0, false
	}
	return code[0], w, true
}

func readNPYStrings(r io.Reader, shape []int, n int, kind byte, width int, order binary.ByteOrder) (*Tensor, error) {
	if width > maxNPYStringBytes/4 {
		return nil, fmt.Errorf("%w: strings of %d characters are too long", ErrNPY, width)
	}
	unit := width
	if kind == 'U' {
		unit = 4 * width
	}
	if width > 0 && n > maxNPYStringBytes/unit {
		return nil, fmt.Errorf("%w: %d strings of %d bytes are too many", ErrNPY, n, unit)
	}
	// numpy has no zero-width string arrays ('S0' becomes 'S1' when an
	// array is made): such a file did not come from numpy, and would cost a
	// string header per element for no data at all.
	if width == 0 {
		return nil, fmt.Errorf("%w: strings of width 0 are not a numpy array type", ErrNPY)
	}
	data, err := readExactly(r, n*unit)
	if err != nil {
		return nil, err
	}
	strs := make([]string, n)
	for i := range strs {
		cell := data[i*unit : (i+1)*unit]
		if kind == 'S' {
			strs[i] = string(bytes.TrimRight(cell, "\x00"))
			continue
		}
		// numpy drops trailing NULs only: an inner NUL is part of the string.
		end := len(cell) / 4 * 4
		for end >= 4 && order.Uint32(cell[end-4:]) == 0 {
			end -= 4
		}
		var sb strings.Builder
		for k := 0; k+4 <= end; k += 4 {
			c := order.Uint32(cell[k:])
			if c > utf8.MaxRune {
				return nil, fmt.Errorf("%w: string %d holds code point %#x, not Unicode", ErrNPY, i, c)
			}
			sb.WriteRune(rune(c))
		}
		strs[i] = sb.String()
	}
	return FromStrings(shape, strs)
}

// maxNPYStringBytes caps the string data ReadNPY accepts (the tensor limit).
const maxNPYStringBytes = 1<<31 - 1

// readExactly reads n bytes, growing its buffer as data arrives so that a
// header that lies about the size costs no more memory than the file has.
func readExactly(r io.Reader, n int) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, int64(n)+1))
	if err != nil {
		return nil, fmt.Errorf("%w: reading the data: %w", ErrNPY, err)
	}
	// A .npy file holds one array: data past its end means the header
	// was misread or the file is broken.
	if len(data) != n {
		return nil, fmt.Errorf("%w: the header announces %d bytes of data, the file holds %s", ErrNPY, n, moreOrLess(len(data), n))
	}
	return data, nil
}

func moreOrLess(got, want int) string {
	if got > want {
		return "more"
	}
	return strconv.Itoa(got)
}

// isNative reports whether order is the machine's byte order.
func isNative(order binary.ByteOrder) bool {
	return order.Uint16([]byte{1, 0}) == binary.NativeEndian.Uint16([]byte{1, 0})
}

// swapElements reverses the bytes of each element (of each half, for the
// complex types) of data in place.
func swapElements(data []byte, dt DataType) {
	w := dt.Size()
	if dt == Complex64 || dt == Complex128 {
		w /= 2
	}
	if w < 2 {
		return
	}
	for i := 0; i+w <= len(data); i += w {
		e := data[i : i+w]
		for a, b := 0, w-1; a < b; a, b = a+1, b-1 {
			e[a], e[b] = e[b], e[a]
		}
	}
}

// WriteNPY writes t in NumPy's .npy format (version 1.0, or 2.0 when the
// header needs it), in little-endian order. String tensors are written as
// "<U<n>" when every string is UTF-8 and as "|S<n>" otherwise. The ONNX
// types numpy has no type for (bfloat16, the float8, float4, int4, uint4,
// int2 and uint2 types) are refused with an error wrapping ErrNPY.
func WriteNPY(w io.Writer, t *Tensor) error {
	if t == nil || !t.DataType().Valid() {
		return fmt.Errorf("%w: %w", ErrNPY, errNil)
	}
	descr, data, err := npyData(t)
	if err != nil {
		return err
	}
	if err := writeNPYHeader(w, descr, t.Shape()); err != nil {
		return err
	}
	_, err = w.Write(data)
	return err
}

// npyData returns t's numpy type string and its elements as the .npy file
// stores them.
func npyData(t *Tensor) (string, []byte, error) {
	dt := t.DataType()
	if dt == String {
		return npyStrings(t.Strings())
	}
	var code string
	for c, d := range npyTypes {
		if d == dt {
			code = c
		}
	}
	if code == "" {
		return "", nil, fmt.Errorf("%w: numpy has no %v type", ErrNPY, dt)
	}
	order := "<"
	if dt.Size() == 1 {
		order = "|"
	}
	data := t.Bytes()
	if !isNative(binary.LittleEndian) {
		data = append([]byte{}, data...)
		swapElements(data, dt)
	}
	return order + code, data, nil
}

func npyStrings(strs []string) (string, []byte, error) {
	// At least one character, as numpy: np.array(["", ""]) is '<U1'.
	allUTF8, width := true, 1
	for _, s := range strs {
		allUTF8 = allUTF8 && utf8.ValidString(s)
	}
	for _, s := range strs {
		n := len(s)
		if allUTF8 {
			n = utf8.RuneCountInString(s)
		}
		width = max(width, n)
	}
	if !allUTF8 {
		var buf bytes.Buffer
		for _, s := range strs {
			buf.WriteString(s)
			buf.Write(make([]byte, width-len(s)))
		}
		return "|S" + strconv.Itoa(width), buf.Bytes(), nil
	}
	buf := make([]byte, 0, 4*width*len(strs))
	for _, s := range strs {
		n := 0
		for _, c := range s {
			buf = binary.LittleEndian.AppendUint32(buf, uint32(c))
			n++
		}
		buf = append(buf, make([]byte, 4*(width-n))...)
	}
	return "<U" + strconv.Itoa(width), buf, nil
}

// writeNPYHeader writes the magic string, version and header dictionary,
// padded so that the data starts on a 64-byte boundary as numpy does.
func writeNPYHeader(w io.Writer, descr string, shape []int) error {
	dims := make([]string, len(shape))
	for i, d := range shape {
		dims[i] = strconv.Itoa(d)
	}
	tuple := "(" + strings.Join(dims, ", ") + ")"
	if len(shape) == 1 {
		tuple = "(" + dims[0] + ",)"
	}
	dict := fmt.Sprintf("{'descr': '%s', 'fortran_order': False, 'shape': %s, }", descr, tuple)

	pre := 10 // magic, version and a 2-byte length
	if len(dict)+1+pre > 65535 {
		pre = 12
	}
	total := (pre + len(dict) + 1 + 63) / 64 * 64
	header := dict + strings.Repeat(" ", total-pre-len(dict)-1) + "\n"

	var buf bytes.Buffer
	buf.Write(npy.Magic[:])
	if pre == 10 {
		buf.Write([]byte{1, 0})
		binary.Write(&buf, binary.LittleEndian, uint16(len(header)))
	} else {
		buf.Write([]byte{2, 0})
		binary.Write(&buf, binary.LittleEndian, uint32(len(header)))
	}
	buf.WriteString(header)
	_, err := w.Write(buf.Bytes())
	return err
}
