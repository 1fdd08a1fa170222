package conformance

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// Manifest is the expected status of every node-test case, read from
// manifest.txt, one case a line:
//
//	pass test_concat_1d_axis_0
//	exclude test_resize_upsample_scales_cubic cubic mode not implemented yet
//
// A pass case must pass. An exclude case may do anything; its reason says
// why it is excluded: an exclusion is a debt, to be paid by making the case
// pass. Blank lines and lines starting with # are ignored.
type Manifest map[string]Entry

// Entry is one line of a Manifest.
type Entry struct {
	Pass   bool
	Reason string // why an excluded case is excluded
}

// ReadManifest reads the manifest at path.
func ReadManifest(path string) (Manifest, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	m, err := ParseManifest(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}

// ParseManifest reads a manifest from r.
func ParseManifest(r io.Reader) (Manifest, error) {
	m := Manifest{}
	sc := bufio.NewScanner(r)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		fields := strings.Fields(text)
		var e Entry
		switch {
		case fields[0] == "pass" && len(fields) == 2:
			e.Pass = true
		case fields[0] == "exclude" && len(fields) >= 3:
			e.Reason = strings.Join(fields[2:], " ")
		default:
			return nil, fmt.Errorf("line %d: want `pass NAME` or `exclude NAME REASON`, got %q", line, text)
		}
		if _, dup := m[fields[1]]; dup {
			return nil, fmt.Errorf("line %d: %s is listed twice", line, fields[1])
		}
		m[fields[1]] = e
	}
	return m, sc.Err()
}

// Update returns the manifest that results describe: pass for the cases
// that passed, exclude for the others. An excluded case that still does not
// pass keeps the reason written for it by hand; other exclusions take the
// reason of their result, prefixed by "skip: " or "fail: ". Cases of m that results do not cover are kept as they are.
func (m Manifest) Update(results []Result) Manifest {
	out := Manifest{}
	for name, e := range m {
		out[name] = e
	}
	for _, r := range results {
		if r.Status == Pass {
			out[r.Name] = Entry{Pass: true}
			continue
		}
		if old, ok := m[r.Name]; ok && !old.Pass && !isGeneratedReason(old.Reason) {
			continue
		}
		reason := strings.ToLower(string(r.Status)) + ": " + oneLine(r.Reason)
		out[r.Name] = Entry{Reason: reason}
	}
	return out
}

// isGeneratedReason reports a reason Update wrote (from a result), as
// opposed to one written by hand, which Update keeps.
func isGeneratedReason(reason string) bool {
	return strings.HasPrefix(reason, "skip: ") || strings.HasPrefix(reason, "fail: ")
}

// WriteTo writes the manifest, sorted by case name, with a header saying
// how to regenerate it.
func (m Manifest) WriteTo(w io.Writer) (int64, error) {
	names := make([]string, 0, len(m))
	for name := range m {
		names = append(names, name)
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString(manifestHeader)
	for _, name := range names {
		if e := m[name]; e.Pass {
			fmt.Fprintf(&b, "pass %s\n", name)
		} else {
			fmt.Fprintf(&b, "exclude %s %s\n", name, e.Reason)
		}
	}
	n, err := io.WriteString(w, b.String())
	return int64(n), err
}

const manifestHeader = `# The ONNX node tests and what onnxshape is expected to do with each.
# pass NAME: the case must pass. exclude NAME REASON: it is not expected to
# pass yet, and REASON says why. Regenerate from the current results with
#   go run ./cmd/onnxshape test -update-manifest
# (hand-written reasons of excluded cases that still fail are kept).
`

// UpdateFile rewrites the manifest at path from results, as Update does.
// A missing file counts as an empty manifest.
func UpdateFile(path string, results []Result) error {
	m, err := ReadManifest(path)
	if os.IsNotExist(err) {
		m, err = Manifest{}, nil
	}
	if err != nil {
		return err
	}
	var b strings.Builder
	m.Update(results).WriteTo(&b)
	return os.WriteFile(path, []byte(b.String()), 0o644)
}
