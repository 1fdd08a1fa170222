package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/onnxshape/onnxshape/examples"
	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/internal/safefile"
	"github.com/onnxshape/onnxshape/onnx"
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/profile"
	"github.com/onnxshape/onnxshape/tensor"
)

const runUsage = `usage: onnxshape run [MODEL] [--input NAME=FILE]... [--output NAME|all]... [--out DIR] [--profile onnx|sonnx] [--engine fast|reference] [--max-bytes N] [--max-run-bytes N] [--max-model-bytes N] [--threads N] [--timeout D] [--exact-qdq]

Runs MODEL (a .onnx file, or a node-test folder holding model.onnx) and
prints each output's name, type, shape and a numpy-like preview. Inputs are
.npy files or .pb files (TensorProto, SequenceProto or OptionalProto);
NAME= may be left out when the model has one input. An input not given is
read from test_data_set_0/input_K.pb beside the model, if there is one.
Without MODEL, runs the bundled example (examples/letterbox.onnx) on its
bundled input. --out writes every output to DIR (created if missing, and
checked to be a folder it can write before the model runs) as NAME.npy (NAME.pb for
values numpy cannot hold, and for string tensors whose .npy form, every
string as wide as the longest, would pass --max-bytes). --engine picks the
fast kernels or the reference engine's (the default under --profile sonnx).

--output NAME prints (and --out writes) the value NAME instead of the
graph's outputs: any value of the graph, an intermediate one included, and
only the nodes it depends on run; repeat it for more, or give --output all
for every input and node output, in the order the nodes run (with --out,
a dump that onnxshape diff compares with another runtime's).

Only regular files are read (a named pipe or a device is refused), and
every file is checked against the caps before it is read: the model file,
its decoding and its initializers together against --max-model-bytes, each
initializer and input against --max-bytes. The preview of an output is
bounded whatever its size. --timeout stops a run that takes longer (a Loop
whose condition never turns false, say) with a one-line error naming the
node it stopped in; an interrupt (Ctrl-C) stops it too.

` + runCapHelp

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
	fs := commandFlags("run")
	var inputs inputFlags
	fs.Var(&inputs, "input", "an input, as NAME=FILE (.npy or .pb); repeat for each input")
	outDir := fs.String("out", "", "write the outputs to this folder")
	var wanted inputFlags
	fs.Var(&wanted, "output", "a value to return instead of the graph's outputs (any value of the graph, or all); repeat for more")
	profileName := fs.String("profile", "onnx", "rules the operators follow: onnx or sonnx")
	engineName := fs.String("engine", "", "kernels to run: fast or reference (default: reference under --profile sonnx, else fast)")
	maxBytes := fs.Int64("max-bytes", 0, "refuse to read or create any tensor larger than this many bytes (0: 2 GiB, -1: no limit)")
	maxRunBytes := fs.Int64("max-run-bytes", 0, "refuse a run that would hold more than this many bytes of tensors at once (0: "+runCapDefault()+", -1: no limit)")
	maxModelBytes := fs.Int64("max-model-bytes", 0, "refuse a model whose file, decoding or initializers together take more than this many bytes (0: 2 GiB, -1: no limit)")
	threads := fs.Int("threads", 0, "cores the kernels use (0: all)")
	timeout := fs.Duration("timeout", 0, "stop the run after this long, e.g. 30s or 5m (0: no limit; an interrupt stops it too)")
	exactQDQ := fs.Bool("exact-qdq", false, "run DequantizeLinear -> Conv -> QuantizeLinear as written, in float, not as one int8 convolution")
	pos, code, ok := parseCommand(fs, runUsage, args, stdout, stderr)
	if !ok {
		return code
	}
	p, err := parseProfile(*profileName)
	if err != nil {
		return usageError(stderr, "run", "%v", err)
	}
	engine, err := graph.ParseEngine(*engineName)
	if err != nil {
		return usageError(stderr, "run", "--engine: %v", err)
	}
	if len(pos) > 1 {
		return usageError(stderr, "run", "give one MODEL, not %d (%s); inputs go with --input NAME=FILE", len(pos), strings.Join(pos, " "))
	}
	if *threads < 0 {
		return usageError(stderr, "run", "--threads is %d; give 0 (all cores) or more", *threads)
	}
	if *timeout < 0 {
		return usageError(stderr, "run", "--timeout is %v; give 0 (no limit) or more", *timeout)
	}
	fail := func(err error) int {
		fmt.Fprintln(stderr, "onnxshape run:", oneLine(err.Error()))
		return 1
	}
	// The destination is checked before anything is computed or printed,
	// so that a run is not wasted on a folder it cannot write.
	if *outDir != "" {
		if err := checkOutDir(*outDir); err != nil {
			return fail(err)
		}
	}

	caps := readCaps{model: graph.LoadOptions{MaxModelBytes: *maxModelBytes, MaxTensorBytes: *maxBytes, ExactQDQ: *exactQDQ}}
	caps.tensor = (&ops.Options{MaxTensorBytes: *maxBytes}).TensorLimit()
	var m *graph.Model
	var given map[string]tensor.Value
	if len(pos) == 0 {
		m, given, err = loadExample()
	} else {
		m, given, err = loadModel(pos[0], inputs, caps)
	}
	if err != nil {
		return fail(err)
	}
	// Under the profile, a model that leaves it is refused before it runs;
	// the operators then check the profile's constraints on every value.
	if p == ops.ProfileSONNX {
		if err := profile.Enforce(m); err != nil {
			return fail(err)
		}
	}
	o := &graph.RunOptions{Profile: p, MaxTensorBytes: *maxBytes, Threads: *threads, MaxRunBytes: *maxRunBytes, Engine: engine}
	shown := m.Outputs()
	if len(wanted) > 0 {
		names := []string(wanted)
		if slices.Contains(names, "all") {
			if len(names) > 1 {
				return usageError(stderr, "run", "--output all takes no other --output")
			}
			names = m.ValueNames()
		}
		o.Outputs = names
		shown = make([]graph.ValueInfo, len(names))
		for i, name := range names {
			shown[i] = graph.ValueInfo{Name: name}
		}
	}
	ctx := context.Background()
	if *timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, *timeout)
		defer cancel()
	}
	out, err := m.Run(ctx, given, o)
	if err != nil {
		return fail(err)
	}

	outs := out.Map()
	var b bytes.Buffer
	for _, vi := range shown {
		fmt.Fprintf(&b, "%s: ", printable(vi.Name))
		preview(&b, outs[vi.Name])
	}
	stdout.Write(b.Bytes())
	if *outDir != "" {
		if err := writeOutputs(*outDir, shown, outs, caps.tensor, stdout); err != nil {
			return fail(err)
		}
	}
	return 0
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

