package reference

// NonMaxSuppression (versions 10, 11), after the ONNX specification:
// "Filter out boxes that have high intersection-over-union (IOU) overlap
// with previously selected boxes. Bounding boxes with score less than
// score_threshold are removed. Bounding box format is indicated by
// attribute center_point_box. Note that this algorithm is agnostic to
// where the origin is in the coordinate system and more generally is
// invariant to orthogonal transformations and translations of the
// coordinate system; thus translating or reflections of the coordinate
// system result in the same boxes being selected by the algorithm. The
// selected_indices output is a set of integers indexing into the input
// collection of bounding boxes representing the selected boxes."
// As its reference evaluator: per batch and class, repeatedly take the
// remaining box of the highest score (the lowest index among equals, NaN
// last), keep it unless its IoU with a kept box of the class exceeds
// iou_threshold; scores must exceed score_threshold when it is given; at
// most max_output_boxes_per_class (0 when absent) per class; float32
// arithmetic; a box of no area suppresses nothing.

import (
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() { register("NonMaxSuppression", []int{10, 11}, nonMaxSuppression) }

func nonMaxSuppression(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	boxes, err := requiredInput(op, in, 0, "boxes")
	if err != nil {
		return nil, err
	}
	scores, err := requiredInput(op, in, 1, "scores")
	if err != nil {
		return nil, err
	}
	center, err := n.Int("center_point_box", 0)
	if err != nil {
		return nil, err
	}
	if center != 0 && center != 1 {
		return nil, op.errorf("center_point_box", "center_point_box %d", center)
	}
	bs, ss := boxes.Shape(), scores.Shape()
	if boxes.DataType() != tensor.Float || len(bs) != 3 || bs[2] != 4 {
		return nil, op.errorf("boxes", "boxes must be float [B, N, 4]")
	}
	if scores.DataType() != tensor.Float || len(ss) != 3 || ss[0] != bs[0] || ss[2] != bs[1] {
		return nil, op.errorf("scores", "scores must be float [B, C, N]")
	}
	maxOut, iouThreshold, scoreThreshold, useScore := int64(0), float32(0), float32(0), false
	for i := 2; i < 5; i++ {
		t, err := optionalInput(op, in, i)
		if err != nil {
			return nil, err
		}
		if t == nil || t.Len() == 0 {
			continue
		}
		want := tensor.Float
		if i == 2 {
			want = tensor.Int64
		}
		if t.DataType() != want || t.Len() != 1 || t.Rank() > 1 {
			return nil, op.errorf("input", "input %d", i)
		}
		v := exactValue(t, 0)
		switch i {
		case 2:
			maxOut = max(v.i, 0)
		case 3:
			iouThreshold = float32(v.f)
		case 4:
			scoreThreshold, useScore = float32(v.f), true
		}
	}
	coord := func(b, box, k int) float32 { return float32(exactValue(boxes, (b*bs[1]+box)*4+k).f) }
	var triples []int64
	for b := range bs[0] {
		for c := range ss[1] {
			score := func(box int) float32 { return float32(exactValue(scores, (b*ss[1]+c)*ss[2]+box).f) }
			remaining := map[int]bool{}
			for box := range bs[1] {
				if !useScore || score(box) > scoreThreshold {
					remaining[box] = true
				}
			}
			var kept []int
			for len(remaining) > 0 && int64(len(kept)) < maxOut {
				best := -1
				for box := range bs[1] { // the highest score, lowest index first, NaN last
					if !remaining[box] {
						continue
					}
					s := score(box)
					if best < 0 || (s == s && (score(best) != score(best) || s > score(best))) {
						best = box
					}
				}
				delete(remaining, best)
				keep := true
				for _, k := range kept {
					if overlapAbove(coord, b, best, k, center == 1, iouThreshold) {
						keep = false
						break
					}
				}
				if keep {
					kept = append(kept, best)
					triples = append(triples, int64(b), int64(c), int64(best))
				}
			}
		}
	}
	y, err := newTensor(opt, op, tensor.Int64, []int{len(triples) / 3, 3})
	if err != nil {
		return nil, err
	}
	for i, v := range triples {
		putInt(y, i, uint64(v))
	}
	return values(y), nil
}

// overlapAbove: the IoU of boxes i and j of batch b exceeds threshold.
func overlapAbove(coord func(b, box, k int) float32, b, i, j int, centerPoint bool, threshold float32) bool {
	edges := func(box int) (x0, x1, y0, y1 float32) {
		if centerPoint {
			xc, yc, hw, hh := coord(b, box, 0), coord(b, box, 1), coord(b, box, 2)/2, coord(b, box, 3)/2
			return xc - hw, xc + hw, yc - hh, yc + hh
		}
		ya, xa, yb, xb := coord(b, box, 0), coord(b, box, 1), coord(b, box, 2), coord(b, box, 3)
		return min(xa, xb), max(xa, xb), min(ya, yb), max(ya, yb)
	}
	ax0, ax1, ay0, ay1 := edges(i)
	bx0, bx1, by0, by1 := edges(j)
	w := min(ax1, bx1) - max(ax0, bx0)
	h := min(ay1, by1) - max(ay0, by0)
	if !(w > 0) || !(h > 0) {
		return false
	}
	intersection := float32(w * h)
	areaA, areaB := float32((ax1-ax0)*(ay1-ay0)), float32((bx1-bx0)*(by1-by0))
	union := float32(areaA+areaB) - intersection
	if intersection <= 0 || areaA <= 0 || areaB <= 0 || union <= 0 {
		return false
	}
	return intersection/union > threshold
}
