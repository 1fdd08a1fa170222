// Package reference is onnxshape's reference engine: one plain file per
// operator, each a direct transcription of the operator's definition (the
// SONNX specification where the working group wrote one, else the ONNX
// specification), with element-by-element index arithmetic and nothing
// else: no copy plans, no threads, no assembly, no pooled storage. It is
// what a safety reviewer reads against the specification, and the oracle
// the fast kernels of package ops are tested against.
//
// # Reading an operator
//
// Each file opens with what the operator computes, the versions it covers
// and how they differ, then lists the specification's constraints with
// their ids ([C1], [R2], ... for SONNX; a short rule name for ONNX). The
// kernel checks them in that order, each violation an *ops.Error with the
// same Op, Version and Rule the fast kernel reports, computes the output
// shape, then fills the output one element at a time: for each output
// multi-index (forEachIndex in index.go) it computes the input multi-index
// the specification maps it to and copies that element (copyElement), or,
// for Resize, the weighted sum the specification defines. Outputs are fresh
// tensors, never views of the inputs, checked against the size limit
// (Options.TensorLimit and Options.Charge) before they are made; kernels
// never take storage from a run's allocator (a graph.Pool). What a kernel
// holds besides (float64 copies, sums, a gathered slice) is charged the
// same way first (chargeScratch); reductions and the softmax family read
// their inputs in place and hold nothing but their output. Loops look at
// the run's context every cancelEvery steps or so (poll, forEachGroup), so
// that a cancelled kernel stops within milliseconds.
//
// # The two engines
//
// Kernels have the signature of ops.Kernel, so the model runner (package
// graph) runs either engine on the same nodes: graph.RunOptions.Engine
// selects one, and under ops.ProfileSONNX the default is this one. The two
// agree bit for bit, outputs and refusals alike, except where the order of
// floating-point arithmetic legitimately differs: linear and cubic Resize,
// within the bound Agree states. The package's tests hold them to it on
// random nodes of every operator and in FuzzEngines, and the conformance
// tests on every ONNX node test the manifest passes.
//
// Every operator package ops registers has a kernel here, at the same
// since-versions (a test checks it): an operator added to ops adds its file
// here, registered with register.
package reference

import (
	"sync"

	"github.com/onnxshape/onnxshape/ops"
)

var kernels = struct {
	sync.RWMutex
	byName map[string]map[int]ops.Kernel // [domain/]operator -> since-version -> kernel
}{byName: map[string]map[int]ops.Kernel{}}

// register adds kernel k for operator name (default domain) at each of the
// since-versions listed: the same versions package ops registers.
func register(name string, versions []int, k ops.Kernel) {
	registerIn("", name, versions, k)
}

// registerIn is register for an operator of domain ("" for ai.onnx).
func registerIn(domain, name string, versions []int, k ops.Kernel) {
	kernels.Lock()
	defer kernels.Unlock()
	if domain != "" && domain != "ai.onnx" {
		name = domain + "." + name
	}
	if kernels.byName[name] == nil {
		kernels.byName[name] = map[int]ops.Kernel{}
	}
	for _, v := range versions {
		kernels.byName[name][v] = k
	}
}

// Kernel returns the reference kernel of operator name of domain ("" or
// "ai.onnx" for the default one) at since-version since, and whether
// there is one.
func Kernel(domain, name string, since int) (ops.Kernel, bool) {
	if domain != "" && domain != "ai.onnx" {
		name = domain + "." + name
	}
	kernels.RLock()
	defer kernels.RUnlock()
	k, ok := kernels.byName[name][since]
	return k, ok
}
