package profile

import (
	"fmt"
	"strings"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// What each SONNX specification of an operator onnxshape implements fixes
// on its own: the ONNX version it is based on, and its list of element
// types. Sources: the working group's informal specifications
// (github.com/onnx/working-groups, safety-related-profile/sonnx/ops/spec/
// informal/<op>/<op>.md: their "Contents" list the types, "Based on ONNX
// ..." the version) and the working group's later revisions of Concat and
// Unsqueeze, which win where they disagree (docs/sonnx.md lists the
// differences).

// opSpec is what one SONNX specification fixes.
type opSpec struct {
	// Version is the since-version the specification is based on; 0 when
	// it names none (Constant).
	Version int
	// Types are the element types the specification lists for the data
	// input(s) and the output.
	Types []tensor.DataType
	// TypeRule is the id a type outside Types is reported under: the
	// specification's own where it has one, else TYPES.
	TypeRule string
	// DataInputs are the inputs whose element type Types restricts: the
	// first, or every input (-1).
	DataInputs int
}

var (
	floats   = []tensor.DataType{tensor.Float16, tensor.Float, tensor.Double}
	signed   = []tensor.DataType{tensor.Int8, tensor.Int16, tensor.Int32, tensor.Int64}
	unsigned = []tensor.DataType{tensor.Uint8, tensor.Uint16, tensor.Uint32, tensor.Uint64}
	textBool = []tensor.DataType{tensor.Bool, tensor.String}
	sub4     = []tensor.DataType{tensor.Int2, tensor.Int4, tensor.Uint2, tensor.Uint4}
)

func typeList(groups ...[]tensor.DataType) []tensor.DataType {
	var l []tensor.DataType
	for _, g := range groups {
		l = append(l, g...)
	}
	return l
}

// specs are the SONNX specifications of operators onnxshape implements.
var specs = map[string]opSpec{
	// sonnx-unsqueeze.md: "Based on ONNX Unsqueeze version 25"; no bfloat16.
	"Unsqueeze": {Version: 25, Types: typeList(floats, signed, unsigned, textBool), TypeRule: ruleTypes},
	// sonnx-concat.md: "(Version 13)"; its [R1] lists complex64/128 too.
	"Concat": {Version: 13, Types: typeList([]tensor.DataType{tensor.BFloat16, tensor.Complex64, tensor.Complex128}, floats, signed, unsigned, textBool),
		TypeRule: "R1", DataInputs: -1},
	// reshape.md: "Based on ONNX Op version 25"; 2- and 4-bit types, no bfloat16.
	"Reshape": {Version: 25, Types: typeList(floats, signed, unsigned, textBool, sub4), TypeRule: ruleTypes},
	// flatten.md: "Flatten version 25"; numbers only.
	"Flatten": {Version: 25, Types: typeList(floats, signed, unsigned), TypeRule: ruleTypes},
	// slice.md: "Based on ONNX documentation version 13".
	"Slice": {Version: 13, Types: typeList(floats, []tensor.DataType{tensor.BFloat16}, signed, unsigned, textBool), TypeRule: ruleTypes},
	// maxpool.md: "Based on ONNX MaxPool version 22".
	"MaxPool": {Version: 22, Types: typeList(floats, []tensor.DataType{tensor.Int8, tensor.Uint8}), TypeRule: ruleTypes},
	// shape.md: "Based on ONNX documentation version 25".
	"Shape": {Version: 25, Types: typeList(floats, []tensor.DataType{tensor.BFloat16}, signed, unsigned, textBool, sub4), TypeRule: ruleTypes},
	// constant.md names no version; real types only.
	"Constant": {Types: typeList(floats, signed, unsigned), TypeRule: ruleTypes},
}

// checkVersion is VERSION: an operator the profile specifies is used at
// the version its specification is based on.
func (c *checker) checkVersion(nc *nodeCheck) {
	s, ok := specs[nc.op()]
	if !ok || s.Version == 0 || nc.version == s.Version {
		return
	}
	nc.finding(ruleVersion, fmt.Sprintf("%s-%d is not the version the SONNX specification of %s is based on (%s-%d)", nc.op(), nc.version, nc.op(), nc.op(), s.Version),
		fmt.Sprintf("import the default domain at %s, where %s resolves to %s-%d", opsetRange(nc.op(), s.Version), nc.op(), nc.op(), s.Version))
}

// opsetRange names the opsets at which op resolves to since-version v:
// "opset 13 or later", "opset 11 or 12".
func opsetRange(op string, v int) string {
	next := 0
	for _, s := range ops.Schemas() {
		if s.Domain == "" && s.Name == op && s.Since > v && (next == 0 || s.Since < next) {
			next = s.Since
		}
	}
	switch {
	case next == 0:
		return fmt.Sprintf("opset %d or later", v)
	case next == v+1:
		return fmt.Sprintf("opset %d", v)
	}
	return fmt.Sprintf("an opset from %d to %d", v, next-1)
}

// checkSpecTypes is the type list of the node's specification: its data
// inputs and its outputs have a type the specification lists.
func (c *checker) checkSpecTypes(nc *nodeCheck, outs []*known) {
	s, ok := specs[nc.op()]
	if !ok {
		return
	}
	check := func(what string, i int, name string, k *known) {
		if k == nil || k.kind != tensorKind || k.dtype == tensor.Undefined || hasType(s.Types, k.dtype) {
			return
		}
		nc.finding(s.TypeRule, fmt.Sprintf("%s %d (%q) is %v, which the SONNX specification of %s does not list (%s)", what, i, name, k.dtype, nc.op(), typeNames(s.Types)),
			fmt.Sprintf("give %s a tensor of one of the listed types", nc.op()))
	}
	for i, name := range nc.np.GetInput() {
		if name != "" && (s.DataInputs < 0 || i == s.DataInputs) && i < len(nc.in) {
			check("input", i, name, nc.in[i])
		}
	}
	for j, name := range nc.np.GetOutput() {
		if name != "" && j == 0 && j < len(outs) {
			check("output", j, name, outs[j])
		}
	}
}

func hasType(l []tensor.DataType, t tensor.DataType) bool {
	for _, x := range l {
		if x == t {
			return true
		}
	}
	return false
}

func typeNames(l []tensor.DataType) string {
	s := make([]string, len(l))
	for i, t := range l {
		s[i] = t.String()
	}
	return strings.Join(s, ", ")
}
