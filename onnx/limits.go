package onnx

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"sync"

	"github.com/onnxshape/onnxshape/internal/safefile"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"

	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/tensor"
)

// DefaultMaxModelBytes is the default of Limits.MaxModelBytes: the largest
// message protobuf itself can encode.
const DefaultMaxModelBytes = 1<<31 - 1

// DefaultMaxTensorBytes is the default of Limits.MaxTensorBytes, the same
// as the operators' default cap on one tensor (ops.DefaultMaxTensorBytes).
const DefaultMaxTensorBytes = 1<<31 - 1

// Limits bound what reading a model may allocate, so that no file can
// exhaust memory: every figure is checked before the allocation it bounds.
// The zero value gives the defaults; a nil *Limits too.
type Limits struct {
	// MaxModelBytes caps, each on its own: the size of the model file, the
	// memory that decoding its protobuf takes (estimated from the encoded
	// bytes before decoding, so that a file of millions of empty entries,
	// each a few bytes that decode to a few hundred, is refused first), and
	// the storage of all its tensors together (initializers and tensor
	// attributes, external data included). 0 means DefaultMaxModelBytes;
	// negative means no cap.
	MaxModelBytes int64
	// MaxTensorBytes caps the storage of any one tensor of the model,
	// checked from its dims before its data is read (0 means
	// DefaultMaxTensorBytes; negative means no cap).
	MaxTensorBytes int64
}

// modelCap is l.MaxModelBytes with its default filled in.
func (l *Limits) modelCap() int64 {
	if l == nil {
		return DefaultMaxModelBytes
	}
	return capOf(l.MaxModelBytes, DefaultMaxModelBytes)
}

// tensorCap is l.MaxTensorBytes with its default filled in.
func (l *Limits) tensorCap() int64 {
	if l == nil {
		return DefaultMaxTensorBytes
	}
	return capOf(l.MaxTensorBytes, DefaultMaxTensorBytes)
}

// capOf reads a cap field: 0 for the default, negative for none.
func capOf(v, def int64) int64 {
	switch {
	case v == 0:
		return def
	case v < 0:
		return math.MaxInt64
	}
	return v
}

// ReadModelWith reads and decodes the model file at path within l: the
// path must be a regular file no larger than l's MaxModelBytes, and is
// then decoded as DecodeModelWith does.
func ReadModelWith(path string, l *Limits) (*pb.ModelProto, error) {
	b, err := safefile.Read(path, l.modelCap())
	if err != nil {
		return nil, err // names the path
	}
	m, err := DecodeModelWith(b, l)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}

// DecodeModelWith parses a serialized ModelProto within l. Before decoding,
// one pass over the encoded bytes estimates the memory the decoded message
// takes and refuses it above l's MaxModelBytes; after decoding, the
// storage each tensor of the model declares (its dims times its element
// size, for external data too) is checked against MaxTensorBytes, and
// their sum against MaxModelBytes, before any tensor's data is read.
func DecodeModelWith(b []byte, l *Limits) (*pb.ModelProto, error) {
	budget := l.modelCap()
	if int64(len(b)) > budget {
		return nil, fmt.Errorf("onnx: %w: the model has %d bytes, above the limit of %d", ErrTooLarge, len(b), budget)
	}
	md := (&pb.ModelProto{}).ProtoReflect().Descriptor()
	if _, err := estimateDecoded(b, md, budget); err != nil {
		if errors.Is(err, ErrTooLarge) {
			return nil, fmt.Errorf("onnx: %w", err)
		}
		return nil, fmt.Errorf("onnx: not a valid model: %w", err)
	}
	m, err := decodeModel(b)
	if err != nil {
		return nil, err
	}
	if err := checkTensorSizes(m, l); err != nil {
		return nil, fmt.Errorf("onnx: %w", err)
	}
	return m, nil
}

// maxDepth is protobuf's own limit on the nesting of messages.
const maxDepth = 10000

// errOverBudget is decodedSize's refusal from inside a nested message,
// whose budget is what its parents left: estimateDecoded names the whole
// budget instead.
var errOverBudget = errors.New("over budget")

// estimateDecoded is decodedSize of a whole message: the error, wrapping
// ErrTooLarge, names budget itself, not what a nested message had left.
func estimateDecoded(b []byte, md protoreflect.MessageDescriptor, budget int64) (int64, error) {
	size, err := decodedSize(b, md, budget, 0)
	if errors.Is(err, errOverBudget) {
		return 0, fmt.Errorf("%w: decoding would take more than the limit of %d bytes (the file holds too many entries for its size)", ErrTooLarge, budget)
	}
	return size, err
}

// messageCost is what one decoded message of type md costs beyond its
// fields: its Go struct, once more for what the loader and the checkers
// build per message (a node's step, its attribute table, its place in
// the maps of names), and the allocator's rounding. A file of millions of
// empty messages, two bytes each, is refused from this alone.
func messageCost(md protoreflect.MessageDescriptor) int64 {
	return 2*structSize(md) + 16
}

