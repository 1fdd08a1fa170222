// CumProd writes the running products of x along the axis given by its
// second input (an int32 or int64 scalar, or a 1-D tensor of one element):
// element j of the output is the product of elements 0 to j (exclusive=1:
// 0 to j-1, the first being 1), counted from the end of the axis with
// reverse=1.
//
// Versions: 26 (uint32, uint64, int32, int64, float16, float, double,
// bfloat16). Products run in index order in the element's type (integers
// wrap); float16 and bfloat16 in float32, each output rounded. The node
// reading, the rules ([type], [axis], [exclusive], [reverse]) and the
// engine are CumSum's (cumsum.go).

package ops

func init() {
	register("CumProd", []int{26}, [2]int{2, 2}, [2]int{1, 1}, cumProdOp.node)
	declareAttrs("CumProd",
		AttrSpec{Name: "exclusive", Type: AttrInt},
		AttrSpec{Name: "reverse", Type: AttrInt})
}

var cumProdOp = &cumulativeOp{types: versionTypes{26: int3264Types | floatBFTypes}, product: true}
