package ops

import (
	"fmt"
	"sort"
	"sync"

	"github.com/onnxshape/onnxshape/internal/runenv"
	"github.com/onnxshape/onnxshape/tensor"
)

// Profile selects the rules operators follow.
type Profile int

const (
	// ProfileONNX runs operators exactly as the ONNX specification says.
	ProfileONNX Profile = iota
	// ProfileSONNX also checks the SONNX profile's restrictions and
	// constraints, and refuses what the profile leaves undefined.
	ProfileSONNX
)

// String returns the profile's name.
func (p Profile) String() string {
	if p == ProfileSONNX {
		return "sonnx"
	}
	return "onnx"
}

// DefaultMaxTensorBytes is the default cap on the storage of any one tensor
// an operator creates: 2 GiB, which also fits a 32-bit int.
const DefaultMaxTensorBytes = 1<<31 - 1

// Options are the settings of an operator: the profile, the cap on any
// one tensor's bytes and the cores. The zero value is usable: ONNX rules,
// DefaultMaxTensorBytes, every core. The plain operator functions take the
// same knobs as Option values (WithProfile, WithMaxTensorBytes,
// WithThreads, WithContext); a kernel receives them as an *Options, whose
// Context and Charge methods give it the run's context and memory budget.
type Options struct {
	// Profile selects ONNX or SONNX rules.
	Profile Profile
	// MaxTensorBytes caps the storage of any one tensor an operator creates
	// (0 means DefaultMaxTensorBytes; negative means no cap).
	MaxTensorBytes int64
	// Threads caps the cores a kernel uses (0 means all).
	Threads int

	// env is what a run hands its kernels beyond the caller's knobs: the
	// context, the storage allocator of a graph.Pool and the run's byte
	// budget. Only WithContext, Call and the model runner (through
	// internal/runenv) set it.
	env runenv.Env

	// streamFrom, when positive, replaces streamMin: tests stream small
	// outputs with it.
	streamFrom int
	// rec, when set, records the outputs a kernel allocates and the copy
	// plans it runs (see Schema.Prepare).
	rec *recorder
	// out1 is the result list of a kernel of one output under the model
	// runner (see result).
	out1 [1]tensor.Value
	// gemm is the products' account under the model runner (gemmConfig).
	gemm *gemmAccount
	// conv is the convolutions' account under the model runner
	// (convConfig).
	conv *convAccount
	// blockStages is the accounts of a fused block's expansion and
	// depthwise epilogues under the model runner (stageAccount).
	blockStages [2]*convAccount
}

// Kernel runs one node. in holds the node's inputs in order, nil for an
// optional input left out; it returns one value per node output.
type Kernel func(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error)

// Schema is one implementation of an operator: it serves every opset from
// its since-version up to the next since-version listed for the operator.
type Schema struct {
	Domain  string // "" for the default ONNX domain (ai.onnx)
	Name    string
	Since   int
	Inputs  [2]int // the least and most inputs a node may have (-1: no upper bound)
	Outputs [2]int // the least and most outputs
	Run     Kernel

	// params lists the inputs whose values, not only their types and
	// shapes, decide a data-movement operator's copy plans (Reshape's
	// shape, Slice's starts...); prepares is set for those operators
	// (see Prepare).
	params   []int
	prepares bool
}

// ErrUnsupported is wrapped by the error of Lookup for an operator, domain or
// opset version that onnxshape does not implement. It wraps the kind
// tensor.ErrUnsupported, and errors.Is treats the two (and
// onnx.ErrUnsupported) as one.
var ErrUnsupported = fmt.Errorf("%w operator", tensor.ErrUnsupported)

var registry = struct {
	sync.RWMutex
	byName map[string][]*Schema // domain/name -> schemas sorted by Since
}{byName: map[string][]*Schema{}}

func key(domain, name string) string {
	if domain == "ai.onnx" {
		domain = ""
	}
	return domain + "/" + name
}

// register adds one kernel for each since-version in versions.
func register(name string, versions []int, inputs, outputs [2]int, run Kernel) {
	registerIn("", name, versions, inputs, outputs, run)
}

// Domains other than the default one that operators register in.
const (
	domainML       = "ai.onnx.ml"
	domainTraining = "ai.onnx.preview.training"
)

// registerIn is register for an operator of domain ("" for ai.onnx).
func registerIn(domain, name string, versions []int, inputs, outputs [2]int, run Kernel) {
	registry.Lock()
	defer registry.Unlock()
	if domain == "ai.onnx" {
		domain = ""
	}
	k := key(domain, name)
	var params []int
	var prepares bool
	if domain == "" {
		params, prepares = preparable[name]
	}
	for _, v := range versions {
		registry.byName[k] = append(registry.byName[k], &Schema{Domain: domain, Name: name, Since: v, Inputs: inputs, Outputs: outputs, Run: nilSafe(opRef{name, v}, run),
			params: params, prepares: prepares})
	}
	sort.Slice(registry.byName[k], func(i, j int) bool { return registry.byName[k][i].Since < registry.byName[k][j].Since })
}

// Lookup returns the schema of operator name in domain for a model that
// imports the domain at opset version opset: the highest since-version not
// above opset.
func Lookup(domain, name string, opset int) (*Schema, error) {
	registry.RLock()
	defer registry.RUnlock()
	list := registry.byName[key(domain, name)]
	if len(list) == 0 {
		if domain != "" && domain != "ai.onnx" {
			return nil, fmt.Errorf("%w: %s of domain %q", ErrUnsupported, name, domain)
		}
		return nil, fmt.Errorf("%w: %s", ErrUnsupported, name)
	}
	for i := len(list) - 1; i >= 0; i-- {
		if list[i].Since <= opset {
			return list[i], nil
		}
	}
	return nil, fmt.Errorf("%w: %s has no version at or below opset %d (its first is %d)", ErrUnsupported, name, opset, list[0].Since)
}

// Schemas returns every registered schema, sorted by domain, name and version.
func Schemas() []Schema {
	registry.RLock()
	defer registry.RUnlock()
	var out []Schema
	for _, list := range registry.byName {
		for _, s := range list {
			out = append(out, *s)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Domain != out[j].Domain {
			return out[i].Domain < out[j].Domain
		}
		if out[i].Name != out[j].Name {
			return out[i].Name < out[j].Name
		}
		return out[i].Since < out[j].Since
	})
	return out
}