// decodedSize estimates the bytes proto.Unmarshal allocates to decode b as
// a message of type md: the cost of each message (messageCost), a slice slot per
// repeated entry (twice, for the slack append leaves), the Go size of each
// packed number (their slice is allocated to length) and the length of
// each string, bytes and unknown field. It stops with an error as soon as
// the estimate passes budget, and on bytes that are not protobuf (which
// Unmarshal would refuse too).
func decodedSize(b []byte, md protoreflect.MessageDescriptor, budget int64, depth int) (int64, error) {
	if depth > maxDepth {
		return 0, fmt.Errorf("messages nest deeper than %d", maxDepth)
	}
	size := messageCost(md)
	fields := md.Fields()
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return 0, protowire.ParseError(n)
		}
		b = b[n:]
		fd := fields.ByNumber(num)
		var cost int64
		if typ == protowire.BytesType {
			v, m := protowire.ConsumeBytes(b)
			if m < 0 {
				return 0, protowire.ParseError(m)
			}
			b = b[m:]
			switch {
			case fd == nil:
				cost = int64(len(v)) + 24 // kept as unknown bytes
			case fd.Kind() == protoreflect.MessageKind:
				inner, err := decodedSize(v, fd.Message(), budget-size, depth+1)
				if err != nil {
					return 0, err
				}
				cost = inner + slot(fd, 8)
			case fd.Kind() == protoreflect.StringKind || fd.Kind() == protoreflect.BytesKind:
				cost = int64(len(v)) + slot(fd, 24)
			default: // packed numbers, in a slice of the exact length
				count := int64(0)
				if w := fixedWidth(fd.Kind()); w > 0 {
					count = int64(len(v) / w)
				} else {
					for _, c := range v { // a varint ends on a byte below 0x80
						if c < 0x80 {
							count++
						}
					}
				}
				cost = count * goSize(fd.Kind())
			}
		} else {
			m := protowire.ConsumeFieldValue(num, typ, b)
			if m < 0 {
				return 0, protowire.ParseError(m)
			}
			b = b[m:]
			switch {
			case fd == nil:
				cost = int64(m) + 24
			case fd.IsList():
				cost = slot(fd, goSize(fd.Kind()))
			default: // optional scalars are pointers to their value
				cost = 8
			}
		}
		size += cost
		if size > budget {
			return 0, errOverBudget
		}
	}
	return size, nil
}

// slot is the cost of one entry of fd's slice, when fd is repeated: twice
// the element, for the capacity append leaves; a singular field costs
// nothing beyond its value.
func slot(fd protoreflect.FieldDescriptor, elem int64) int64 {
	if fd != nil && fd.IsList() {
		return 2 * elem
	}
	return 0
}

// fixedWidth is the encoded width of the fixed-size number kinds; 0 for
// varints.
func fixedWidth(k protoreflect.Kind) int {
	switch k {
	case protoreflect.FloatKind, protoreflect.Fixed32Kind, protoreflect.Sfixed32Kind:
		return 4
	case protoreflect.DoubleKind, protoreflect.Fixed64Kind, protoreflect.Sfixed64Kind:
		return 8
	}
	return 0
}

// goSize is the size of a number of kind k in Go.
func goSize(k protoreflect.Kind) int64 {
	switch k {
	case protoreflect.BoolKind:
		return 1
	case protoreflect.Int64Kind, protoreflect.Uint64Kind, protoreflect.Sint64Kind,
		protoreflect.Fixed64Kind, protoreflect.Sfixed64Kind, protoreflect.DoubleKind:
		return 8
	}
	return 4
}

var structSizes sync.Map // protoreflect.FullName -> int64

// structSize is the size of the Go struct of message md, as generated in
// package pb.
func structSize(md protoreflect.MessageDescriptor) int64 {
	if v, ok := structSizes.Load(md.FullName()); ok {
		return v.(int64)
	}
	size := int64(256) // a guess for a type that is not registered
	if mt, err := protoregistry.GlobalTypes.FindMessageByName(md.FullName()); err == nil {
		size = int64(reflect.TypeOf(mt.Zero().Interface()).Elem().Size())
	}
	structSizes.Store(md.FullName(), size)
	return size
}

// checkTensorSizes checks the storage every tensor of m declares (the
// initializers and sparse initializers of its graph, and the tensor
// attributes of its nodes, subgraphs included) against l, from dims and
// data type alone: no data is read, external or not. A tensor larger than
// MaxTensorBytes, or tensors larger than MaxModelBytes together, are an
// error wrapping ErrTooLarge that names the first one past the cap.
func checkTensorSizes(m *pb.ModelProto, l *Limits) error {
	c := sizeCheck{perTensor: l.tensorCap(), total: l.modelCap()}
	return c.graph(m.GetGraph(), 0)
}

