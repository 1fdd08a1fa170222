package ops

import (
	"errors"
	"testing"
)

// Every operator version the registry serves declares its attributes, so
// that the loader can refuse the ones it does not take.
func TestEverySchemaDeclaresAttributes(t *testing.T) {
	for _, s := range Schemas() {
		if _, declared := s.Attributes(); !declared {
			t.Errorf("%s-%d declares no attributes: add a declareAttrs call (with no spec if it takes none)", s.Name, s.Since)
		}
	}
}

func TestCheckAttribute(t *testing.T) {
	for _, tc := range []struct {
		op      string
		opset   int
		attr    string
		typ     AttrType
		wantErr string
	}{
		{"Unsqueeze", 11, "axes", AttrInts, ""},
		{"Unsqueeze", 13, "axes", AttrInts, "Unsqueeze-13 [attribute] attribute axes is not one Unsqueeze-13 takes (it takes no attribute)"},
		{"Concat", 13, "axis", AttrInt, ""},
		{"Concat", 13, "axis", AttrInts, "Concat-13 [attribute] attribute axis is of type ints, Concat-13 takes it as int"},
		{"Concat", 13, "axes", AttrInts, "Concat-13 [attribute] attribute axes is not one Concat-13 takes (it takes axis (int))"},
		{"MaxPool", 8, "dilations", AttrInts, "MaxPool-8 [attribute] attribute dilations is not one MaxPool-8 takes (it takes auto_pad (string), kernel_shape (ints), pads (ints), strides (ints), storage_order (int))"},
		{"MaxPool", 22, "dilations", AttrInts, ""},
		{"Reshape", 25, "allowzero", AttrInt, ""},
		{"Reshape", 13, "allowzero", AttrInt, "Reshape-13 [attribute] attribute allowzero is not one Reshape-13 takes (it takes no attribute)"},
		{"Split", 18, "num_outputs", AttrInt, ""},
		{"Split", 13, "split", AttrInts, "Split-13 [attribute] attribute split is not one Split-13 takes (it takes axis (int))"},
	} {
		s, err := Lookup("", tc.op, tc.opset)
		if err != nil {
			t.Fatal(err)
		}
		err = s.CheckAttribute(tc.attr, tc.typ)
		switch {
		case tc.wantErr == "" && err != nil:
			t.Errorf("%s-%d %s: %v", tc.op, tc.opset, tc.attr, err)
		case tc.wantErr != "" && (err == nil || err.Error() != tc.wantErr):
			t.Errorf("%s-%d %s: got %v, want %s", tc.op, tc.opset, tc.attr, err, tc.wantErr)
		case err != nil:
			var e *Error
			if !errors.As(err, &e) || e.Rule != "attribute" {
				t.Errorf("%v is not an *Error of rule attribute", err)
			}
		}
	}
}
