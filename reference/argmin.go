// ArgMin (1, 11, 12, 13): "Computes the indices of the min elements of the
// input tensor's element along the provided axis ... If select_last_index
// is True (default False), the index of the last occurrence of the min is
// selected if the min appears more than once in the input. Otherwise the
// index of the first occurrence is selected." (argextreme.go)

package reference

func init() { registerArg("ArgMin", false) }
