package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/onnxshape/onnxshape/examples"
	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/onnx"
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/profile"
	"github.com/onnxshape/onnxshape/tensor"
)

const runUsage = `usage: onnxshape run [MODEL] [--input NAME=FILE]... [--out DIR] [--profile onnx|sonnx] [--engine fast|reference] [--max-bytes N] [--max-run-bytes N] [--threads N]

Runs MODEL (a .onnx file, or a node-test folder holding model.onnx) and
prints each output's name, type, shape and a numpy-like preview. Inputs are
.npy files or .pb files (TensorProto, SequenceProto or OptionalProto);
NAME= may be left out when the model has one input. An input not given is
read from test_data_set_0/input_K.pb beside the model, if there is one.
Without MODEL, runs the bundled example (examples/letterbox.onnx) on its
bundled input. --out writes every output to DIR as NAME.npy (NAME.pb for
values numpy cannot hold). --engine picks the fast kernels or the reference
engine's (the default under --profile sonnx).`

func init() {
	register("run", "run a model on .npy or .pb inputs and print its outputs", func(args []string) int {
		return runMain(args, os.Stdout, os.Stderr)
	})
}

// inputFlags collects the repeated --input flag.
type inputFlags []string

func (f *inputFlags) String() string     { return strings.Join(*f, ",") }
func (f *inputFlags) Set(s string) error { *f = append(*f, s); return nil }

func runMain(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("run", runUsage, stderr)
	var inputs inputFlags
	fs.Var(&inputs, "input", "an input, as NAME=FILE (.npy or .pb); repeat for each input")
	outDir := fs.String("out", "", "write the outputs to this folder")
	profileName := fs.String("profile", "onnx", "rules the operators follow: onnx or sonnx")
	engineName := fs.String("engine", "", "kernels to run: fast or reference (default: reference under --profile sonnx, else fast)")
	maxBytes := fs.Int64("max-bytes", 0, "refuse to create any tensor larger than this many bytes (0: 2 GiB, -1: no limit)")
	maxRunBytes := fs.Int64("max-run-bytes", 0, "refuse a run that would hold more than this many bytes of tensors at once (0: 4 GiB, -1: no limit)")
	threads := fs.Int("threads", 0, "cores the kernels use (0: all)")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return flagExit(err)
	}
	p, err := parseProfile(*profileName)
	engine, engineErr := graph.ParseEngine(*engineName)
	err = errors.Join(err, engineErr)
	if len(pos) > 1 || err != nil || *threads < 0 {
		if err != nil {
			fmt.Fprintln(stderr, "onnxshape run:", err)
		} else {
			fs.Usage()
		}
		return 2
	}
	fail := func(err error) int {
		fmt.Fprintln(stderr, "onnxshape run:", oneLine(err.Error()))
		return 1
	}

	var m *graph.Model
	var given map[string]tensor.Value
	baseDir := ""
	if len(pos) == 0 {
		m, given, err = loadExample()
	} else {
		m, given, err = loadModel(pos[0], inputs)
		baseDir = modelDir(pos[0])
	}
	if err != nil {
		return fail(err)
	}
	// Under the profile, a model that leaves it is refused before it runs;
	// the operators then check the profile's constraints on every value.
	if p == ops.ProfileSONNX {
		if err := profile.Enforce(m.Proto(), baseDir); err != nil {
			fmt.Fprintln(stderr, "onnxshape run:", err)
			return 1
		}
	}
	o := &graph.RunOptions{Options: ops.Options{Profile: p, MaxTensorBytes: *maxBytes, Threads: *threads}, MaxRunBytes: *maxRunBytes, Engine: engine}
	out, err := m.Run(context.Background(), given, o)
	if err != nil {
		return fail(err)
	}

	var b bytes.Buffer
	for _, vi := range m.Outputs() {
		fmt.Fprintf(&b, "%s: ", vi.Name)
		preview(&b, out[vi.Name])
	}
	stdout.Write(b.Bytes())
	if *outDir != "" {
		if err := writeOutputs(*outDir, m.Outputs(), out, stdout); err != nil {
			return fail(err)
		}
	}
	return 0
}

// modelDir returns the folder of a model given as a file or a node-test folder.
func modelDir(path string) string {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return path
	}
	return filepath.Dir(path)
}

// loadExample loads the bundled example model and its input.
func loadExample() (*graph.Model, map[string]tensor.Value, error) {
	m, err := graph.LoadBytes(examples.Model(), "")
	if err != nil {
		return nil, nil, fmt.Errorf("the bundled example: %w", err)
	}
	inputs, err := examples.Inputs()
	if err != nil {
		return nil, nil, fmt.Errorf("the bundled example: %w", err)
	}
	return m, inputs, nil
}

