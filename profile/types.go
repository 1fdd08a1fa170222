package profile

import "github.com/onnxshape/onnxshape/tensor"

// The element types the profile names (sonnx-notes.md, "Types named by the
// profile"); bfloat16 is named by some SONNX specifications and is kept.
var profileTypes = map[tensor.DataType]bool{
	tensor.Float16: true, tensor.Float: true, tensor.Double: true, tensor.BFloat16: true,
	tensor.Int8: true, tensor.Int16: true, tensor.Int32: true, tensor.Int64: true,
	tensor.Uint8: true, tensor.Uint16: true, tensor.Uint32: true, tensor.Uint64: true,
	tensor.Bool: true, tensor.String: true,
}

// signature gives the ONNX type of each input and output of one operator
// version, as the schema writes it: a type variable ("T", "Tind": every
// place with the same variable holds the same element type) or a fixed type
// ("int64", "float"). The last input (or output) repeats when Variadic* is
// set. Rule GR3 uses it to find two inputs that must share a type and do not,
// and to know an output's type when the node cannot be run statically.
type signature struct {
	In, Out                 []string
	VariadicIn, VariadicOut bool
}

// typeAt returns the type written for input (out=false) or output i, "" when
// the signature has no such position.
func (s signature) typeAt(out bool, i int) string {
	list, variadic := s.In, s.VariadicIn
	if out {
		list, variadic = s.Out, s.VariadicOut
	}
	switch {
	case i < len(list):
		return list[i]
	case variadic && len(list) > 0:
		return list[len(list)-1]
	}
	return ""
}

// fixedTypes are the fixed types signatures use.
var fixedTypes = map[string]tensor.DataType{"int64": tensor.Int64, "int32": tensor.Int32, "float": tensor.Float}

type versionedSignature struct {
	Since int
	signature
}

func sig(since int, in []string, out ...string) versionedSignature {
	return versionedSignature{since, signature{In: in, Out: out}}
}

func ins(types ...string) []string { return types }

var signatures = map[string][]versionedSignature{
	"Reshape":       {sig(1, ins("T"), "T"), sig(5, ins("T", "int64"), "T")},
	"Flatten":       {sig(1, ins("T"), "T")},
	"Squeeze":       {sig(1, ins("T"), "T"), sig(13, ins("T", "int64"), "T")},
	"Unsqueeze":     {sig(1, ins("T"), "T"), sig(13, ins("T", "int64"), "T")},
	"Transpose":     {sig(1, ins("T"), "T")},
	"Concat":        {{1, signature{In: ins("T"), Out: ins("T"), VariadicIn: true}}},
	"Split":         {{1, signature{In: ins("T", "T"), Out: ins("T"), VariadicOut: true}}, {2, signature{In: ins("T"), Out: ins("T"), VariadicOut: true}}, {13, signature{In: ins("T", "int64"), Out: ins("T"), VariadicOut: true}}},
	"Slice":         {sig(1, ins("T"), "T"), sig(10, ins("T", "Tind", "Tind", "Tind", "Tind"), "T")},
	"Pad":           {sig(1, ins("T"), "T"), sig(11, ins("T", "int64", "T"), "T"), sig(18, ins("T", "int64", "T", "Tind"), "T")},
	"Resize":        {sig(10, ins("T", "float"), "T"), sig(11, ins("T1", "T2", "float", "int64"), "T1")},
	"Expand":        {sig(8, ins("T", "int64"), "T")},
	"MaxPool":       {sig(1, ins("T"), "T"), sig(8, ins("T"), "T", "int64")},
	"Tile":          {sig(1, ins("T", "T", "T"), "T"), sig(6, ins("T", "int64"), "T")},
	"DepthToSpace":  {sig(1, ins("T"), "T")},
	"SpaceToDepth":  {sig(1, ins("T"), "T")},
	"MaxUnpool":     {sig(9, ins("T1", "int64", "int64"), "T1")},
	"Identity":      {sig(1, ins("T"), "T")},
	"Shape":         {sig(1, ins("T"), "int64")},
	"Size":          {sig(1, ins("T"), "int64")},
	"Constant":      {sig(1, nil, "T")},
	"CenterCropPad": {sig(18, ins("T", "Tind"), "T")},
	"Upsample":      {sig(1, ins("T"), "T"), sig(9, ins("T", "float"), "T")},
}

// signatureFor returns the signature of operator op at since-version v.
func signatureFor(op string, v int) (signature, bool) {
	list := signatures[op]
	for i := len(list) - 1; i >= 0; i-- {
		if list[i].Since <= v {
			return list[i].signature, true
		}
	}
	return signature{}, false
}

// interfaceTypes are the element types a graph input, output or
// initializer may have: the profile's, and any a SONNX specification of an
// operator lists (Concat's complex64/128, Reshape's 4-bit types); each
// node then holds its values to its own specification's list.
var interfaceTypes = func() map[tensor.DataType]bool {
	m := map[tensor.DataType]bool{}
	for t := range profileTypes {
		m[t] = true
	}
	for _, s := range specs {
		for _, t := range s.Types {
			m[t] = true
		}
	}
	return m
}()
