package tensor

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/sbinet/npyio/npy"

	"github.com/onnxshape/onnxshape/internal/storage"
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
// order of rank above 1, object arrays and record types are refused. It
// refuses arrays above DefaultMaxNPYBytes, as ReadNPYLimit does.
func ReadNPY(r io.Reader) (*Tensor, error) {
	return ReadNPYLimit(r, DefaultMaxNPYBytes)
}

// DefaultMaxNPYBytes is the cap ReadNPY puts on an array's storage: the
// operators' default cap on one tensor.
const DefaultMaxNPYBytes = 1<<31 - 1

// ReadNPYLimit is ReadNPY for arrays whose storage takes at most maxBytes
// bytes (negative: no cap; a string array counts a 16-byte header per
// string plus its width in bytes). The size the header announces is
// checked against the cap before anything is allocated. The data is read
// straight into the tensor's storage, so an array is held once: when r can
// tell how many bytes it has left (an *os.File, a *bytes.Reader), that is
// checked against the header first; otherwise the storage is allocated
// only as the data arrives, so that a header that lies costs no more than
// the data r really holds.
func ReadNPYLimit(r io.Reader, maxBytes int64) (*Tensor, error) {
	if maxBytes < 0 {
		maxBytes = math.MaxInt64
	}
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
		return readNPYStrings(r, shape, n, kind, width, order, maxBytes)
	}
	dt, ok := npyTypes[code]
	if !ok {
		return nil, fmt.Errorf("%w: numpy type %q has no ONNX equivalent", ErrNPY, descr)
	}
	size, err := ByteSize(dt, shape)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNPY, err)
	}
	if int64(size) > maxBytes {
		return nil, fmt.Errorf("%w: %v of shape %v takes %d bytes, above the limit of %d", ErrNPY, dt, shape, size, maxBytes)
	}
	known, err := checkRemaining(r, size)
	if err != nil {
		return nil, err
	}
	t := &Tensor{dtype: dt, shape: shape, n: n}
	if t.data, err = readExactly(r, size, known, storage.Aligned); err != nil {
		return nil, err
	}
	if dt == Bool { // the only type .npy holds whose bytes are not all valid
		for _, v := range t.data {
			if !validSubByte(dt, v) {
				return nil, fmt.Errorf("%w: %w: byte %#x is not a %v", ErrNPY, ErrType, v, dt)
			}
		}
	}
	if !isNative(order) {
		swapElements(t.data, dt)
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

func readNPYStrings(r io.Reader, shape []int, n int, kind byte, width int, order binary.ByteOrder, maxBytes int64) (*Tensor, error) {
	// numpy has no zero-width string arrays ('S0' becomes 'S1' when an
	// array is made): such a file did not come from numpy, and would cost a
	// string header per element for no data at all.
	if width == 0 {
		return nil, fmt.Errorf("%w: strings of width 0 are not a numpy array type", ErrNPY)
	}
	// numpy's item sizes are int32s, 4 bytes a character for "U".
	if width > math.MaxInt32/4 {
		return nil, fmt.Errorf("%w: strings of %d characters are too long", ErrNPY, width)
	}
	unit := int64(width)
	if kind == 'U' {
		unit = 4 * int64(width)
	}
	// The data, then a 16-byte header and at most unit bytes per string.
	if int64(n) > maxBytes/(16+unit) || unit*int64(n) > math.MaxInt/2 {
		return nil, fmt.Errorf("%w: %d strings of %d bytes are above the limit of %d bytes", ErrNPY, n, unit, maxBytes)
	}
	size := n * int(unit)
	known, err := checkRemaining(r, size)
	if err != nil {
		return nil, err
	}
	data, err := readExactly(r, size, known, func(n int) []byte { return make([]byte, n) })
	if err != nil {
		return nil, err
	}
	strs := make([]string, n)
	for i := range strs {
		cell := data[i*int(unit) : (i+1)*int(unit)]
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
	return &Tensor{dtype: String, shape: shape, n: n, strs: strs}, nil
}

// checkRemaining compares the size the header announces with the bytes r
// has left, when r can tell (a file, a bytes.Reader), before anything is
// allocated for them; known reports whether it could.
func checkRemaining(r io.Reader, size int) (known bool, err error) {
	seeker, ok := r.(io.Seeker)
	if !ok {
		return false, nil
	}
	var total int64
	switch r := r.(type) {
	case interface{ Size() int64 }:
		total = r.Size()
	case interface{ Stat() (fs.FileInfo, error) }:
		info, err := r.Stat()
		if err != nil || !info.Mode().IsRegular() {
			return false, nil
		}
		total = info.Size()
	default:
		return false, nil
	}
	pos, err := seeker.Seek(0, io.SeekCurrent)
	if err != nil {
		return false, nil
	}
	if left := total - pos; left != int64(size) {
		return false, fmt.Errorf("%w: the header announces %d bytes of data, the file holds %s", ErrNPY, size, moreOrLess(left, int64(size)))
	}
	return true, nil
}

// npyChunk is the storage readExactly allocates before any data arrived
// (a variable for the tests).
var npyChunk = 64 << 20

// readExactly reads n bytes into storage from newBuf. When r is known to
// hold them, or up to npyChunk bytes, it allocates them at once; else it
// reads in chunks first and allocates the n bytes only once they have all
// arrived, so that a header that lies about the size costs no more memory
// than twice the data there is.
func readExactly(r io.Reader, n int, known bool, newBuf func(int) []byte) ([]byte, error) {
	if known || n <= npyChunk {
		data := newBuf(n)
		if _, err := io.ReadFull(r, data); err != nil {
			return nil, shortData(err, n)
		}
		return data, checkEnd(r, n)
	}
	var chunks [][]byte
	for got := 0; got < n; {
		c := make([]byte, min(npyChunk, n-got))
		k, err := io.ReadFull(r, c)
		got += k
		if err != nil {
			return nil, shortData(err, n)
		}
		chunks = append(chunks, c)
	}
	data := newBuf(n)
	at := 0
	for i, c := range chunks {
		at += copy(data[at:], c)
		chunks[i] = nil
	}
	return data, checkEnd(r, n)
}

func shortData(err error, n int) error {
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return fmt.Errorf("%w: the header announces %d bytes of data, the file holds fewer", ErrNPY, n)
	}
	return fmt.Errorf("%w: reading the data: %w", ErrNPY, err)
}

// checkEnd refuses data past the array: a .npy file holds one array, so
// more means the header was misread or the file is broken.
func checkEnd(r io.Reader, n int) error {
	var one [1]byte
	if k, _ := io.ReadFull(r, one[:]); k > 0 {
		return fmt.Errorf("%w: the header announces %d bytes of data, the file holds more", ErrNPY, n)
	}
	return nil
}

func moreOrLess(got, want int64) string {
	if got > want {
		return "more"
	}
	return strconv.FormatInt(got, 10)
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
// "<U<n>" when every string is UTF-8 and as "|S<n>" otherwise, n the
// longest string: one long string among many short ones makes a large
// file (NPYDataSize tells how large before writing). The ONNX types numpy
// has no type for (bfloat16, the float8, float4, int4, uint4, int2 and
// uint2 types) are refused with an error wrapping ErrNPY. WriteNPY
// allocates no more than one string's cell beyond t's own storage.
func WriteNPY(w io.Writer, t *Tensor) error {
	if t == nil || !t.DataType().Valid() {
		return fmt.Errorf("%w: %w", ErrNPY, errNil)
	}
	dt := t.DataType()
	if dt == String {
		cells := npyStringCells(t.Strings())
		if err := writeNPYHeader(w, cells.descr(), t.Shape()); err != nil {
			return err
		}
		return cells.write(w, t.Strings())
	}
	descr, err := npyDescr(dt)
	if err != nil {
		return err
	}
	if err := writeNPYHeader(w, descr, t.Shape()); err != nil {
		return err
	}
	data := t.Bytes()
	if !isNative(binary.LittleEndian) {
		data = append([]byte{}, data...)
		swapElements(data, dt)
	}
	_, err = w.Write(data)
	return err
}

// NPYDataSize returns the bytes of data (the header aside) WriteNPY writes
// for t, without writing or allocating anything; for the types numpy lacks,
// the error WriteNPY returns.
func NPYDataSize(t *Tensor) (int64, error) {
	if t == nil {
		return 0, fmt.Errorf("%w: nil tensor", ErrNPY)
	}
	if t.DataType() == String {
		return npyStringCells(t.Strings()).size(len(t.Strings())), nil
	}
	if _, err := npyDescr(t.DataType()); err != nil {
		return 0, err
	}
	return int64(len(t.Bytes())), nil
}

// npyDescr returns numpy's type string for dt, little-endian.
func npyDescr(dt DataType) (string, error) {
	var code string
	for c, d := range npyTypes {
		if d == dt {
			code = c
		}
	}
	if code == "" {
		return "", fmt.Errorf("%w: numpy has no %v type", ErrNPY, dt)
	}
	if dt.Size() == 1 {
		return "|" + code, nil
	}
	return "<" + code, nil
}

// npyCells is the layout of a string array in a .npy file: every string in
// a cell of width characters, UTF-32 code points ("U") when all are UTF-8,
// bytes ("S") otherwise.
type npyCells struct {
	utf32 bool
	width int
}

// npyStringCells finds the layout of strs: at least one character wide,
// as numpy (np.array(["", ""]) is '<U1').
func npyStringCells(strs []string) npyCells {
	c := npyCells{utf32: true, width: 1}
	for _, s := range strs {
		c.utf32 = c.utf32 && utf8.ValidString(s)
	}
	for _, s := range strs {
		n := len(s)
		if c.utf32 {
			n = utf8.RuneCountInString(s)
		}
		c.width = max(c.width, n)
	}
	return c
}

func (c npyCells) descr() string {
	if c.utf32 {
		return "<U" + strconv.Itoa(c.width)
	}
	return "|S" + strconv.Itoa(c.width)
}

// size is the data size of n cells, in bytes.
func (c npyCells) size(n int) int64 {
	if c.utf32 {
		return 4 * int64(c.width) * int64(n)
	}
	return int64(c.width) * int64(n)
}

// write writes strs, one cell at a time.
func (c npyCells) write(w io.Writer, strs []string) error {
	bw := bufio.NewWriter(w)
	for _, s := range strs {
		if !c.utf32 {
			bw.WriteString(s)
			writeZeros(bw, c.width-len(s))
			continue
		}
		n := 0
		var cp [4]byte
		for _, r := range s {
			binary.LittleEndian.PutUint32(cp[:], uint32(r))
			bw.Write(cp[:])
			n++
		}
		writeZeros(bw, 4*(c.width-n))
	}
	return bw.Flush()
}

func writeZeros(w *bufio.Writer, n int) {
	for ; n > 0; n-- {
		w.WriteByte(0)
	}
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
