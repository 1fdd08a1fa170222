//go:build !amd64 || purego

package conv

// haveRowsKernel is false: no whole-row kernel here, so planRows makes no
// plan and dwRows32 is never called.
func haveRowsKernel() bool { return false }

func dwRows32(y []float32, rows int, g *dwGeometry, p *dwRowPlan, xp []float32, xoff, t0, t1 int, wc []float32, bias float32) {
}

func dwFlat32(g *dwGeometry, p *dwFlatPlan, yp, xp, wc []float32, bias float32) {}

func dwSplitPhases(g *dwGeometry, p *dwFlatPlan, ph, xp []float32) {}
