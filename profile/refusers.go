package profile

// refusers names, for each row of Rules checked while the model runs, the
// functions that refuse a violation then in the engine `run --profile
// sonnx` uses by default, the reference engine (package reference), or in
// the runner whatever the engine (package graph): beside the fast kernel's
// checking functions (Checkers, which the check runs before the model
// runs), they are what an assessor reads to see the run-time refusal.
// TestRefusersTraceable checks that each exists in a file that names the
// row's id, and that every row checked at run time has one.
var refusers = map[string][]string{
	"DIMS":                                  {"graph.positiveDims"},
	"Unsqueeze A [C1]":                      {"reference.unsqueeze"},
	"Unsqueeze A [C2]":                      {"reference.unsqueeze"},
	"Unsqueeze axes":                        {"reference.unsqueeze"},
	"Concat R1":                             {"reference.concat"},
	"Concat inputs [C1]":                    {"reference.concat"},
	"Concat inputs [C2]":                    {"reference.concat"},
	"Concat inputs [C3]":                    {"reference.concat"},
	"Concat axis [C1]":                      {"reference.concat"},
	"Reshape allowzero [C1]":                {"reference.reshape"},
	"Reshape allowzero [C2]":                {"reference.reshapeShape"},
	"Reshape allowzero [C3]":                {"reference.reshapeShape"},
	"Reshape S [C1]":                        {"reference.reshapeShape"},
	"Reshape X [C1]":                        {"reference.reshapeShape"},
	"Flatten axis [C1]":                     {"reference.flatten"},
	"Slice R1":                              {"reference.slice"},
	"Slice R3":                              {"reference.slice"},
	"Slice R10":                             {"reference.slice"},
	"Slice X [C1]":                          {"reference.slice"},
	"Slice starts [C2]":                     {"reference.slice"},
	"Slice ends [C2]":                       {"reference.slice"},
	"Slice axes [C2]":                       {"reference.slice"},
	"Slice steps [C2]":                      {"reference.slice"},
	"Slice Y [C2]":                          {"reference.slice"},
	"Slice X [C3]":                          {"reference.slice"},
	"Slice axes [C3]":                       {"reference.slice"},
	"Slice R6":                              {"reference.slice"},
	"Slice R7":                              {"reference.slice"},
	"MaxPool R1":                            {"reference.maxPoolProfile"},
	"MaxPool R3":                            {"reference.maxPoolProfile"},
	"MaxPool R4":                            {"reference.maxPoolProfile"},
	"MaxPool R5":                            {"reference.maxPoolProfile"},
	"MaxPool TYPES":                         {"reference.maxPoolProfile"},
	"MaxPool dilations [C1]":                {"reference.maxPoolProfile"},
	"MaxPool kernel_shape [C1]":             {"reference.maxPoolProfile"},
	"MaxPool strides [C1]":                  {"reference.maxPoolProfile"},
	"MaxPool pads [C1]":                     {"reference.maxPoolProfile"},
	"MaxPool pads":                          {"reference.maxPoolProfile"},
	"MaxPool pads [C2]":                     {"reference.maxPoolProfile", "reference.maxPool"},
	"Softmax TYPES":                         {"reference.registerSoftmaxFamily"},
	"Softmax axis [C1]":                     {"reference.registerSoftmaxFamily"},
	"Softmax axis [C2]":                     {"reference.registerSoftmaxFamily"},
	"ArgMax axis [C1]":                      {"reference.registerArg"},
	"ArgMax axis [C2]":                      {"reference.registerArg"},
	"ArgMax keepdims [C1]":                  {"reference.registerArg"},
	"ArgMax select_last_index [C1]":         {"reference.registerArg"},
	"Abs E_ABS_INT_CONSTR_X_020":            {"reference.refuseAbsLeast"},
	"Div E_DIV_INT_CONSTR_B_0030":           {"reference.refuseZeroDivisor"},
	"Pow B [C2]":                            {"reference.powSONNX"},
	"Pow B [C3]":                            {"reference.powSONNX"},
	"Clip L [C1]":                           {"reference.clipBoundsSONNX"},
	"Clip M [C1]":                           {"reference.clipBoundsSONNX"},
	"Range input":                           {"reference.rangeKernel"},
	"Range D [C1]":                          {"reference.rangeKernel"},
	"MatMul A [C1]":                         {"reference.matMulKernel"},
	"MatMul B [C1]":                         {"reference.matMulKernel"},
	"MatMul A [C2]":                         {"reference.matMulKernel"},
	"BatchNormalization training_mode [C1]": {"reference.batchNormSONNX"},
	"BatchNormalization epsilon [C1]":       {"reference.batchNormSONNX"},
	"BatchNormalization X [C3]":             {"reference.batchNormSONNX"},
	"BatchNormalization scale [C1]":         {"reference.batchNormSONNX"},
	"BatchNormalization input_var [C3]":     {"reference.batchNormSONNX"},
}

// init gives each row its refusers; a row whose operator's specification
// forbids broadcasting is refused by the reference engine's
// sameShapesSONNX.
func init() {
	for i := range Rules {
		r := &Rules[i]
		r.Refusers = refusers[r.Key()]
		for _, c := range r.Checkers {
			if c == "ops.sameShapes" {
				r.Refusers = []string{"reference.sameShapesSONNX"}
			}
		}
	}
}
