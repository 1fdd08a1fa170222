//go:build !amd64 || purego

package elementwise

import "unsafe"

// Without the vector loops of cmp_amd64.s every span runs in Go.
const haveVecLoops = false

var (
	cmpLoops    map[string]map[CompareOp]vecLoops
	minMaxLoops map[string]vecLoops
	shiftLoops  map[string]vecLoops

	intMinMaxLoops map[string]vecLoops
	boolLogicLoops [3]vecLoops

	isNaNF32Loop, isInfF32Loop func(o, a, b unsafe.Pointer, n int)
)
