package onnx

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/onnxshape/onnxshape/internal/safefile"
	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/tensor"
)

// ErrExternalPath is wrapped by the errors refusing an external data
// location: absolute, climbing out with "..", escaping through a symbolic
// link, or given when no model folder is known.
var ErrExternalPath = errors.New("external data location refused")

// externalRef is the parsed external_data of a TensorProto.
type externalRef struct {
	location  string
	offset    int64
	length    int64
	hasLength bool
}

func parseExternalData(tp *pb.TensorProto) (externalRef, error) {
	var ref externalRef
	for _, kv := range tp.GetExternalData() {
		switch kv.GetKey() {
		case "location":
			ref.location = kv.GetValue()
		case "offset", "length":
			v, err := strconv.ParseInt(kv.GetValue(), 10, 64)
			if err != nil || v < 0 {
				return ref, fmt.Errorf("external_data %s %q is not a non-negative integer", kv.GetKey(), kv.GetValue())
			}
			if kv.GetKey() == "offset" {
				ref.offset = v
			} else {
				ref.length, ref.hasLength = v, true
			}
		}
		// "checksum" and unknown keys are informative only.
	}
	if ref.location == "" {
		return ref, errors.New("data_location is EXTERNAL but external_data has no location")
	}
	return ref, nil
}

// checkLocation refuses locations that could leave the model's folder.
// os.Root also refuses them; checking first gives a clearer message.
func checkLocation(loc string) error {
	slashed := strings.ReplaceAll(loc, `\`, "/")
	if strings.HasPrefix(slashed, "/") || filepath.IsAbs(loc) || filepath.VolumeName(loc) != "" {
		return fmt.Errorf("%w: %q is an absolute path", ErrExternalPath, loc)
	}
	for _, part := range strings.Split(slashed, "/") {
		if part == ".." {
			return fmt.Errorf("%w: %q climbs out of the model folder with \"..\"", ErrExternalPath, loc)
		}
	}
	if strings.ContainsRune(loc, 0) {
		return fmt.Errorf("%w: %q contains a NUL byte", ErrExternalPath, loc)
	}
	return nil
}

// openExternal opens the file beside the model, inside baseDir, that holds
// the want bytes of raw data of tp, and checks that they are there. It
// returns the file and the offset of the data; the caller closes the file.
func openExternal(tp *pb.TensorProto, baseDir string, want int) (*os.File, int64, error) {
	ref, err := parseExternalData(tp)
	if err != nil {
		return nil, 0, err
	}
	if baseDir == "" {
		return nil, 0, fmt.Errorf("%w: %q: external data is not allowed here (no model folder)", ErrExternalPath, ref.location)
	}
	if err := checkLocation(ref.location); err != nil {
		return nil, 0, err
	}
	if ref.hasLength && ref.length != int64(want) {
		return nil, 0, fmt.Errorf("%w: external_data length is %d bytes, the tensor needs %d", tensor.ErrShape, ref.length, want)
	}
	root, err := os.OpenRoot(baseDir)
	if err != nil {
		return nil, 0, fmt.Errorf("external data: %w", err)
	}
	defer root.Close()
	// os.Root refuses any path, symbolic links included, that resolves
	// outside baseDir. A named pipe or a device is refused before it is
	// opened: opening a pipe waits for a writer.
	name := filepath.FromSlash(strings.ReplaceAll(ref.location, `\`, "/"))
	info, err := root.Stat(name)
	if err != nil {
		return nil, 0, fmt.Errorf("%w: %w", ErrExternalPath, err)
	}
	if err := safefile.Regular("external data "+strconv.Quote(ref.location), info); err != nil {
		return nil, 0, err
	}
	f, err := root.OpenFile(name, os.O_RDONLY|safefile.OpenNonBlocking, 0)
	if err != nil {
		return nil, 0, fmt.Errorf("%w: %w", ErrExternalPath, err)
	}
	if err := checkExtent(f, ref, want); err != nil {
		f.Close()
		return nil, 0, err
	}
	return f, ref.offset, nil
}

// checkExtent checks that f is a regular file holding want bytes at
// ref.offset, and no more when ref gives no length (the data then runs to
// the end of the file).
func checkExtent(f *os.File, ref externalRef, want int) error {
	info, err := f.Stat()
	if err != nil {
		return fmt.Errorf("external data: %w", err)
	}
	if err := safefile.Regular("external data "+strconv.Quote(ref.location), info); err != nil {
		return err
	}
	size := info.Size()
	if ref.offset > size {
		return fmt.Errorf("%w: external data offset %d is past the end of %q (%d bytes)", tensor.ErrShape, ref.offset, ref.location, size)
	}
	avail := size - ref.offset
	if (!ref.hasLength && avail != int64(want)) || avail < int64(want) {
		return fmt.Errorf("%w: %q holds %d bytes from offset %d, the tensor needs %d", tensor.ErrShape, ref.location, avail, ref.offset, want)
	}
	return nil
}

// readExternal reads the external data of tp into dst, whose length is the
// size the data must have; dst is obtained from alloc only once the file is
// known to hold that much.
func readExternal(tp *pb.TensorProto, baseDir string, want int, alloc func() ([]byte, error)) error {
	f, offset, err := openExternal(tp, baseDir, want)
	if err != nil {
		return err
	}
	defer f.Close()
	dst, err := alloc()
	if err != nil {
		return err
	}
	if _, err := f.ReadAt(dst, offset); err != nil && !(errors.Is(err, io.EOF) && want == 0) {
		return fmt.Errorf("external data: %w", err)
	}
	return nil
}
