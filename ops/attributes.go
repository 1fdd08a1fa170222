package ops

import "sync"

// The attributes of every operator version onnxshape implements, from the
// ONNX operator schemas (docs/Operators.md and docs/Changelog.md of
// onnx/onnx). The model loader refuses any other attribute, and one of
// another type, in every mode: ONNX's checker and onnxruntime refuse them
// too, and a stray attribute (Unsqueeze-13 with an axes attribute) would
// otherwise be silently ignored.
//
// From and Before bound the since-versions: a row with From 13 serves
// Squeeze-13 and later, one with Before 13 the versions before it.

func init() {
	declareAttrs("CenterCropPad", AttrSpec{Name: "axes", Type: AttrInts})
	declareAttrs("Concat", AttrSpec{Name: "axis", Type: AttrInt})
	declareAttrs("Constant",
		AttrSpec{Name: "value", Type: AttrTensor},
		AttrSpec{Name: "sparse_value", Type: AttrSparse, From: 11},
		AttrSpec{Name: "value_float", Type: AttrFloat, From: 12},
		AttrSpec{Name: "value_floats", Type: AttrFloats, From: 12},
		AttrSpec{Name: "value_int", Type: AttrInt, From: 12},
		AttrSpec{Name: "value_ints", Type: AttrInts, From: 12},
		AttrSpec{Name: "value_string", Type: AttrString, From: 12},
		AttrSpec{Name: "value_strings", Type: AttrStrings, From: 12})
	declareAttrs("DepthToSpace",
		AttrSpec{Name: "blocksize", Type: AttrInt},
		AttrSpec{Name: "mode", Type: AttrString, From: 11})
	declareAttrs("Expand")
	declareAttrs("Flatten", AttrSpec{Name: "axis", Type: AttrInt})
	declareAttrs("Identity")
	declareAttrs("MaxPool",
		AttrSpec{Name: "auto_pad", Type: AttrString},
		AttrSpec{Name: "kernel_shape", Type: AttrInts},
		AttrSpec{Name: "pads", Type: AttrInts},
		AttrSpec{Name: "strides", Type: AttrInts},
		AttrSpec{Name: "storage_order", Type: AttrInt, From: 8},
		AttrSpec{Name: "ceil_mode", Type: AttrInt, From: 10},
		AttrSpec{Name: "dilations", Type: AttrInts, From: 10})
	declareAttrs("MaxUnpool",
		AttrSpec{Name: "kernel_shape", Type: AttrInts},
		AttrSpec{Name: "pads", Type: AttrInts},
		AttrSpec{Name: "strides", Type: AttrInts})
	declareAttrs("Pad",
		AttrSpec{Name: "mode", Type: AttrString},
		AttrSpec{Name: "paddings", Type: AttrInts, Before: 2},
		AttrSpec{Name: "pads", Type: AttrInts, From: 2, Before: 11},
		AttrSpec{Name: "value", Type: AttrFloat, Before: 11})
	declareAttrs("Reshape",
		AttrSpec{Name: "shape", Type: AttrInts, Before: 5},
		AttrSpec{Name: "consumed_inputs", Type: AttrInts, Before: 5},
		AttrSpec{Name: "allowzero", Type: AttrInt, From: 14})
	declareAttrs("Resize",
		AttrSpec{Name: "mode", Type: AttrString},
		AttrSpec{Name: "coordinate_transformation_mode", Type: AttrString, From: 11},
		AttrSpec{Name: "cubic_coeff_a", Type: AttrFloat, From: 11},
		AttrSpec{Name: "exclude_outside", Type: AttrInt, From: 11},
		AttrSpec{Name: "extrapolation_value", Type: AttrFloat, From: 11},
		AttrSpec{Name: "nearest_mode", Type: AttrString, From: 11},
		AttrSpec{Name: "antialias", Type: AttrInt, From: 18},
		AttrSpec{Name: "axes", Type: AttrInts, From: 18},
		AttrSpec{Name: "keep_aspect_ratio_policy", Type: AttrString, From: 18})
	declareAttrs("Shape",
		AttrSpec{Name: "start", Type: AttrInt, From: 15},
		AttrSpec{Name: "end", Type: AttrInt, From: 15})
	declareAttrs("Size")
	declareAttrs("Slice",
		AttrSpec{Name: "axes", Type: AttrInts, Before: 10},
		AttrSpec{Name: "starts", Type: AttrInts, Before: 10},
		AttrSpec{Name: "ends", Type: AttrInts, Before: 10})
	declareAttrs("SpaceToDepth", AttrSpec{Name: "blocksize", Type: AttrInt})
	declareAttrs("Split",
		AttrSpec{Name: "axis", Type: AttrInt},
		AttrSpec{Name: "split", Type: AttrInts, Before: 13},
		AttrSpec{Name: "num_outputs", Type: AttrInt, From: 18})
	declareAttrs("Squeeze", AttrSpec{Name: "axes", Type: AttrInts, Before: 13})
	declareAttrs("Tile")
	declareAttrs("Transpose", AttrSpec{Name: "perm", Type: AttrInts})
	declareAttrs("Unsqueeze", AttrSpec{Name: "axes", Type: AttrInts, Before: 13})
	declareAttrs("Upsample",
		AttrSpec{Name: "mode", Type: AttrString},
		AttrSpec{Name: "scales", Type: AttrFloats, Before: 9})
}

