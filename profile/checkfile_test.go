package profile_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/onnx"
	"github.com/onnxshape/onnxshape/profile"
)

func TestCheckFile(t *testing.T) {
	rep, err := profile.CheckFile("../examples/letterbox.onnx")
	if err != nil {
		t.Fatal(err)
	}
	mp, err := onnx.ReadModel("../examples/letterbox.onnx")
	if err != nil {
		t.Fatal(err)
	}
	if want := profile.CheckProto(mp, "../examples"); rep.String() != want.String() {
		t.Errorf("CheckFile:\n%s\nCheck:\n%s", rep, want)
	}

	if _, err := profile.CheckFile("testdata/no-such-model.onnx"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
	garbage := filepath.Join(t.TempDir(), "garbage.onnx")
	if err := os.WriteFile(garbage, []byte("not a model"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := profile.CheckFile(garbage); !errors.Is(err, graph.ErrInvalidModel) {
		t.Errorf("garbage: %v", err)
	}
}

// A nil Report answers every method: nothing was checked, so it is
// undecided, neither inside nor outside.
func TestNilReport(t *testing.T) {
	var r *profile.Report
	if r.Verdict() != profile.VerdictUndecided || r.Inside() || r.Outside() || r.Summary() == "" || r.String() == "" {
		t.Errorf("nil report: %q %v %v %q %q", r.Verdict(), r.Inside(), r.Outside(), r.Summary(), r.String())
	}
}

// A finding about a node names it as data: Where's kind, name and index.
func TestFindingNode(t *testing.T) {
	rep, err := profile.CheckFile(filepath.Join("..", "examples", "letterbox.onnx"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range rep.Findings {
		if f.Where.Kind == profile.PlaceNode && f.Where.Name == "" && strings.HasPrefix(f.Where.String(), `node "`) {
			t.Errorf("finding %+v has no node name", f)
		}
	}
	mp, err := onnx.ReadModel(filepath.Join("..", "examples", "letterbox.onnx"))
	if err != nil {
		t.Fatal(err)
	}
	// An unknown Pad mode is a finding about that node.
	for _, np := range mp.GetGraph().GetNode() {
		for _, a := range np.GetAttribute() {
			if a.GetName() == "mode" && np.GetOpType() == "Pad" {
				a.S = []byte("symmetric")
			}
		}
	}
	rep = profile.CheckProto(mp, "")
	found := false
	for _, f := range rep.Findings {
		if f.Op == "Pad" {
			found = true
			if f.Where.Kind != profile.PlaceNode || f.Where.Name == "" || f.Where.Index < 0 || f.Where.String() != `node "`+f.Where.Name+`"` {
				t.Errorf("finding %+v: Where is not the Pad node as data", f)
			}
		}
	}
	if !found {
		t.Errorf("no finding about the Pad node: %s", rep)
	}
}

// Place's String is the text findings had before Where became data.
func TestPlaceString(t *testing.T) {
	loop := profile.Place{Kind: profile.PlaceNode, Name: "loop", Index: 2}
	for _, tc := range []struct {
		p    profile.Place
		want string
	}{
		{profile.Place{Kind: profile.PlaceNode, Name: "c0", Index: 0}, `node "c0"`},
		{profile.Place{Kind: profile.PlaceNode, Index: 3}, `node #3`},
		{profile.Place{Kind: profile.PlaceInput, Name: "x", Index: -1}, `input "x"`},
		{profile.Place{Kind: profile.PlaceSparseInitializer, Name: "w", Index: -1}, `sparse_initializer "w"`},
		{profile.Place{Kind: profile.PlaceModel, Index: -1}, `model`},
		{profile.Place{Kind: profile.PlaceNode, Index: 0, Within: &loop, Attribute: "body"}, `node "loop" attribute body: node #0`},
	} {
		if got := tc.p.String(); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.p, got, tc.want)
		}
	}
}
