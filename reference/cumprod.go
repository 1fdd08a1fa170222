// CumProd (26): "Performs cumulative product of the input elements along
// the given axis. By default, it will do the product inclusively meaning
// the first element is copied as is. Through an exclusive attribute, this
// behavior can change to exclude the first element. It can also perform
// product in the opposite direction of the axis. For that, set reverse
// attribute to 1." axis is a tensor of one int32 or int64. Types: uint32,
// uint64, int32, int64, float16, float, double, bfloat16 (the 16-bit
// floats computed in float32); integers wrap. The kernel is CumSum's
// (cumsum.go) with products.

package reference

import "github.com/onnxshape/onnxshape/tensor"

func init() {
	register("CumProd", []int{26}, cumulativeKernel(true, func(_ int, dt tensor.DataType) bool {
		switch dt {
		case tensor.Uint32, tensor.Uint64, tensor.Int32, tensor.Int64, tensor.Float16, tensor.Float, tensor.Double, tensor.BFloat16:
			return true
		}
		return false
	}))
}
