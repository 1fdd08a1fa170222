// Package reference is onnxshape's reference engine: one plain file per
// operator, each a direct transcription of the operator's definition (the
// SONNX specification where the working group wrote one, else the ONNX
// specification), with element-by-element index arithmetic and nothing
// else: no copy plans, no threads, no assembly, no pooled storage. It is
// what a safety reviewer reads against the specification, and the oracle
// the fast kernels of package ops are tested against.
//
// Kernels have the signature of ops.Kernel, so the model runner (package
// graph) runs either engine on the same nodes.
package reference

import (
	"sync"

	"github.com/onnxshape/onnxshape/ops"
)

var kernels = struct {
	sync.RWMutex
	byName map[string]map[int]ops.Kernel // operator -> since-version -> kernel
}{byName: map[string]map[int]ops.Kernel{}}

// register adds kernel k for operator name (default domain) at each of the
// since-versions listed: the same versions package ops registers.
func register(name string, versions []int, k ops.Kernel) {
	kernels.Lock()
	defer kernels.Unlock()
	if kernels.byName[name] == nil {
		kernels.byName[name] = map[int]ops.Kernel{}
	}
	for _, v := range versions {
		kernels.byName[name][v] = k
	}
}

// Kernel returns the reference kernel of operator name (default domain) at
// since-version since, and whether there is one.
func Kernel(domain, name string, since int) (ops.Kernel, bool) {
	if domain != "" && domain != "ai.onnx" {
		return nil, false
	}
	kernels.RLock()
	defer kernels.RUnlock()
	k, ok := kernels.byName[name][since]
	return k, ok
}