// readCaps are the caps on what run reads: the model (file, decoding,
// initializers) and each input file.
type readCaps struct {
	model  graph.LoadOptions
	tensor int64 // bytes of one tensor; math.MaxInt64 for no cap
}

// loadModel loads the model at path (a file or a node-test folder) and the
// inputs named by the --input flags, falling back on test_data_set_0.
func loadModel(path string, flags []string, caps readCaps) (*graph.Model, map[string]tensor.Value, error) {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		path = filepath.Join(path, "model.onnx")
	}
	m, err := graph.LoadWith(path, caps.model)
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
		v, err := readInput(file, vi, caps)
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
		v, err := readInput(file, in, caps)
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

// readInput reads a .npy or .pb file as the value of input vi, within the
// caps: a .npy array is checked from its header before it is read, a .pb
// file from its size and its encoding before it is decoded.
func readInput(file string, vi graph.ValueInfo, caps readCaps) (tensor.Value, error) {
	switch strings.ToLower(filepath.Ext(file)) {
	case ".npy":
		f, _, err := safefile.Open(file)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		t, err := tensor.ReadNPYLimit(f, caps.tensor)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		return t, nil
	case ".pb":
		limits := &onnx.Limits{MaxModelBytes: caps.model.MaxModelBytes, MaxTensorBytes: caps.model.MaxTensorBytes}
		v, _, err := onnx.ReadValueWith(file, vi.TypeProto(), limits)
		return v, err
	}
	return nil, fmt.Errorf("%s: inputs are .npy or .pb files", file)
}

// writeOutputs writes each output to dir as NAME.npy, or NAME.pb for the
// values .npy cannot hold (sequences, optionals, bfloat16, float8, ...) and
// for string tensors whose .npy data would take more than maxBytes. Files
// are written as they are encoded, not built in memory first.
func writeOutputs(dir string, outputs []graph.ValueInfo, values map[string]tensor.Value, maxBytes int64, log io.Writer) error {
	names := make([]string, len(outputs))
	for i, vi := range outputs {
		names[i] = vi.Name
	}
	files := safefile.ValueFiles(names)
	for i, vi := range outputs {
		path, err := writeOutput(filepath.Join(dir, files[i]), vi.Name, values[vi.Name], maxBytes)
		if err != nil {
			return fmt.Errorf("output %q: %w", vi.Name, err)
		}
		fmt.Fprintf(log, "wrote %s\n", path)
	}
	return nil
}

// checkOutDir makes sure the --out folder dir can take the outputs: it is
// created if missing (its parent must exist), must be a folder, and must
// let a file be created in it, which is tried and removed.
func checkOutDir(dir string) error {
	if err := os.Mkdir(dir, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("--out %s: %w", dir, err)
	}
	st, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("--out %s: %w", dir, err)
	}
	if !st.IsDir() {
		return fmt.Errorf("--out %s: not a folder", dir)
	}
	f, err := os.CreateTemp(dir, ".onnxshape-write-test-*")
	if err != nil {
		return fmt.Errorf("--out %s: cannot write there: %w", dir, err)
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}

// writeOutput writes v to base.npy when numpy holds it within maxBytes,
// else to base.pb, and returns the path written.
func writeOutput(base, name string, v tensor.Value, maxBytes int64) (string, error) {
	write := func(path string, encode func(io.Writer) error) (string, error) {
		f, err := safefile.Create(path)
		if err != nil {
			return "", err
		}
		w := bufio.NewWriter(f)
		err = encode(w)
		if err == nil {
			err = w.Flush()
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		return path, err
	}
	if t, ok := v.(*tensor.Tensor); ok {
		if size, err := tensor.NPYDataSize(t); err == nil && size <= maxBytes {
			return write(base+".npy", func(w io.Writer) error { return tensor.WriteNPY(w, t) })
		}
	}
	b, err := onnx.EncodeValue(v, name)
	if err != nil {
		return "", err
	}
	return write(base+".pb", func(w io.Writer) error { _, err := w.Write(b); return err })
}
