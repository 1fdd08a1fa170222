package infer_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/onnxshape/onnxshape/infer"
	"github.com/onnxshape/onnxshape/onnx"
	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/tensor"
)

// onnxRecord is one line of scripts/onnx_infer_shapes.py.
type onnxRecord struct {
	Model  string `json:"model"`
	Error  string `json:"error"`
	Values map[string]struct {
		Elem  int32  `json:"elem"`
		Shape *[]any `json:"shape"`
	} `json:"values"`
}

// python returns the interpreter that has the onnx package, skipping the
// test when there is none.
func python(t *testing.T) string {
	for _, p := range []string{"/usr/bin/python3", "python3"} {
		if exec.Command(p, "-c", "import onnx").Run() == nil {
			return p
		}
	}
	t.Skip("python3 with the onnx package is not installed (apt-get install python3-onnx): the comparison with ONNX's shape inference is skipped")
	return ""
}

// TestAgainstONNX compares onnxshape's inference with ONNX's own
// (onnx.shape_inference.infer_shapes) on every node test model, the models
// of libonnx-testdata and the exporter-style models, with the declared
// output and intermediate types removed: wherever ONNX infers a rank or a
// static dimension, onnxshape infers the same, and the same element type.
func TestAgainstONNX(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	py := python(t)
	tmp := t.TempDir()
	var models []string
	sources := map[string]string{} // temp path -> where the model comes from
	add := func(m *pb.ModelProto, from string) {
		b, err := onnx.EncodeModel(stripDeclared(m))
		if err != nil {
			return
		}
		p := filepath.Join(tmp, strconv.Itoa(len(models))+".onnx")
		if os.WriteFile(p, b, 0o644) == nil {
			models = append(models, p)
			sources[p] = from
		}
	}
	var paths []string
	for _, dir := range nodeTestDirsOrNone() {
		paths = append(paths, filepath.Join(dir, "model.onnx"))
	}
	more, _ := filepath.Glob("/usr/share/libonnx-testdata/data/*/*/model.onnx")
	paths = append(paths, more...)
	for _, p := range paths {
		m, err := onnx.ReadModel(p)
		if err == nil {
			add(m, p)
		}
	}
	for _, e := range exportedModels() {
		add(e.model, "exported "+e.name)
	}
	if len(models) == 0 {
		t.Skip("no models to compare")
	}
	cmd := exec.Command(py, filepath.Join("..", "scripts", "onnx_infer_shapes.py"))
	var in bytes.Buffer
	for _, p := range models {
		in.WriteString(p + "\n")
	}
	cmd.Stdin = &in
	outText, err := cmd.Output()
	if err != nil {
		t.Fatalf("onnx_infer_shapes.py: %v", err)
	}
	sc := bufio.NewScanner(bytes.NewReader(outText))
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	var compared, values, better int
	for sc.Scan() {
		var rec onnxRecord
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatal(err)
		}
		if rec.Error != "" {
			continue
		}
		m, err := onnx.ReadModel(rec.Model)
		if err != nil {
			continue
		}
		from := sources[rec.Model]
		r, err := infer.Proto(t.Context(), m, filepath.Dir(from), nil)
		if err != nil {
			t.Errorf("%s: %v", from, err)
			continue
		}
		compared++
		for name, want := range rec.Values {
			got, err := r.Value(name)
			if err != nil {
				continue // a value of a subgraph
			}
			values++
			if want.Elem != 0 && got.Type != tensor.Undefined && int32(got.Type) != want.Elem {
				t.Errorf("%s: %s: ONNX infers element type %v, onnxshape %v", from, name, tensor.DataType(want.Elem), got)
			}
			if want.Shape == nil {
				if got.Rank() >= 0 {
					better++
				}
				continue
			}
			dims := *want.Shape
			if got.Rank() != len(dims) {
				t.Errorf("%s: %s: ONNX infers rank %d %v, onnxshape %v", from, name, len(dims), dims, got)
				continue
			}
			for i, d := range dims {
				n, isInt := d.(float64)
				if !isInt {
					sym, named := d.(string)
					named = named && !strings.HasPrefix(sym, "unk__")
					gs := got.Shape[i].String()
					switch {
					case got.Shape[i].IsKnown():
						better++
					case named && strings.HasPrefix(gs, "unk__") && !strings.ContainsAny(gs, "+-*/()"):
						// ONNX carries a symbol of the model where onnxshape
						// lost track.
						t.Errorf("%s: %s: ONNX infers %v, onnxshape %v", from, name, dims, got)
					}
					continue
				}
				if v, known := got.Shape[i].Value(); !known || v != int64(n) {
					t.Errorf("%s: %s: ONNX infers %v, onnxshape %v", from, name, dims, got)
					break
				}
			}
		}
	}
	t.Logf("%d models, %d values compared with ONNX's shape inference; %d where onnxshape knows more", compared, values, better)
}

