// Package graph loads an ONNX model, checks it and runs its nodes in order
// with the kernels of package ops. It joins the file format (package onnx)
// to the operators (package ops): neither knows of the other.
//
// A Model is checked once, at Load: every node's operator and version are
// resolved from the model's opset imports, its arity is checked, the nodes
// are sorted so that each runs after the nodes it reads from, and the
// initializers are decoded. Run then only looks values up by slot number,
// so one Model serves many goroutines at once.
//
// A run holds a value only until the last node that reads it: the peak of
// the bytes it holds, not their total, is what RunOptions.MaxRunBytes caps
// and what Model.MemoryPlan reports. With a Pool, storage let go is reused
// by the next nodes and runs, and the outputs stay the caller's until
// Pool.Release.
//
// Every error of Load and Run is of one kind a caller tests with errors.Is
// or errors.As: invalid model, invalid input (an *InputError naming the
// input), unsupported, limit, cancelled, refused by an operator, internal.
// The table is in the documentation of ErrInvalidModel.
package graph

import (
	"errors"
	"sync"
	"sync/atomic"

	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// Model is a loaded and checked ONNX model. It is immutable after Load: Run
// is safe from many goroutines at once.
type Model struct {
	proto   *pb.ModelProto
	baseDir string      // the folder of external tensor data
	inputs  []ValueInfo // graph inputs the caller must give
	outputs []ValueInfo

	numSlots   int
	inputSlots map[string]int // every graph input, overridable initializers included
	inputTypes map[string]*pb.TypeProto
	consts     []slotValue    // initializers, stored in their slots before each run
	outSlots   []int          // slot of each graph output, in order
	outNames   []string       // name of each graph output, in order
	outIndex   map[string]int // position of each name in outNames
	steps      []step         // the nodes in an order that runs producers first
	declared   declaredTypes

	// fixed holds the storage of the initializers and of the nodes'
	// tensor attributes: the model's, never charged to a run or released.
	fixed map[storageKey]struct{}
	// numIns is the total of the steps' input counts: the length of a
	// run's arena of input lists.
	numIns int
	// maxOuts is the most outputs a step has.
	maxOuts int
	// bodies are the model's subgraphs, compiled (see subgraph.go).
	bodies []*body
	// packed is the bytes of the weights packed at load (ops.PackConstants, ops/gemm.go).
	packed int64
	// fusions is the number of nodes absorbed at load (fuse.go).
	fusions int
	// shapes caches the values computed from the inputs' dims alone
	// (shapecache.go); nil: none, or LoadOptions.NoFuse.
	shapes *shapePlan
	// runs recycles the state of finished runs, so that a warm run
	// allocates little beyond what its kernels create.
	runs sync.Pool
	// idle is the state of the last finished run, kept for the next one
	// outside runs, which the garbage collector empties: a model run in a
	// loop then reuses its headers and spares run after run, however much
	// else the program allocates. Concurrent runs take their states from
	// runs.
	idle atomic.Pointer[runState]
	// poolID names the model in the Pools it runs with (Pool.headers),
	// set at load from nextPoolID.
	poolID uint64

	// missing collects the unsupported nodes while the model loads;
	// unsupported is their error when LoadOptions.AllowUnsupported kept
	// the model (Run refuses it), nil otherwise.
	missing     unsupportedSet
	unsupported *UnsupportedError

	// valueSlots are the slots of the values of the model's graph by
	// name; selected keeps the runs' selections (RunOptions.Outputs).
	valueSlots map[string]int
	selected   selections
}

// ValueInfo names one input or output of a model and its declared type.
type ValueInfo struct {
	Name string
	// Type is the declared type; its Kind is KindUnknown when the model
	// declares none.
	Type Type

	proto *pb.TypeProto // the declaration as the file holds it
}

// newValueInfo returns the ValueInfo of a value named name declared with t
// (nil: no type).
func newValueInfo(name string, t *pb.TypeProto) ValueInfo {
	return ValueInfo{Name: name, Type: typeFromProto(t), proto: t}
}

// Describe returns the declared type, e.g. "tensor(float)[1,3,H,W]".
func (v ValueInfo) Describe() string { return v.Type.String() }

// TypeProto returns the declared type as the model file holds it (nil when
// it declares none), for callers who work with the ONNX format itself,
// such as onnx.DecodeValue. Type is the same in plain Go.
func (v ValueInfo) TypeProto() *pb.TypeProto { return v.proto }

type slotValue struct {
	slot  int
	value tensor.Value
}

// step is one node, ready to run: its kernel, its attributes and where its
// inputs and outputs live.
type step struct {
	index  int // position in the model file, for errors
	node   *ops.Node
	schema *ops.Schema
	in     []int // slot of each input; -1 for an absent optional input
	// implicit lists the slots the step's subgraphs read by name from the
	// graph the step is in or from those enclosing it.
	implicit []int
	out      []int // slot of each output; -1 for an unused output
	// inAt is where the step's input list starts in a run's arena.
	inAt int
	// release lists the slots this step reads (or writes) last: the run
	// lets their values go right after it. Graph inputs, initializers and
	// graph outputs are never listed.
	release []int

	reference ops.Kernel // the reference engine's kernel; nil when it has none
	// prepared is the node bound to the shapes of its last fast run's
	// inputs (see ops.Prepared), shared by the runs of the model.
	prepared *atomic.Pointer[ops.Prepared]
	// passThrough marks a node absorbed by load-time fusion (fuse.go): in
	// a run that fuses, its output is its input passIn (0 but for an Add
	// folded into the producer of its second input).
	passThrough bool
	passIn      int
	// passShared marks a passThrough step whose input other steps read
	// too (a Pad folded into its Conv, fuse.go): the input keeps its
	// header, which no absorbed step may take with it.
	passShared bool
	// into is, for a step absorbed by load-time fusion (passThrough, or a
	// chain's step other than its sink), the step that runs it in a run
	// that fuses; nil: none. Only NodeTimes reads it.
	into *step
	// residual is, for a Conv or MatMul that fused the Add after it (fuse.go), 1 +
	// the slot of the Add's other input, which a run that fuses passes to
	// the product after its own inputs (ops.ResidualInput); 0: none.
	residual int
	// chain is the step's part in an elementwise chain fused at load
	// (fusetransformer.go); nil: none.
	chain *chainFusion
	// constant is the tensor of a Constant node that the fast engine
	// stores without running the kernel (constants.go); nil for others.
	constant *tensor.Tensor
	// headerAt lists, per output, the slot where a run that fuses leaves
	// the output's header: the output of the last of the absorbed steps
	// that pass it on (passInput), -1 when none does; nil: no output is
	// passed on. The step's kernel gets it back from there (lendHeaders).
	headerAt []int
	// branches marks an If, whose outputs are its branch's own: their
	// headers pass between the step's slots and the branch's (see
	// body.heirs) rather than being lent to its kernel.
	branches bool
}

// Inputs returns the inputs Run needs, in the model's order. Initializers
// the model also lists as inputs are left out: Run accepts them as
// overrides but does not need them.
func (m *Model) Inputs() []ValueInfo {
	if m == nil {
		return nil
	}
	return append([]ValueInfo{}, m.inputs...)
}

// Outputs returns the model's outputs, in order.
func (m *Model) Outputs() []ValueInfo {
	if m == nil {
		return nil
	}
	return append([]ValueInfo{}, m.outputs...)
}

// Proto returns the model as decoded. It must not be modified.
func (m *Model) Proto() *pb.ModelProto {
	if m == nil {
		return nil
	}
	return m.proto
}

// BaseDir returns the folder the model's external tensor data is read
// from: the model file's folder for Load, the caller's for LoadBytes and
// FromProto ("" for a nil Model).
func (m *Model) BaseDir() string {
	if m == nil {
		return ""
	}
	return m.baseDir
}

// errNotLoaded is Run's error for a nil or zero Model.
// nextPoolID numbers the models loaded (Model.poolID).
var nextPoolID atomic.Uint64

var errNotLoaded error = &kindError{errors.New("the model is not loaded: use graph.Load"), ErrInvalidModel}
