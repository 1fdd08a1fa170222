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
	// Output:
	// inside
	// inside the SONNX profile; 5 of 5 node(s) checked statically
}
