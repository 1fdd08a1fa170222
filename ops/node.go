package ops

import (
	"fmt"
	"sync/atomic"

	"github.com/onnxshape/onnxshape/tensor"
)

// AttrType is the type of an attribute value, numbered as in onnx.proto.
type AttrType int

// Attribute types, as AttributeProto.AttributeType.
const (
	AttrUndefined AttrType = 0
	AttrFloat     AttrType = 1
	AttrInt       AttrType = 2
	AttrString    AttrType = 3
	AttrTensor    AttrType = 4
	AttrGraph     AttrType = 5
	AttrFloats    AttrType = 6
	AttrInts      AttrType = 7
	AttrStrings   AttrType = 8
	AttrTensors   AttrType = 9
	AttrGraphs    AttrType = 10
	AttrSparse    AttrType = 11
	AttrSparses   AttrType = 12
	AttrTypeProto AttrType = 13 // held in Attribute.String, as ONNX writes the type: "tensor(float)"
)

var attrTypeNames = map[AttrType]string{
	AttrUndefined: "undefined", AttrFloat: "float", AttrInt: "int", AttrString: "string",
	AttrTensor: "tensor", AttrGraph: "graph", AttrFloats: "floats", AttrInts: "ints",
	AttrStrings: "strings", AttrTensors: "tensors", AttrGraphs: "graphs",
	AttrSparse: "sparse_tensor", AttrSparses: "sparse_tensors", AttrTypeProto: "type_proto",
}

// String returns the type's ONNX name: "float", "ints".
func (t AttrType) String() string {
	if s, ok := attrTypeNames[t]; ok {
		return s
	}
	return fmt.Sprintf("AttrType(%d)", int(t))
}

// Attribute is one attribute of a node. Only the field of its Type is set.
type Attribute struct {
	Type    AttrType
	Float   float32
	Int     int64
	String  string
	Tensor  *tensor.Tensor
	Floats  []float32
	Ints    []int64
	Strings []string
	// Graph is a graph-valued attribute (If's branches, Loop's, Scan's
	// and SequenceMap's body), ready to run; the model runner (package
	// graph) makes it from the model file.
	Graph *Subgraph
}

// Subgraph is the body of a control-flow operator: a graph with formal
// inputs and outputs that may also read, by name, the values of the
// graphs enclosing it. The model runner resolves those names once, at
// load, and runs the body's nodes within the run that runs the node, on
// the same engine, under the same context and caps.
type Subgraph struct {
	// Inputs and Outputs are the numbers of the body's formal inputs and
	// outputs.
	Inputs, Outputs int
	// OutputTypes is the element type each output declares (tensor.Undefined
	// when it declares none or is not a tensor): the type of a Loop's or
	// Scan's stacked output when the body never runs.
	OutputTypes []tensor.DataType
	// Run runs the body on its formal inputs (nil for an absent optional
	// value) and returns its outputs, under opt, the Options the kernel
	// received. The kernel must not read an input it passed, nor modify
	// an output it got, once Run returns. The list of outputs is valid
	// until the next Run of the body in the same run: a kernel keeps the
	// values, not the list.
	Run func(opt *Options, inputs []tensor.Value) ([]tensor.Value, error)
	// Done, when set, takes back the storage of v, a tensor a Run of the
	// body returned in the same kernel call, once the kernel reads it no
	// more, hands it on nowhere, and holds no other value sharing its
	// storage: a later Run of the body may then reuse it (a Scan's
	// state of the step before, a scan output copied to its stack). A
	// value the body did not make is left alone.
	Done func(opt *Options, v *tensor.Tensor)
}

// GraphAttr returns the graph attribute name, nil when it is absent.
func (n *Node) GraphAttr(name string) (*Subgraph, error) {
	a, _, err := n.attr(name, AttrGraph)
	return a.Graph, err
}

