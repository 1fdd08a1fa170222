// ArgMax (1, 11, 12, 13): "Computes the indices of the max elements of the
// input tensor's element along the provided axis ... If select_last_index
// is True (default False), the index of the last occurrence of the max is
// selected if the max appears more than once in the input. Otherwise the
// index of the first occurrence is selected. The type of the output tensor
// is integer." (argextreme.go)

package reference

func init() { registerArg("ArgMax", true) }