// loadModel loads the model at path (a file or a node-test folder) and the
// inputs named by the --input flags, falling back on test_data_set_0.
func loadModel(path string, flags []string) (*graph.Model, map[string]tensor.Value, error) {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		path = filepath.Join(path, "model.onnx")
	}
	m, err := graph.Load(path)
	if err != nil {
		return nil, nil, err
	}
	byName := map[string]graph.ValueInfo{}
	for _, in := range m.Inputs() {
		byName[in.Name] = in
	}
	given := map[string]tensor.Value{}
	for _, f := range flags {
		name, file, ok := strings.Cut(f, "=")
		if !ok {
			if len(m.Inputs()) != 1 {
				return nil, nil, fmt.Errorf("--input %s: name the input (NAME=FILE): the model has %d inputs", f, len(m.Inputs()))
			}
			name, file = m.Inputs()[0].Name, f
		}
		vi, known := byName[name]
		if !known {
			return nil, nil, fmt.Errorf("--input %s: the model has no input %q (it has %s)", f, name, inputNames(m))
		}
		if _, dup := given[name]; dup {
			return nil, nil, fmt.Errorf("input %q is given twice", name)
		}
		v, err := readInput(file, vi)
		if err != nil {
			return nil, nil, err
		}
		given[name] = v
	}
	for k, in := range m.Inputs() {
		if _, ok := given[in.Name]; ok {
			continue
		}
		file := filepath.Join(filepath.Dir(path), "test_data_set_0", fmt.Sprintf("input_%d.pb", k))
		if _, err := os.Stat(file); err != nil {
			return nil, nil, fmt.Errorf("input %q (%s) is not given: use --input %s=FILE", in.Name, in.Describe(), in.Name)
		}
		v, err := readInput(file, in)
		if err != nil {
			return nil, nil, err
		}
		given[in.Name] = v
	}
	return m, given, nil
}

func inputNames(m *graph.Model) string {
	var names []string
	for _, in := range m.Inputs() {
		names = append(names, fmt.Sprintf("%q", in.Name))
	}
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// readInput reads a .npy or .pb file as the value of input vi.
func readInput(file string, vi graph.ValueInfo) (tensor.Value, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	switch strings.ToLower(filepath.Ext(file)) {
	case ".npy":
		t, err := tensor.ReadNPY(bytes.NewReader(b))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		return t, nil
	case ".pb":
		v, _, err := onnx.DecodeValue(b, vi.Type)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		return v, nil
	}
	return nil, fmt.Errorf("%s: inputs are .npy or .pb files", file)
}

// previewElements is the size past which a tensor's preview shows only the
// first and last items of each axis.
const previewElements = 64

// preview writes a value's type and shape, then its elements numpy style.
func preview(b *bytes.Buffer, v tensor.Value) {
	switch v := v.(type) {
	case *tensor.Tensor:
		var sb strings.Builder
		v.Format(&sb, v.Len() > previewElements)
		fmt.Fprintf(b, "%s\n%s\n", v.Describe(), sb.String())
	case *tensor.Sequence:
		fmt.Fprintf(b, "%s\n", v.Describe())
		for i, item := range v.Items {
			fmt.Fprintf(b, "  [%d] ", i)
			preview(b, item)
		}
	case *tensor.Optional:
		if v.Value == nil {
			fmt.Fprintf(b, "%s\n", v.Describe())
			return
		}
		b.WriteString("optional ")
		preview(b, v.Value)
	default:
		fmt.Fprintf(b, "%v\n", v)
	}
}

// writeOutputs writes each output to dir as NAME.npy, or NAME.pb for the
// values .npy cannot hold (sequences, optionals, bfloat16, float8, ...).
func writeOutputs(dir string, outputs []graph.ValueInfo, values map[string]tensor.Value, log io.Writer) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	used := map[string]bool{}
	for _, vi := range outputs {
		name := fileName(vi.Name)
		for i := 2; used[strings.ToLower(name)]; i++ {
			name = fmt.Sprintf("%s_%d", fileName(vi.Name), i)
		}
		used[strings.ToLower(name)] = true
		base := filepath.Join(dir, name)
		v := values[vi.Name]
		var buf bytes.Buffer
		path := base + ".npy"
		t, isTensor := v.(*tensor.Tensor)
		if !isTensor || tensor.WriteNPY(&buf, t) != nil {
			b, err := onnx.EncodeValue(v, vi.Name)
			if err != nil {
				return fmt.Errorf("output %q: %w", vi.Name, err)
			}
			buf.Reset()
			buf.Write(b)
			path = base + ".pb"
		}
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			return err
		}
		fmt.Fprintf(log, "wrote %s\n", path)
	}
	return nil
}

// fileName turns a value name into a file name: ONNX names may hold any
// character, including path separators.
func fileName(name string) string {
	clean := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			return r
		}
		return '_'
	}, name)
	if clean == "" || strings.Trim(clean, ".") == "" {
		clean = "output"
	}
	return clean
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
