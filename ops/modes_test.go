package ops

import (
	"strings"
	"testing"

	"github.com/onnxshape/onnxshape/tensor"
)

// Every exported mode constant is a value its operator takes, and a wrong
// mode's error lists the valid ones.
func TestModeConstants(t *testing.T) {
	x := tensor.MustFromSlice([]float32{1, 2, 3, 4, 5, 6, 7, 8, 9}, 1, 1, 3, 3)
	for _, m := range []string{PadConstant, PadReflect, PadEdge, PadWrap} {
		if _, err := Pad(x, PadOptions{Mode: m, Pads: []int{0, 0, 1, 1, 0, 0, 1, 1}}); err != nil {
			t.Errorf("Pad mode %q: %v", m, err)
		}
	}
	for _, m := range []string{DCR, CRD} {
		if _, err := DepthToSpace(tensor.MustNew(tensor.Float, 1, 4, 1, 1), DepthToSpaceOptions{Blocksize: 2, Mode: m}); err != nil {
			t.Errorf("DepthToSpace mode %q: %v", m, err)
		}
	}
	for _, c := range []string{HalfPixel, HalfPixelSymmetric, PytorchHalfPixel, AlignCorners, Asymmetric, TFCropAndResize} {
		for _, n := range []string{NearestRoundPreferFloor, NearestRoundPreferCeil, NearestFloor, NearestCeil} {
			o := ResizeOptions{Mode: Nearest, CoordinateTransformationMode: c, NearestMode: n, Sizes: []int{1, 1, 4, 4}}
			if c == TFCropAndResize {
				o.Roi = []float64{0, 0, 0, 0, 1, 1, 1, 1}
			}
			if _, err := Resize(x, o); err != nil {
				t.Errorf("Resize %s/%s: %v", c, n, err)
			}
		}
	}
	for _, k := range []string{Stretch, NotLarger, NotSmaller} {
		if _, err := Resize(x, ResizeOptions{Mode: Linear, KeepAspectRatioPolicy: k, Sizes: []int{1, 1, 4, 4}}); err != nil {
			t.Errorf("Resize policy %q: %v", k, err)
		}
	}
	for _, a := range []string{AutoPadNotSet, AutoPadSameUpper, AutoPadSameLower, AutoPadValid} {
		if _, _, err := MaxPool(x, MaxPoolOptions{AutoPad: a, KernelShape: []int{2, 2}}); err != nil {
			t.Errorf("MaxPool auto_pad %q: %v", a, err)
		}
	}

	if _, err := Resize(x, ResizeOptions{Mode: "bilinear", Sizes: []int{1, 1, 4, 4}}); err == nil || !strings.Contains(err.Error(), "nearest, linear or cubic") {
		t.Errorf("bilinear: %v", err)
	}
	if _, err := Pad(x, PadOptions{Mode: "symmetric"}); err == nil || !strings.Contains(err.Error(), "constant, reflect, edge or wrap") {
		t.Errorf("symmetric: %v", err)
	}
}
