package ops

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/onnxshape/onnxshape/tensor"
)

func TestTile(t *testing.T) {
	cases := []struct {
		name    string
		in      []int
		repeats []int
		want    []int
		rule    string
	}{
		{name: "precomputed", in: []int{2, 2}, repeats: []int{2, 2}, want: []int{4, 4}},
		{name: "node test shape", in: []int{2, 3, 4, 5}, repeats: []int{7, 6, 4, 2}, want: []int{14, 18, 16, 10}},
		{name: "last axis", in: []int{2, 3}, repeats: []int{1, 3}, want: []int{2, 9}},
		{name: "first axis", in: []int{2, 3}, repeats: []int{3, 1}, want: []int{6, 3}},
		{name: "column broadcast", in: []int{3, 1}, repeats: []int{1, 5}, want: []int{3, 5}},
		{name: "zero repeats", in: []int{2, 3}, repeats: []int{0, 2}, want: []int{0, 6}},
		{name: "zero-sized input", in: []int{0, 3}, repeats: []int{4, 2}, want: []int{0, 6}},
		{name: "scalar", in: []int{}, repeats: []int{}, want: []int{}},
		{name: "too few repeats", in: []int{2, 3}, repeats: []int{2}, rule: "repeats"},
		{name: "too many repeats", in: []int{2}, repeats: []int{2, 2}, rule: "repeats"},
		{name: "negative repeat", in: []int{2, 3}, repeats: []int{1, -1}, rule: "repeats"},
		{name: "overflow", in: []int{math.MaxInt / 4}, repeats: []int{math.MaxInt / 4}, rule: "size"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.rule != "" {
				_, err := tileShape(opRef{"Tile", 13}, c.in, c.repeats)
				checkRule(t, err, c.rule)
				return
			}
			x := iota32(c.in...)
			c0 := x.Clone()
			y, err := runNode(nil, "Tile", 13, nil, x, i64s(toInt64s(c.repeats)...))
			checkRule(t, err, "")
			unchanged(t, x, c0)
			if !tensor.SameShape(y.Shape(), c.want) || !y.Equal(tileOracle(x, c.want)) {
				t.Fatalf("got %v %v", y.Shape(), mustFloats(y))
			}
		})
	}
	y, err := Tile(tensor.MustFromSlice([]float32{0, 1, 2, 3}, 2, 2), TileOptions{Repeats: []int{2, 2}})
	checkRule(t, err, "")
	checkFloats(t, y, []int{4, 4}, []float32{0, 1, 0, 1, 2, 3, 2, 3, 0, 1, 0, 1, 2, 3, 2, 3})

	_, err = runNode(nil, "Tile", 6, nil, iota32(2), tensor.MustFromSlice([]int32{2}))
	checkRule(t, err, "repeats")
	_, err = runNode(&Options{MaxTensorBytes: 1000}, "Tile", 13, nil, iota32(10, 10), i64s(2, 2))
	checkRule(t, err, "size")
}

// Tile-1 takes tiles and axis as inputs and repeats along that one axis.
func TestTileVersion1(t *testing.T) {
	x := tensor.MustFromSlice([]float32{1, 2, 3, 4, 5, 6}, 2, 3)
	cases := []struct {
		name        string
		tiles, axis *tensor.Tensor
		shape       []int
		want        []float32
		rule        string
	}{
		{"axis 0", tensor.Scalar(int64(2)), tensor.Scalar(int64(0)), []int{4, 3}, []float32{1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6}, ""},
		{"axis 1", i64s(2), i64s(1), []int{2, 6}, []float32{1, 2, 3, 1, 2, 3, 4, 5, 6, 4, 5, 6}, ""},
		{"axis -1, int32", tensor.Scalar(int32(3)), tensor.Scalar(int32(-1)), []int{2, 9}, []float32{1, 2, 3, 1, 2, 3, 1, 2, 3, 4, 5, 6, 4, 5, 6, 4, 5, 6}, ""},
		{"zero tiles", tensor.Scalar(int64(0)), tensor.Scalar(int64(1)), []int{2, 0}, []float32{}, ""},
		{"axis out of range", tensor.Scalar(int64(2)), tensor.Scalar(int64(2)), nil, nil, "axis"},
		{"negative tiles", tensor.Scalar(int64(-1)), tensor.Scalar(int64(0)), nil, nil, "axis"},
		{"two tiles", i64s(2, 2), tensor.Scalar(int64(0)), nil, nil, "axis"},
		{"float tiles", tensor.Scalar(float32(2)), tensor.Scalar(int64(0)), nil, nil, "axis"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			y, err := runNode(nil, "Tile", 1, nil, x, c.tiles, c.axis)
			checkRule(t, err, c.rule)
			if err == nil {
				checkFloats(t, y, c.shape, c.want)
			}
		})
	}
	_, err := runNode(nil, "Tile", 1, nil, x, tensor.Scalar(int64(2)))
	checkRule(t, err, "input")
}

// tileOracle is Tile computed element by element: output index i reads
// input index i mod the input's shape.
func tileOracle(x *tensor.Tensor, out []int) *tensor.Tensor {
	return oracle(x, out, func(idx []int) []int {
		src := make([]int, len(idx))
		for k := range idx {
			src[k] = idx[k] % x.Shape()[k]
		}
		return src
	})
}

func TestTileProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for _, dt := range typesUnderTest {
		for range 20 {
			in := randomShape(rng, rng.IntN(5), 0, 4)
			repeats := randomShape(rng, len(in), 0, 3)
			x := randomValidTensor(rng, dt, in)
			c := x.Clone()
			y, err := Tile(x, TileOptions{Repeats: repeats})
			if err != nil {
				t.Fatal(err)
			}
			if !y.Equal(tileOracle(x, y.Shape())) {
				t.Fatalf("%v %v repeats %v: differs from the oracle", dt, in, repeats)
			}
			unchanged(t, x, c)
		}
	}
}