// CheckAttribute returns nil when the schema's operator version takes
// attribute name of type t, and otherwise an *Error (rule "attribute")
// naming the attribute and listing the ones the version takes. An operator
// that declares no attributes at all is not checked.
func (s *Schema) CheckAttribute(name string, t AttrType) error {
	specs, declared := s.Attributes()
	if !declared {
		return nil
	}
	op := opRef{s.Name, s.Since}
	for _, a := range specs {
		if a.Name == name {
			if a.Type != t {
				return op.errorf("attribute", "attribute %s is of type %v, %s-%d takes it as %v", name, t, s.Name, s.Since, a.Type)
			}
			return nil
		}
	}
	return op.errorf("attribute", "attribute %s is not one %s-%d takes (%s)", name, s.Name, s.Since, describeAttrs(specs))
}

// describeAttrs lists attributes as "axis (int), perm (ints)", or says
// there are none.
func describeAttrs(specs []AttrSpec) string {
	if len(specs) == 0 {
		return "it takes no attribute"
	}
	s := "it takes "
	for i, a := range specs {
		if i > 0 {
			s += ", "
		}
		s += a.Name + " (" + a.Type.String() + ")"
	}
	return s
}

// AttrSpec declares one attribute that some versions of an operator take.
// The model loader refuses, in every mode, an attribute a node's operator
// version does not declare and one of another type.
type AttrSpec struct {
	Name string
	Type AttrType
	// From and Before bound the since-versions that take the attribute:
	// From <= version < Before; 0 leaves that side open.
	From, Before int
}

// appliesTo reports whether the attribute belongs to since-version v.
func (a AttrSpec) appliesTo(v int) bool {
	return (a.From == 0 || v >= a.From) && (a.Before == 0 || v < a.Before)
}

var attrRegistry = struct {
	sync.RWMutex
	byName map[string][]AttrSpec // domain/name -> every version's attributes
}{byName: map[string][]AttrSpec{}}

// declareAttrs records the attributes of operator name (default domain) at
// every version; an operator that takes none calls it with no spec, so that
// "declared, none" differs from "not declared".
func declareAttrs(name string, specs ...AttrSpec) {
	declareAttrsIn("", name, specs...)
}

// declareAttrsIn is declareAttrs for an operator of domain ("" for ai.onnx).
func declareAttrsIn(domain, name string, specs ...AttrSpec) {
	attrRegistry.Lock()
	defer attrRegistry.Unlock()
	k := key(domain, name)
	attrRegistry.byName[k] = append(append([]AttrSpec{}, attrRegistry.byName[k]...), specs...)
	if attrRegistry.byName[k] == nil {
		attrRegistry.byName[k] = []AttrSpec{}
	}
}

// Attributes returns the attributes the schema's operator version takes;
// declared is false when the operator declares none at all (every
// operator of the registry should).
func (s *Schema) Attributes() (specs []AttrSpec, declared bool) {
	attrRegistry.RLock()
	defer attrRegistry.RUnlock()
	all, declared := attrRegistry.byName[key(s.Domain, s.Name)]
	for _, a := range all {
		if a.appliesTo(s.Since) {
			specs = append(specs, a)
		}
	}
	return specs, declared
}

// The values of every enumerated (string) attribute of the operators, for
// the Mode-like fields of the options structs, so that a misspelled mode
// fails to compile rather than at run time. The empty string also selects
// each attribute's ONNX default. Resize's modes Nearest, Linear and Cubic
// are declared beside ResizeOptions and serve Upsample too.
const (
	// Pad's modes (PadOptions.Mode); wrap from version 19.
	PadConstant = "constant"
	PadReflect  = "reflect"
	PadEdge     = "edge"
	PadWrap     = "wrap"

	// DepthToSpace's modes (DepthToSpaceOptions.Mode): depth-column-row
	// (the default) and column-row-depth.
	DCR = "DCR"
	CRD = "CRD"

	// Resize's coordinate transformation modes
	// (ResizeOptions.CoordinateTransformationMode); half_pixel_symmetric
	// from version 19.
	HalfPixel          = "half_pixel"
	HalfPixelSymmetric = "half_pixel_symmetric"
	PytorchHalfPixel   = "pytorch_half_pixel"
	AlignCorners       = "align_corners"
	Asymmetric         = "asymmetric"
	TFCropAndResize    = "tf_crop_and_resize"

	// Resize's rounding of nearest (ResizeOptions.NearestMode).
	NearestRoundPreferFloor = "round_prefer_floor"
	NearestRoundPreferCeil  = "round_prefer_ceil"
	NearestFloor            = "floor"
	NearestCeil             = "ceil"

	// Resize's policies for Sizes (ResizeOptions.KeepAspectRatioPolicy).
	Stretch    = "stretch"
	NotLarger  = "not_larger"
	NotSmaller = "not_smaller"

	// The pooling operators' automatic padding (AutoPad fields).
	AutoPadNotSet    = autoPadNotSet
	AutoPadSameUpper = autoPadSameUpper
	AutoPadSameLower = autoPadSameLower
	AutoPadValid     = autoPadValid
)