type sizeCheck struct {
	perTensor, total, sum int64
}

func (c *sizeCheck) graph(g *pb.GraphProto, depth int) error {
	if g == nil {
		return nil
	}
	if depth > maxDepth {
		return errors.New("graphs nest too deep")
	}
	for _, tp := range g.GetInitializer() {
		if err := c.tensor("initializer", tp); err != nil {
			return err
		}
	}
	for _, sp := range g.GetSparseInitializer() {
		if err := c.sparse("sparse initializer", sp); err != nil {
			return err
		}
	}
	for i, np := range g.GetNode() {
		for _, ap := range np.GetAttribute() {
			what := fmt.Sprintf("attribute %s of node #%d (%s)", ap.GetName(), i, np.GetOpType())
			if ap.T != nil {
				if err := c.tensor(what, ap.T); err != nil {
					return err
				}
			}
			for _, tp := range ap.GetTensors() {
				if err := c.tensor(what, tp); err != nil {
					return err
				}
			}
			if ap.SparseTensor != nil {
				if err := c.sparse(what, ap.SparseTensor); err != nil {
					return err
				}
			}
			for _, sp := range ap.GetSparseTensors() {
				if err := c.sparse(what, sp); err != nil {
					return err
				}
			}
			if err := c.graph(ap.G, depth+1); err != nil {
				return err
			}
			for _, sg := range ap.GetGraphs() {
				if err := c.graph(sg, depth+1); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// value adds the tensors of a TensorProto, SequenceProto or OptionalProto.
func (c *sizeCheck) value(m proto.Message) error {
	switch m := m.(type) {
	case *pb.TensorProto:
		return c.tensor("tensor", m)
	case *pb.SequenceProto:
		for i, tp := range m.GetTensorValues() {
			if err := c.tensor(fmt.Sprintf("item %d", i), tp); err != nil {
				return err
			}
		}
		for _, sp := range m.GetSequenceValues() {
			if err := c.value(sp); err != nil {
				return err
			}
		}
		for _, op := range m.GetOptionalValues() {
			if err := c.value(op); err != nil {
				return err
			}
		}
		for _, mp := range m.GetMapValues() {
			if err := c.value(mp); err != nil {
				return err
			}
		}
	case *pb.MapProto:
		if m.Values != nil {
			return c.value(m.Values)
		}
	case *pb.OptionalProto:
		if m.TensorValue != nil {
			return c.tensor("tensor", m.TensorValue)
		}
		if m.SequenceValue != nil {
			return c.value(m.SequenceValue)
		}
	}
	return nil
}

func (c *sizeCheck) sparse(what string, sp *pb.SparseTensorProto) error {
	if err := c.tensor(what+" values", sp.GetValues()); err != nil {
		return err
	}
	return c.tensor(what+" indices", sp.GetIndices())
}

// tensor adds the storage tp declares. Dims or types that TensorFromProto
// would refuse are left to it: they cost nothing here.
func (c *sizeCheck) tensor(what string, tp *pb.TensorProto) error {
	if tp == nil {
		return nil
	}
	dt := tensor.DataType(tp.GetDataType())
	shape, err := shapeFromDims(tp.GetDims())
	if !dt.Valid() || err != nil {
		return nil
	}
	// Counted in int64 whatever the platform's int: a 3 GiB tensor is
	// "above the limit" on 32-bit too, not an int overflow.
	size, ok := declaredBytes(dt, tp.GetDims())
	if !ok {
		return fmt.Errorf("%w: %s %q (%v of %v) takes more than 2^63 bytes", ErrTooLarge, what, tp.GetName(), dt, shape)
	}
	if dt == tensor.String {
		for _, s := range tp.GetStringData() {
			size += int64(len(s))
		}
	}
	if size > c.perTensor {
		return fmt.Errorf("%w: %s %q (%v of %v) takes %d bytes, above the limit of %d bytes for a tensor",
			ErrTooLarge, what, tp.GetName(), dt, shape, size, c.perTensor)
	}
	c.sum += size
	if c.sum > c.total {
		return fmt.Errorf("%w: with %s %q the model's tensors take %d bytes, above the limit of %d",
			ErrTooLarge, what, tp.GetName(), c.sum, c.total)
	}
	return nil
}

// declaredBytes is the storage a tensor of type dt and dims takes (16 bytes
// a string header for strings), in int64; ok is false past 2^63.
func declaredBytes(dt tensor.DataType, dims []int64) (int64, bool) {
	per := int64(dt.Size())
	if dt == tensor.String {
		per = 16
	}
	n := int64(1)
	for _, d := range dims {
		if d == 0 {
			return 0, true
		}
	}
	for _, d := range dims {
		if d < 0 || n > math.MaxInt64/d {
			return 0, false
		}
		n *= d
	}
	if per > 0 && n > math.MaxInt64/per {
		return 0, false
	}
	return n * per, true
}
