package nodeproto

import (
	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/ops"
)

// CheckAttributes returns an error for the first attribute of np that the
// operator version of schema does not take, or takes with another type: an
// *ops.Error (rule "attribute") naming the attribute and listing the ones
// the version takes. graph.Load calls it on every node in every mode, as
// ONNX's checker and onnxruntime refuse such nodes; builder.Op calls it too.
func CheckAttributes(np *pb.NodeProto, schema *ops.Schema) error {
	for _, ap := range np.GetAttribute() {
		if ap.RefAttrName != nil {
			continue // Decode refuses function attribute references
		}
		typ := ops.AttrType(ap.GetType())
		if typ == ops.AttrUndefined {
			typ = guessAttrType(ap)
		}
		if err := schema.CheckAttribute(ap.GetName(), typ); err != nil {
			return err
		}
	}
	return nil
}
