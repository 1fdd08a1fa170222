package profile

import "github.com/onnxshape/onnxshape/onnx/pb"

// The defaults of our operators, version by version, for rule GR4 ("no
// default values"): every attribute and optional input listed here must be
// written out in a profile model, because ONNX gives its absence a meaning.
//
// Sources: the ONNX operator schemas (docs/Changelog.md of onnx/onnx, and
// onnx.defs of ONNX 1.12 for the versions up to opset 17). A parameter is
// listed when either the schema gives it a default value ("default is 1") or
// its documentation says what happens when it is left out ("By default,
// reverse the dimensions", "If not present, the stride defaults to 1").
// Required attributes and inputs are not listed: leaving them out is an
// ONNX error that the operator itself reports.
//
// Two refinements keep the rule meaningful:
//   - alternatives: Split-18 takes either the split input or the num_outputs
//     attribute; Split-1 takes split as an attribute or as an input. Either
//     one written out satisfies the rule.
//   - conditions: an optional input is needed only where the operator reads
//     it: Resize's roi only when coordinate_transformation_mode is
//     tf_crop_and_resize, Pad's constant_value only in mode constant.
//     Attributes are needed always (SONNX MaxPool: "every attribute set
//     explicitly").
//
// Every since-version is listed, even when it repeats the one before, so that
// a reader can check a row against the Changelog without counting.

// param names an attribute (Input < 0) or an input of a node.
type param struct {
	Name  string
	Input int // the input's index, or -1 for an attribute
}

func (p param) String() string {
	if p.Input < 0 {
		return "attribute " + p.Name
	}
	return "input " + p.Name
}

// given reports whether node n writes p out: an attribute that is present, or
// an input that is present with a non-empty name.
func (p param) given(n *pb.NodeProto) bool {
	if p.Input < 0 {
		for _, a := range n.GetAttribute() {
			if a.GetName() == p.Name {
				return true
			}
		}
		return false
	}
	in := n.GetInput()
	return p.Input < len(in) && in[p.Input] != ""
}

// defaultRule is one parameter with a default in one operator version.
type defaultRule struct {
	Param   param
	Default string  // what ONNX does when it is left out
	Or      []param // alternatives: giving one of these also satisfies the rule
	// When, if set, limits the rule to the nodes for which it returns true.
	When func(n *pb.NodeProto) bool
}

// missing reports whether node n leaves the parameter to its default.
func (r defaultRule) missing(n *pb.NodeProto) bool {
	if r.When != nil && !r.When(n) {
		return false
	}
	if r.Param.given(n) {
		return false
	}
	for _, p := range r.Or {
		if p.given(n) {
			return false
		}
	}
	return true
}

func attr(name, def string) defaultRule {
	return defaultRule{Param: param{name, -1}, Default: def}
}

func input(index int, name, def string) defaultRule {
	return defaultRule{Param: param{name, index}, Default: def}
}

func (r defaultRule) or(alternatives ...param) defaultRule {
	r.Or = alternatives
	return r
}

func (r defaultRule) when(f func(n *pb.NodeProto) bool) defaultRule {
	r.When = f
	return r
}

// opVersion is the list of defaults of one since-version of an operator.
type opVersion struct {
	Since    int
	Defaults []defaultRule
}

// versions gives each of the since-versions vs the same list of defaults.
func versions(vs []int, defaults ...defaultRule) []opVersion {
	out := make([]opVersion, len(vs))
	for i, v := range vs {
		out[i] = opVersion{v, defaults}
	}
	return out
}

