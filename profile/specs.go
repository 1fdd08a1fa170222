package profile

import (
	"fmt"
	"slices"
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
	// Inputs, when set, lists those inputs instead (Where's X and Y).
	Inputs []int
	// FixedOutput: the output's type is fixed by ONNX (Less's bool), so
	// Types does not restrict it.
	FixedOutput bool
}

// restricts reports whether Types restricts input i.
func (s opSpec) restricts(i int) bool {
	if s.Inputs != nil {
		return slices.Contains(s.Inputs, i)
	}
	return s.DataInputs < 0 || i == s.DataInputs
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

	// The elementwise operators (elementwise_specs.go has their
	// constraints). abs.md: "Based on ONNX documentation Abs version 13";
	// its Contents list bfloat16 among the floats.
	"Abs": {Version: 13, Types: typeList([]tensor.DataType{tensor.BFloat16}, floats, signed, unsigned), TypeRule: ruleTypes},
	// relu.md: "Based on ONNX documentation version 14"; no bfloat16.
	"Relu": {Version: 14, Types: typeList(floats, signed), TypeRule: ruleTypes},
	// sigmoid.md, tanh.md, exp.md, log.md, sqrt.md: version 13, floats.
	"Sigmoid": {Version: 13, Types: floats, TypeRule: ruleTypes},
	"Tanh":    {Version: 13, Types: floats, TypeRule: ruleTypes},
	"Exp":     {Version: 13, Types: floats, TypeRule: ruleTypes},
	"Log":     {Version: 13, Types: floats, TypeRule: ruleTypes},
	"Sqrt":    {Version: 13, Types: floats, TypeRule: ruleTypes},
	// add.md, sub.md, mul.md, div.md: version 14, the floats (no bfloat16)
	// and the integers.
	"Add": {Version: 14, Types: typeList(floats, signed, unsigned), TypeRule: ruleTypes, DataInputs: -1},
	"Sub": {Version: 14, Types: typeList(floats, signed, unsigned), TypeRule: ruleTypes, DataInputs: -1},
	"Mul": {Version: 14, Types: typeList(floats, signed, unsigned), TypeRule: ruleTypes, DataInputs: -1},
	"Div": {Version: 14, Types: typeList(floats, signed, unsigned), TypeRule: ruleTypes, DataInputs: -1},
	// less.md: "Less version 13"; the output is bool.
	"Less": {Version: 13, Types: typeList(floats, signed, unsigned), TypeRule: ruleTypes, DataInputs: -1, FixedOutput: true},
	// where.md: "Where version 16"; X, Y and the output (condition is bool).
	"Where": {Version: 16, Types: typeList(floats, signed, unsigned), TypeRule: ruleTypes, Inputs: []int{1, 2}},
	// softmax.md: "Softmax version 13"; floats (reductions.go has its
	// defaults; ops/softmax.go checks its axis rules).
	"Softmax": {Version: 13, Types: floats, TypeRule: ruleTypes},
	// argmax.md: "ArgMax version 13"; the numbers but bfloat16; the output
	// is int64.
	"ArgMax": {Version: 13, Types: typeList(floats, signed, unsigned), TypeRule: ruleTypes, FixedOutput: true},
	// pow.md: "Pow version 15"; A is a float or int32/int64, B has A's
	// type (B [C2]).
	"Pow": {Version: 15, Types: typeList(floats, []tensor.DataType{tensor.Int32, tensor.Int64}), TypeRule: ruleTypes},

	// The compute operators (compute_specs.go has their constraints).
	// leakyrelu.md: "Based on ONNX documentation version 14", the opset at
	// which LeakyRelu resolves to LeakyRelu-6 (there is no LeakyRelu-14);
	// float16, float, double, as LeakyRelu-6 (16 adds bfloat16).
	"LeakyRelu": {Version: 6, Types: floats, TypeRule: ruleTypes},
	// clip.md: "Clip version 13"; the floats and the integers, no bfloat16;
	// X, L, M and Y (X [C2]: one type).
	"Clip": {Version: 13, Types: typeList(floats, signed, unsigned), TypeRule: ruleTypes, DataInputs: -1},
	// max.md: "Max version 13"; the floats and the integers, no bfloat16.
	"Max": {Version: 13, Types: typeList(floats, signed, unsigned), TypeRule: ruleTypes, DataInputs: -1},
	// range.md: "Based on ONNX documentation version 11"; "FP64, FP32,
	// INT64, INT32, INT16".
	"Range": {Version: 11, Types: []tensor.DataType{tensor.Float, tensor.Double, tensor.Int16, tensor.Int32, tensor.Int64}, TypeRule: ruleTypes, DataInputs: -1},
	// matmul.md: "Op version 13"; float16, float32, float64 and int32,
	// int64, uint32, uint64.
	"MatMul": {Version: 13, Types: typeList(floats, []tensor.DataType{tensor.Int32, tensor.Int64, tensor.Uint32, tensor.Uint64}), TypeRule: ruleTypes, DataInputs: -1},
	// batch_normalization.md: "BatchNormalization version 15"; float16,
	// float, double for every input and Y.
	"BatchNormalization": {Version: 15, Types: floats, TypeRule: ruleTypes, DataInputs: -1},
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
		if name != "" && s.restricts(i) && i < len(nc.in) {
			check("input", i, name, nc.in[i])
		}
	}
	for j, name := range nc.np.GetOutput() {
		if name != "" && j == 0 && j < len(outs) && !s.FixedOutput {
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

// specVersions lists the pinned versions: "Abs 13, Add 14, ...".
func specVersions() string {
	var l []string
	for _, op := range sortedKeys(specs) {
		if v := specs[op].Version; v > 0 {
			l = append(l, fmt.Sprintf("%s %d", op, v))
		}
	}
	return strings.Join(l, ", ")
}
