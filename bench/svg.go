package bench

import (
	"fmt"
	"html"
	"io"
	"math"
	"strings"
)

// Bar is one row of a ratio chart: a case and how many times slower (above
// 1) or faster (below 1) onnxshape is than a yardstick.
type Bar struct {
	Case  string
	Ratio float64
}

// WriteSVG draws bars as a horizontal chart on a log2 scale, one row a case,
// with a line at 1 (as fast as the yardstick) and one at target (0 for
// none). Ratios of 0 (not measured) are left out.
func WriteSVG(w io.Writer, title, yardstick string, bars []Bar, target float64) error {
	var rows []Bar
	for _, b := range bars {
		if b.Ratio > 0 && !math.IsInf(b.Ratio, 0) && !math.IsNaN(b.Ratio) {
			rows = append(rows, b)
		}
	}
	const (
		labelW, plotW, rowH, top, bottom = 230, 520, 18, 44, 40
	)
	lo, hi := -3.0, 3.0 // log2 range: 1/8x to 8x
	for _, b := range rows {
		l := math.Log2(b.Ratio)
		lo, hi = math.Min(lo, math.Floor(l)), math.Max(hi, math.Ceil(l))
	}
	x := func(ratio float64) float64 {
		return labelW + (math.Log2(ratio)-lo)/(hi-lo)*plotW
	}
	height := top + len(rows)*rowH + bottom
	var s strings.Builder
	fmt.Fprintf(&s, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="12">`+"\n", labelW+plotW+20, height)
	fmt.Fprintf(&s, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	fmt.Fprintf(&s, `<text x="10" y="20" font-size="14" font-weight="bold">%s</text>`+"\n", html.EscapeString(title))
	fmt.Fprintf(&s, `<text x="10" y="36" fill="#555">time of onnxshape / time of %s (log scale; left of 1 is faster)</text>`+"\n", html.EscapeString(yardstick))
	for e := lo; e <= hi; e++ {
		r := math.Exp2(e)
		label := fmt.Sprintf("%gx", r)
		if r < 1 {
			label = fmt.Sprintf("1/%gx", 1/r)
		}
		fmt.Fprintf(&s, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#ddd"/>`+"\n", x(r), top-4, x(r), height-bottom+4)
		fmt.Fprintf(&s, `<text x="%.1f" y="%d" text-anchor="middle" fill="#555">%s</text>`+"\n", x(r), height-bottom+18, label)
	}
	for i, b := range rows {
		y := top + i*rowH
		color := "#2a7"
		if b.Ratio > 1 {
			color = "#d55"
		}
		x0, x1 := x(1), x(b.Ratio)
		fmt.Fprintf(&s, `<text x="%d" y="%d" text-anchor="end">%s</text>`+"\n", labelW-8, y+13, html.EscapeString(b.Case))
		fmt.Fprintf(&s, `<rect x="%.1f" y="%d" width="%.1f" height="%d" fill="%s"><title>%s: %.3g</title></rect>`+"\n",
			math.Min(x0, x1), y+3, math.Max(math.Abs(x1-x0), 1), rowH-6, color, html.EscapeString(b.Case), b.Ratio)
	}
	fmt.Fprintf(&s, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="black"/>`+"\n", x(1), top-4, x(1), height-bottom+4)
	if target > 0 {
		fmt.Fprintf(&s, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#27c" stroke-dasharray="4 3"/>`+"\n", x(target), top-4, x(target), height-bottom+4)
		fmt.Fprintf(&s, `<text x="%.1f" y="%d" fill="#27c">target %gx</text>`+"\n", x(target)+4, top+8, target)
	}
	s.WriteString("</svg>\n")
	_, err := io.WriteString(w, s.String())
	return err
}

// CopyBars returns, for each measured case that moves data, the ratio of
// its median time to that of a plain copy of its output bytes.
func CopyBars(rs []Result) []Bar {
	var bars []Bar
	for _, r := range rs {
		if r.Skipped != "" || r.Err != nil || r.View || r.Copy.Median <= 0 {
			continue
		}
		bars = append(bars, Bar{r.Name, float64(r.Stats.Median) / float64(r.Copy.Median)})
	}
	return bars
}
