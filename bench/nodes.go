package bench

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/onnxshape/onnxshape/graph"
)

// WriteNodes writes, for each case with node times (RunOptions.Nodes),
// where a run's time goes: per operator type the time per run of the
// model, its share of the nodes' total and the number of nodes, slowest
// first; then the n slowest nodes with their name, operator, shapes (of
// their inputs and outputs) and time per run, and the nodes each fused.
func WriteNodes(w io.Writer, rs []Result, n int) error {
	for _, r := range rs {
		if len(r.Nodes) == 0 || r.NodeRuns == 0 {
			continue
		}
		if err := writeNodes(w, r, n); err != nil {
			return err
		}
	}
	return nil
}

func writeNodes(w io.Writer, r Result, n int) error {
	perRun := func(d time.Duration) time.Duration { return d / time.Duration(r.NodeRuns) }
	type opTime struct {
		op    string
		time  time.Duration
		nodes int
	}
	byOp := map[string]*opTime{}
	var total time.Duration
	for _, nt := range r.Nodes {
		o := byOp[nt.Op]
		if o == nil {
			o = &opTime{op: nt.Op}
			byOp[nt.Op] = o
		}
		o.time += nt.Time
		o.nodes++
		total += nt.Time
	}
	ops := make([]*opTime, 0, len(byOp))
	for _, o := range byOp {
		ops = append(ops, o)
	}
	slices.SortFunc(ops, func(a, b *opTime) int { return cmp.Or(cmp.Compare(b.time, a.time), strings.Compare(a.op, b.op)) })
	fmt.Fprintf(w, "\n%s: %d nodes, %s ms per run in nodes (%d timed runs)\n", r.Name, len(r.Nodes), ms(perRun(total)), r.NodeRuns)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "op\tms/run\tshare\tnodes\t\n")
	for _, o := range ops {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t\n", o.op, ms(perRun(o.time)), share(o.time, total), o.nodes)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	nodes := slices.Clone(r.Nodes)
	slices.SortStableFunc(nodes, func(a, b graph.NodeTime) int { return cmp.Compare(b.Time, a.Time) })
	nodes = nodes[:min(n, len(nodes))]
	fmt.Fprintf(w, "the %d slowest nodes:\n", len(nodes))
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "ms/run\tshare\tnode\top\tshapes\tfused\t\n")
	for _, nt := range nodes {
		name := nt.Node
		if name == "" {
			name = fmt.Sprintf("#%d", nt.Index)
		}
		fused := strings.Join(nt.Fused, ", ")
		if fused == "" {
			fused = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t\n", ms(perRun(nt.Time)), share(nt.Time, total), name, nt.Op, nt.Shapes, fused)
	}
	return tw.Flush()
}

func share(d, total time.Duration) string {
	if total <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100*float64(d)/float64(total))
}