func join(lists ...[]opVersion) []opVersion {
	var out []opVersion
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

// stringAttr returns node n's string attribute name, or def when absent.
func stringAttr(n *pb.NodeProto, name, def string) string {
	for _, a := range n.GetAttribute() {
		if a.GetName() == name {
			return string(a.GetS())
		}
	}
	return def
}

var (
	maxPool1Defaults = []defaultRule{
		attr("auto_pad", "NOTSET"),
		attr("pads", "0 at the beginning and end of each spatial axis"),
		attr("strides", "1 along each spatial axis"),
	}
	maxPool8Defaults  = append(maxPool1Defaults[:3:3], attr("storage_order", "0"))
	maxPool10Defaults = append(maxPool8Defaults[:4:4],
		attr("ceil_mode", "0"),
		attr("dilations", "1 along each spatial axis"))

	resize11Defaults = []defaultRule{
		attr("coordinate_transformation_mode", "half_pixel"),
		attr("cubic_coeff_a", "-0.75"),
		attr("exclude_outside", "0"),
		attr("extrapolation_value", "0.0"),
		attr("mode", "nearest"),
		attr("nearest_mode", "round_prefer_floor"),
		input(1, "roi", "no region of interest (the whole input)").when(func(n *pb.NodeProto) bool {
			return stringAttr(n, "coordinate_transformation_mode", "half_pixel") == "tf_crop_and_resize"
		}),
	}
	resize18Defaults = append(resize11Defaults[:7:7],
		attr("antialias", "0"),
		attr("axes", "every axis"),
		attr("keep_aspect_ratio_policy", "stretch"))

	pad11Defaults = []defaultRule{
		attr("mode", "constant"),
		input(2, "constant_value", "0 (empty string, false)").when(func(n *pb.NodeProto) bool {
			return stringAttr(n, "mode", "constant") == "constant"
		}),
	}
	pad18Defaults = append(pad11Defaults[:2:2], input(3, "axes", "every axis"))

	maxUnpoolDefaults = []defaultRule{
		attr("pads", "0 at the beginning and end of each spatial axis"),
		attr("strides", "1 along each spatial axis"),
		input(2, "output_shape", "the shape computed from kernel_shape, strides and pads"),
	}
)

// defaults is the table of GR4, keyed by operator name (default domain),
// each list sorted by since-version.
var defaults = map[string][]opVersion{
	"Reshape": join(
		versions([]int{1, 5, 13}),
		versions([]int{14, 19, 21, 23, 24, 25}, attr("allowzero", "0"))),
	"Flatten": versions([]int{1, 9, 11, 13, 21, 23, 24, 25}, attr("axis", "1")),
	"Squeeze": join(
		versions([]int{1, 11}, attr("axes", "every axis of size 1")),
		versions([]int{13, 21, 23, 24, 25}, input(1, "axes", "every axis of size 1"))),
	"Unsqueeze": versions([]int{1, 11, 13, 21, 23, 24, 25}),
	"Transpose": versions([]int{1, 13, 21, 23, 24, 25}, attr("perm", "the axes reversed")),
	"Concat": join(
		versions([]int{1}, attr("axis", "1")),
		versions([]int{4, 11, 13})),
	"Split": join(
		versions([]int{1},
			attr("axis", "0"),
			attr("split", "equal parts, one per output").or(param{"split", 1})),
		versions([]int{2, 11},
			attr("axis", "0"),
			attr("split", "equal parts, one per output")),
		versions([]int{13},
			attr("axis", "0"),
			input(1, "split", "equal parts, one per output")),
		versions([]int{18},
			attr("axis", "0"),
			input(1, "split", "num_outputs parts, the last one smaller").or(param{"num_outputs", -1}))),
	"Slice": join(
		versions([]int{1}, attr("axes", "[0, 1, ..., len(starts)-1]")),
		versions([]int{10, 11, 13},
			input(3, "axes", "[0, 1, ..., len(starts)-1]"),
			input(4, "steps", "1 on every axis"))),
	"Pad": join(
		versions([]int{1, 2}, attr("mode", "constant"), attr("value", "0.0")),
		versions([]int{11, 13}, pad11Defaults...),
		versions([]int{18, 19, 21, 23, 24, 25}, pad18Defaults...)),
	"Resize": join(
		versions([]int{10}, attr("mode", "nearest")),
		versions([]int{11, 13}, resize11Defaults...),
		versions([]int{18, 19}, resize18Defaults...)),
	"Expand": versions([]int{8, 13}),
	"MaxPool": join(
		versions([]int{1}, maxPool1Defaults...),
		versions([]int{8}, maxPool8Defaults...),
		versions([]int{10, 11, 12, 22}, maxPool10Defaults...)),
	"Tile": versions([]int{1, 6, 13}),
	"DepthToSpace": join(
		versions([]int{1}),
		versions([]int{11, 13}, attr("mode", "DCR"))),
	"SpaceToDepth": versions([]int{1, 13}),
	"MaxUnpool":    versions([]int{9, 11, 22}, maxUnpoolDefaults...),
	"Identity":     versions([]int{1, 13, 14, 16, 19, 21, 23, 24, 25}),
	"Shape": join(
		versions([]int{1, 13}),
		versions([]int{15, 19, 21, 23, 24, 25},
			attr("start", "0"),
			attr("end", "the rank of the input (every axis up to the last)"))),
	"Size":          versions([]int{1, 13, 19, 21, 23, 24, 25}),
	"Constant":      versions([]int{1, 9, 11, 12, 13, 19, 21, 23, 24, 25}),
	"CenterCropPad": versions([]int{18}, attr("axes", "every axis")),
	"Upsample": join(
		versions([]int{1, 7}, attr("mode", "nearest")),
		versions([]int{9, 10}, attr("mode", "nearest"))),
}

// defaultsFor returns the defaults of operator op at since-version v: the
// entry with the highest since-version not above v. ok is false for an
// operator the table does not know.
func defaultsFor(op string, v int) (list []defaultRule, ok bool) {
	vs, known := defaults[op]
	if !known {
		return nil, false
	}
	for i := len(vs) - 1; i >= 0; i-- {
		if vs[i].Since <= v {
			return vs[i].Defaults, true
		}
	}
	return nil, false
}