// Node is one operator call in a model: its operator, the version resolved
// from the model's opset imports, and its attributes.
type Node struct {
	Name    string
	OpType  string
	Domain  string
	Version int // the since-version of the operator that serves the node
	Attrs   map[string]Attribute
	// NumOutputs is the number of outputs the node declares, unused ones
	// included: Split and MaxPool produce as many as asked for.
	NumOutputs int

	// packs are the node's constant weights packed for the GEMM engine
	// (PackConstants), set once before its first run.
	packs nodePacks
	// fusion is what the node fused at load (FoldBatchNorm,
	// FuseActivation); nil: nothing.
	fusion *nodeFusion
	// conv is a convolution node's *convGeometry for the input shapes of
	// its last run, kept for the next run (an atomic.Value, not a Pointer:
	// Call takes a Node by value).
	conv atomic.Value
	// pool is a MaxPool node's *maxPoolGeometry (or, with Indices,
	// *maxPoolIndexGeometry) or an AveragePool node's *avgPoolGeometry for the input of its last run, kept for the next
	// run (as conv).
	pool atomic.Value
	// kept is what another operator keeps from its last run for the next
	// (as conv): a Resize or Upsample node's *resizeKept, a binary
	// elementwise node's *binaryKept, a unary one's *unaryKept, an Einsum
	// node's *einsumKept, a Col2Im node's *col2ImKept, an LSTM, GRU or RNN
	// node's *recurrentKept, an If or a Loop node's *graphsKept.
	kept atomic.Value
	// folds are the Transposes a MatMul folded at load (FoldTransposes);
	// nil: none.
	folds *matMulFolds
}

func (n *Node) op() opRef { return opRef{n.OpType, n.Version} }

// Has reports whether the node sets attribute name.
func (n *Node) Has(name string) bool {
	_, ok := n.Attrs[name]
	return ok
}

func (n *Node) attr(name string, want AttrType) (Attribute, bool, error) {
	a, ok := n.Attrs[name]
	if !ok {
		return a, false, nil
	}
	if a.Type != want {
		return a, false, n.op().errorf("attribute", "attribute %s is of type %v, expected %v", name, a.Type, want)
	}
	return a, true, nil
}

// Int returns the int attribute name, or def when it is absent.
func (n *Node) Int(name string, def int64) (int64, error) {
	a, ok, err := n.attr(name, AttrInt)
	if !ok {
		return def, err
	}
	return a.Int, nil
}

// Float returns the float attribute name, or def when it is absent.
func (n *Node) Float(name string, def float32) (float32, error) {
	a, ok, err := n.attr(name, AttrFloat)
	if !ok {
		return def, err
	}
	return a.Float, nil
}

// Str returns the string attribute name, or def when it is absent.
func (n *Node) Str(name, def string) (string, error) {
	a, ok, err := n.attr(name, AttrString)
	if !ok {
		return def, err
	}
	return a.String, nil
}

// Ints returns the ints attribute name; ok is false when it is absent.
func (n *Node) Ints(name string) (v []int64, ok bool, err error) {
	a, ok, err := n.attr(name, AttrInts)
	return a.Ints, ok, err
}

// Floats returns the floats attribute name; ok is false when it is absent.
func (n *Node) Floats(name string) (v []float32, ok bool, err error) {
	a, ok, err := n.attr(name, AttrFloats)
	return a.Floats, ok, err
}

// TensorAttr returns the tensor attribute name, nil when it is absent.
func (n *Node) TensorAttr(name string) (*tensor.Tensor, error) {
	a, _, err := n.attr(name, AttrTensor)
	return a.Tensor, err
}

// tensorInput returns input i as a tensor; nil when the input is absent. An
// input that is present but not a tensor is an error.
func (n *Node) tensorInput(in []tensor.Value, i int) (*tensor.Tensor, error) {
	if i >= len(in) || in[i] == nil {
		return nil, nil
	}
	t, ok := in[i].(*tensor.Tensor)
	if !ok {
		return nil, n.op().errorf("input", "input %d is %s, expected a tensor", i, in[i].Describe())
	}
	if t != nil && !t.DataType().Valid() {
		return nil, n.op().errorf("input", "input %d has no element type (a zero tensor.Tensor?)", i)
	}
	return t, nil
}

// requiredInput is tensorInput for an input the operator cannot do without.
func (n *Node) requiredInput(in []tensor.Value, i int, name string) (*tensor.Tensor, error) {
	t, err := n.tensorInput(in, i)
	if err == nil && t == nil {
		err = n.op().errorf("input", "required input %s (#%d) is missing", name, i)
	}
	return t, err
}

// result is a kernel's one output t as its result list. Under the model
// runner (o.env.Headers set) the list is o's own, reused at every node:
// the runner copies the output out before anything else runs with o, and
// the kernels that run another's (an epilogue's Add) read its result
// first too. Elsewhere (a caller running a Kernel by hand may keep the
// list) it is a new list, as values makes.
func (o *Options) result(t *tensor.Tensor) []tensor.Value {
	if o == nil || o.env.Headers == nil {
		return values(t)
	}
	o.out1[0] = t
	return o.out1[:]
}

// values wraps tensors as a Kernel's result.
func values(ts ...*tensor.Tensor) []tensor.Value {
	out := make([]tensor.Value, len(ts))
	for i, t := range ts {
		out[i] = t
	}
	return out
}