// nodeTestDirsOrNone is nodeTestDirs without the skip.
func nodeTestDirsOrNone() []string {
	dirs, _ := filepath.Glob(filepath.Join("..", "..", "shared", "onnx-node", "*", "model.onnx"))
	for i := range dirs {
		dirs[i] = filepath.Dir(dirs[i])
	}
	return dirs
}

// TestFoldedModelsPassONNXChecker: the folded and annotated exporter-style
// models pass onnx.checker.check_model with full_check, which also runs
// ONNX's strict shape inference against the value_info written.
func TestFoldedModelsPassONNXChecker(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	py := python(t)
	tmp := t.TempDir()
	var paths []string
	for _, m := range exportedModels() {
		for _, fixed := range []bool{false, true} {
			opt := &infer.Options{}
			if fixed {
				opt.InputShapes = fixedShapes[m.name]
			}
			folded, r, _, err := infer.FoldProto(t.Context(), m.model, "", opt)
			if err != nil {
				t.Fatal(err)
			}
			infer.AnnotateProto(folded, r)
			b, err := onnx.EncodeModel(folded)
			if err != nil {
				t.Fatal(err)
			}
			p := filepath.Join(tmp, m.name+"_"+strconv.FormatBool(fixed)+".onnx")
			if err := os.WriteFile(p, b, 0o644); err != nil {
				t.Fatal(err)
			}
			paths = append(paths, p)
		}
	}
	script := `
import sys, onnx
bad = 0
for p in sys.argv[1:]:
    try:
        onnx.checker.check_model(onnx.load(p), full_check=True)
    except Exception as e:
        bad += 1
        print(p, str(e).splitlines()[0] if str(e) else type(e).__name__)
sys.exit(1 if bad else 0)
`
	out, err := exec.Command(py, append([]string{"-c", script}, paths...)...).CombinedOutput()
	if err != nil {
		t.Errorf("onnx.checker refuses folded models: %v\n%s", err, out)
	}
}

// TestAnnotatedNodeTestsPassONNXChecker: every node test model ONNX 1.12
// knows, its declarations replaced by onnxshape's (Annotate), passes
// onnx.checker with full_check: ONNX's strict shape inference agrees with
// every shape onnxshape wrote.
func TestAnnotatedNodeTestsPassONNXChecker(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	py := python(t)
	tmp := t.TempDir()
	var paths []string
	for _, dir := range nodeTestDirsOrNone() {
		orig, err := onnx.ReadModel(filepath.Join(dir, "model.onnx"))
		if err != nil {
			continue
		}
		m := stripDeclared(orig)
		r, err := infer.Proto(t.Context(), m, dir, nil)
		if err != nil {
			continue
		}
		infer.AnnotateProto(m, r)
		for i, o := range m.Graph.Output {
			if o.Type == nil {
				o.Type = orig.Graph.Output[i].Type // unknown to onnxshape: as declared
			}
		}
		b, err := onnx.EncodeModel(m)
		if err != nil {
			continue
		}
		p := filepath.Join(tmp, filepath.Base(dir)+".onnx")
		if os.WriteFile(p, b, 0o644) == nil {
			paths = append(paths, p)
		}
	}
	if len(paths) == 0 {
		t.Skip("no node tests")
	}
	script := `
import sys, onnx
bad = 0
for p in sys.stdin.read().split():
    m = onnx.load(p)
    if m.ir_version > onnx.IR_VERSION or any(i.domain in ("", "ai.onnx") and i.version > onnx.defs.onnx_opset_version() for i in m.opset_import):
        continue  # newer than this onnx
    try:
        onnx.checker.check_model(m, full_check=True)
    except Exception as e:
        bad += 1
        print(p.rsplit("/", 1)[-1], str(e).splitlines()[0] if str(e) else type(e).__name__)
sys.exit(1 if bad else 0)
`
	cmd := exec.Command(py, "-c", script)
	cmd.Stdin = strings.NewReader(strings.Join(paths, "\n"))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("onnx.checker refuses annotated models: %v\n%s", err, out)
	}
}
