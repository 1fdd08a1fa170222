package ops

import "github.com/onnxshape/onnxshape/ops/internal/window"

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
	AutoPadNotSet    = window.AutoPadNotSet
	AutoPadSameUpper = window.AutoPadSameUpper
	AutoPadSameLower = window.AutoPadSameLower
	AutoPadValid     = window.AutoPadValid
)
