// Tile repeats a whole tensor along each axis: output dim k is input dim k
// times repeats[k], and the output element at index i is the input element
// at i mod the input's shape. A repeat of 0 gives an empty axis.
//
// Versions: 1 takes two more inputs, tiles and axis (one integer each), and
// repeats the tensor tiles times along that one axis (the Changelog types
// them T and constrains them to int64; we take int32 or int64 scalars or
// one-element tensors); 6 and 13 take repeats, a 1-D int64 input with one
// entry per axis, and differ only in the element types they allow. The
// rules, as ONNX states them (Tile is outside the SONNX profile):
//
//	[repeats] repeats has one entry per input axis, each >= 0
//	[axis]    (version 1) axis in [-r, r-1]; tiles >= 0
//
// The kernel is one copy plan of rank 2r: output axis k is viewed as the
// pair (repeat, input index), with source stride 0 on the repeat half.

package ops

import (
	"github.com/onnxshape/onnxshape/ops/internal/movement"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("Tile", []int{1}, [2]int{3, 3}, [2]int{1, 1}, tileNode)
	register("Tile", []int{6, 13}, [2]int{2, 2}, [2]int{1, 1}, tileNode)
}

// TileOptions are the parameters of Tile.
type TileOptions struct {
	// Repeats holds, for each axis of the input, how many copies of the
	// input to lay along it (>= 0).
	Repeats []int
}

// Tile returns input repeated o.Repeats[k] times along each axis k (ONNX
// Tile, version 13).
func Tile(input *tensor.Tensor, o TileOptions, opts ...Option) (*tensor.Tensor, error) {
	op := opRef{"Tile", 13}
	opt, err := callOptions(op, opts)
	if err != nil {
		return nil, err
	}
	return tile(opt, op, input, o.Repeats)
}

func tileNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	op := n.op()
	x, err := n.requiredInput(in, 0, "input")
	if err != nil {
		return nil, err
	}
	var repeats []int
	if n.Version < 6 {
		if repeats, err = tile1Repeats(n, in, x.Rank()); err != nil {
			return nil, err
		}
	} else if repeats, _, err = n.int64ListInput(opt, in, 1, "repeats", "repeats", true); err != nil {
		return nil, err
	}
	y, err := tile(opt, op, x, repeats)
	if err != nil {
		return nil, err
	}
	return values(y), nil
}

// tile1Repeats turns Tile-1's inputs tiles and axis into the repeats of
// later versions.
func tile1Repeats(n *Node, in []tensor.Value, rank int) ([]int, error) {
	op := n.op()
	var vals [2]int
	for i, name := range []string{"tiles", "axis"} {
		t, err := n.requiredInput(in, i+1, name)
		if err != nil {
			return nil, err
		}
		v, err := int64sOf(t)
		if err != nil || len(v) != 1 {
			return nil, op.errorf("axis", "%s must be one int64 (or int32), got %s", name, t.Describe())
		}
		if vals[i], err = toInt(v[0]); err != nil {
			return nil, op.errorf("axis", "%s: %v", name, err)
		}
	}
	tiles, axis := vals[0], vals[1]
	k, ok := normalizeAxis(int64(axis), rank)
	if !ok {
		return nil, op.errorf("axis", "axis %d is outside [%d, %d] (input rank %d)", axis, -rank, rank-1, rank)
	}
	if tiles < 0 {
		return nil, op.errorf("axis", "tiles is %d; it must be >= 0", tiles)
	}
	repeats := make([]int, rank)
	for i := range repeats {
		repeats[i] = 1
	}
	repeats[k] = tiles
	return repeats, nil
}

func tile(opt *Options, op opRef, x *tensor.Tensor, repeats []int) (*tensor.Tensor, error) {
	if err := checkInput(op, "input", x); err != nil {
		return nil, err
	}
	out, err := tileShape(op, x.Shape(), repeats)
	if err != nil {
		return nil, err
	}
	y, err := opt.orDefault().newOverwritten(op, x.DataType(), out)
	if err != nil {
		return nil, err
	}
	if err := tilePlan(x.Shape(), repeats).Run(opt.moves(), y, x); err != nil {
		return nil, op.stopped(err)
	}
	return y, nil
}

// tilePlan views output axis k as the pair of axes (repeats[k], in[k]),
// walked with source strides 0 and the input's stride for axis k.
func tilePlan(in, repeats []int) movement.Plan {
	r := len(in)
	shape := make([]int, 2*r)
	srcStrides := make([]int, 2*r)
	inStrides := movement.ContiguousStrides(in)
	for k := range in {
		shape[2*k], shape[2*k+1] = repeats[k], in[k]
		srcStrides[2*k+1] = inStrides[k]
	}
	return movement.Plan{Shape: shape, DstStrides: movement.ContiguousStrides(shape), SrcStrides: srcStrides}
}

// tileShape checks the rules and returns the output shape.
func tileShape(op opRef, in, repeats []int) ([]int, error) {
	if len(repeats) != len(in) {
		return nil, op.errorf("repeats", "repeats %v has %d entries for an input of rank %d", repeats, len(repeats), len(in))
	}
	out := make([]int, len(in))
	for k, n := range repeats {
		if n < 0 {
			return nil, op.errorf("repeats", "repeats[%d] is %d; it must be >= 0", k, n)
		}
		d, err := tensor.NumElements([]int{in[k], n})
		if err != nil {
			return nil, op.errorf("size", "axis %d: %d repeats of %d elements is more than an int can count", k, n, in[k])
		}
		out[k] = d
	}
	return out, nil
}
