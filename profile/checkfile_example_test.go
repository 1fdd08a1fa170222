package profile_test

import (
	"fmt"

	"github.com/onnxshape/onnxshape/profile"
)

// Check a model file against the SONNX profile.
func ExampleCheckFile() {
	rep, err := profile.CheckFile("../examples/letterbox.onnx")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(rep.Verdict())
	fmt.Println(rep.Summary())
	for _, f := range rep.Findings {
		fmt.Printf("%s %s [%s]\n", f.Where.Name, f.Op, f.Rule)
	}
	// Output:
	// outside
	// outside the SONNX profile: 2 finding(s); 6 of 7 node(s) checked statically
	// to_float Cast [OPS]
	// normalise Div [E_DIV_FLOAT_CONSTR_A_0010]
}
