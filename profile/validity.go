package profile

import (
	"fmt"

	"github.com/onnxshape/onnxshape/internal/modelcheck"
)

// ruleModel: the model is one the profile runs as written (MODEL).
const ruleModel = "MODEL"

// checkValidity reports, under ONNX, every problem of the validity pass
// the loader runs (internal/modelcheck: the loader refuses each of them),
// and under MODEL what the profile refuses of a valid model because a run
// would not compute what the file says: a non-empty training_info (its
// algorithms rebind initializers, which onnxshape ignores), an IR-3 model
// whose initializers are listed as graph inputs (IR 3 requires it, the
// profile reads such an input as a default the caller may replace), and an
// IR version too old for the opset the model imports.
func (c *checker) checkValidity() {
	for _, p := range modelcheck.Check(c.m) {
		where := modelPlace
		switch p.Kind {
		case modelcheck.Input:
			where = valuePlace(PlaceInput, p.Name)
		case modelcheck.Output:
			where = valuePlace(PlaceOutput, p.Name)
		case modelcheck.ValueInfo:
			where = valuePlace(PlaceValue, p.Name)
		case modelcheck.Node:
			where = nodePlace(p.Name, p.Index)
		}
		c.graphFinding(where, ruleONNX, p.Fix, "%s", p.Msg)
	}
	c.checkModelRules()
}

// checkModelRules is MODEL.
func (c *checker) checkModelRules() {
	if n := modelcheck.TrainingInfo(c.m); n > 0 {
		c.graphFinding(modelPlace, ruleModel, "remove training_info: the profile's models are inference models",
			"the model has %d training_info entr(ies), whose algorithms may rebind initializers; the profile runs the inference graph only", n)
	}
	ir := c.m.GetIrVersion()
	g := c.m.GetGraph()
	if ir > 0 && ir < 4 && len(g.GetInitializer()) > 0 {
		inits := map[string]bool{}
		for _, tp := range g.GetInitializer() {
			inits[tp.GetName()] = true
		}
		for _, vi := range g.GetInput() {
			if inits[vi.GetName()] {
				c.graphFinding(valuePlace(PlaceInput, vi.GetName()), ruleModel, "write the model in IR version 4 or later, without listing initializers as graph inputs",
					"IR version %d lists initializer %q as a graph input: a value the caller may replace (GR4), and IR %d cannot leave it out", ir, vi.GetName(), ir)
			}
		}
	}
	for _, imp := range c.m.GetOpsetImport() {
		d := imp.GetDomain()
		if d != "" && d != "ai.onnx" || ir <= 0 || ir > modelcheck.NewestIR {
			continue
		}
		if newest := modelcheck.NewestOpsetOfIR(ir); int64(newest) < imp.GetVersion() {
			c.graphFinding(modelPlace, ruleModel, fmt.Sprintf("write the model in an IR version that carries opset %d", imp.GetVersion()),
				"IR version %d carries default-domain opsets up to %d, and the model imports opset %d", ir, newest, imp.GetVersion())
		}
	}
}
