package ops

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/onnxshape/onnxshape/tensor"
)

// exampleDepth is the input of the ONNX examples of DepthToSpace: shape
// [1, 8, 2, 3], element [0, c, h, w] = 9c + 3h + w.
func exampleDepth() *tensor.Tensor {
	v := make([]float32, 0, 48)
	for c := range 8 {
		for h := range 2 {
			for w := range 3 {
				v = append(v, float32(9*c+3*h+w))
			}
		}
	}
	return tensor.MustFromSlice(v, 1, 8, 2, 3)
}

func TestDepthToSpace(t *testing.T) {
	x := exampleDepth()
	// The ONNX examples (test_depthtospace_example, ..._crd_mode_example).
	dcr := []float32{
		0, 18, 1, 19, 2, 20,
		36, 54, 37, 55, 38, 56,
		3, 21, 4, 22, 5, 23,
		39, 57, 40, 58, 41, 59,

		9, 27, 10, 28, 11, 29,
		45, 63, 46, 64, 47, 65,
		12, 30, 13, 31, 14, 32,
		48, 66, 49, 67, 50, 68,
	}
	crd := []float32{
		0, 9, 1, 10, 2, 11,
		18, 27, 19, 28, 20, 29,
		3, 12, 4, 13, 5, 14,
		21, 30, 22, 31, 23, 32,

		36, 45, 37, 46, 38, 47,
		54, 63, 55, 64, 56, 65,
		39, 48, 40, 49, 41, 50,
		57, 66, 58, 67, 59, 68,
	}
	y, err := DepthToSpace(x, DepthToSpaceOptions{Blocksize: 2})
	checkRule(t, err, "")
	checkFloats(t, y, []int{1, 2, 4, 6}, dcr)
	y, err = DepthToSpace(x, DepthToSpaceOptions{Blocksize: 2, Mode: "CRD"})
	checkRule(t, err, "")
	checkFloats(t, y, []int{1, 2, 4, 6}, crd)

	// Through the node, every version.
	for _, c := range []struct {
		version int
		attrs   map[string]Attribute
		want    []float32
		rule    string
	}{
		{1, map[string]Attribute{"blocksize": intAttribute(2)}, dcr, ""},
		{1, map[string]Attribute{"blocksize": intAttribute(2), "mode": strAttribute("CRD")}, nil, "attribute"},
		{11, map[string]Attribute{"blocksize": intAttribute(2)}, dcr, ""},
		{11, map[string]Attribute{"blocksize": intAttribute(2), "mode": strAttribute("CRD")}, crd, ""},
		{13, map[string]Attribute{"blocksize": intAttribute(2), "mode": strAttribute("DCR")}, dcr, ""},
		{13, map[string]Attribute{"blocksize": intAttribute(2), "mode": strAttribute("RCD")}, nil, "mode"},
		{13, map[string]Attribute{"mode": strAttribute("DCR")}, nil, "blocksize"},
		{13, map[string]Attribute{"blocksize": intAttribute(0)}, nil, "blocksize"},
		{13, map[string]Attribute{"blocksize": intAttribute(-2)}, nil, "blocksize"},
		{13, map[string]Attribute{"blocksize": intAttribute(3)}, nil, "channels"},
	} {
		c0 := x.Clone()
		y, err := runNode(nil, "DepthToSpace", c.version, c.attrs, x)
		checkRule(t, err, c.rule)
		unchanged(t, x, c0)
		if err == nil {
			checkFloats(t, y, []int{1, 2, 4, 6}, c.want)
		}
	}
	_, err = DepthToSpace(iota32(4, 2, 2), DepthToSpaceOptions{Blocksize: 2})
	checkRule(t, err, "rank")
	op := opRef{"DepthToSpace", 13}
	_, err = depthToSpaceShape(op, []int{1, 4, 2, 2}, math.MaxInt, "DCR")
	checkRule(t, err, "channels")
	_, err = depthToSpaceShape(op, []int{1, 4, math.MaxInt/2 + 1, 1}, 2, "DCR")
	checkRule(t, err, "size")
}

// depthToSpaceOracle is DepthToSpace computed element by element from the
// definition: output [n, c, h*b+i, w*b+j] is input [n, ch, h, w] with
// ch = (i*b+j)*C' + c in DCR mode and c*b*b + i*b + j in CRD mode.
func depthToSpaceOracle(x *tensor.Tensor, b int, mode string) *tensor.Tensor {
	s := x.Shape()
	cOut := s[1] / (b * b)
	return oracle(x, []int{s[0], cOut, s[2] * b, s[3] * b}, func(idx []int) []int {
		n, c, h, w := idx[0], idx[1], idx[2], idx[3]
		i, j := h%b, w%b
		ch := (i*b+j)*cOut + c
		if mode == "CRD" {
			ch = c*b*b + i*b + j
		}
		return []int{n, ch, h / b, w / b}
	})
}

// SpaceToDepth then DepthToSpace in DCR mode gives back the input; both
// match the oracles, for random shapes, block sizes and types.
func TestDepthToSpaceProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, dt := range typesUnderTest {
		for range 20 {
			b := 1 + rng.IntN(3)
			in := []int{1 + rng.IntN(2), 1 + rng.IntN(3), b * (1 + rng.IntN(3)), b * (1 + rng.IntN(12))}
			x := randomValidTensor(rng, dt, in)
			c := x.Clone()
			d, err := SpaceToDepth(x, SpaceToDepthOptions{Blocksize: b})
			if err != nil {
				t.Fatal(err)
			}
			if !d.Equal(spaceToDepthOracle(x, b)) {
				t.Fatalf("%v %v b=%d: SpaceToDepth differs from the oracle", dt, in, b)
			}
			for _, mode := range []string{"DCR", "CRD"} {
				y, err := DepthToSpace(d, DepthToSpaceOptions{Blocksize: b, Mode: mode})
				if err != nil {
					t.Fatal(err)
				}
				if !y.Equal(depthToSpaceOracle(d, b, mode)) {
					t.Fatalf("%v %v b=%d: DepthToSpace %s differs from the oracle", dt, in, b, mode)
				}
				// SpaceToDepth orders the channels as DCR does; CRD
				// agrees with it only when there is one channel, or b is 1.
				if (mode == "DCR" || in[1] == 1 || b == 1) && !y.Equal(x) {
					t.Fatalf("%v %v b=%d: DepthToSpace %s of SpaceToDepth is not the input", dt, in, b, mode)
				}
			}
			unchanged(t, x, c)
		}
	}
}
