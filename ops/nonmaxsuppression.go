// NonMaxSuppression selects, for every batch entry and class, boxes in
// order of falling score (the lower index first among equal scores),
// skipping those whose intersection over union with a box already selected
// for that class exceeds iou_threshold, and those whose score is not above
// score_threshold (when given), up to max_output_boxes_per_class (0, the
// default, selects none). It returns the [batch, class, box] triples
// selected, as an int64 tensor [n, 3].
//
// Versions: 10 and 11. Boxes are [y1, x1, y2, x2] corners in either order
// (center_point_box 0) or [x_center, y_center, width, height] (1). Arithmetic
// in float32, as the reference evaluator and onnxruntime; a box of no area
// suppresses nothing; NaN scores come after every number.
//
// Rules: [boxes] boxes is float [B, N, 4]; [scores] scores is float
// [B, C, N]; [input] each threshold input is a one-element tensor
// (max_output_boxes_per_class int64, the others float); [center_point_box]
// 0 or 1; [size] the output fits the size limit.

package ops

import (
	"github.com/onnxshape/onnxshape/ops/internal/nms"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("NonMaxSuppression", []int{10, 11}, [2]int{2, 5}, [2]int{1, 1}, nonMaxSuppressionNode)
	declareAttrs("NonMaxSuppression", AttrSpec{Name: "center_point_box", Type: AttrInt})
}

func nonMaxSuppressionNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	opt = opt.orDefault()
	op := n.op()
	boxes, err := n.requiredInput(in, 0, "boxes")
	if err != nil {
		return nil, err
	}
	scores, err := n.requiredInput(in, 1, "scores")
	if err != nil {
		return nil, err
	}
	center, err := n.Int("center_point_box", 0)
	if err != nil {
		return nil, err
	}
	if center != 0 && center != 1 {
		return nil, op.errorf("center_point_box", "center_point_box must be 0 or 1, got %d", center)
	}
	bs, ss := boxes.Shape(), scores.Shape()
	if boxes.DataType() != tensor.Float || len(bs) != 3 || bs[2] != 4 {
		return nil, op.errorf("boxes", "boxes must be float [batches, boxes, 4], got %s", boxes.Describe())
	}
	if scores.DataType() != tensor.Float || len(ss) != 3 || ss[0] != bs[0] || ss[2] != bs[1] {
		return nil, op.errorf("scores", "scores must be float [%d, classes, %d], got %s", bs[0], bs[1], scores.Describe())
	}
	maxOut, iou, scoreMin := int64(0), float32(0), float32(0)
	hasScoreMin := false
	for i := 2; i < 5; i++ {
		t, err := n.tensorInput(in, i)
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
			return nil, op.errorf("input", "input %d must be one %v, got %s", i, want, t.Describe())
		}
		switch i {
		case 2:
			maxOut = max(asElems[int64](t.Bytes())[0], 0)
		case 3:
			iou = asElems[float32](t.Bytes())[0]
		case 4:
			scoreMin, hasScoreMin = asElems[float32](t.Bytes())[0], true
		}
	}
	boxData, scoreData := asElems[float32](boxes.Bytes()), asElems[float32](scores.Bytes())
	batches, classes, count := bs[0], ss[1], bs[1]
	var selected []int64
	if maxOut > 0 && count > 0 && batches > 0 && classes > 0 {
		if err := opt.charge(op, "box tables", nms.BytesFor(count)); err != nil {
			return nil, err
		}
		sel := nms.New(count)
		p := nms.Params{IoU: iou, MaxOut: maxOut, ScoreMin: scoreMin, HasScoreMin: hasScoreMin}
		for b := range batches {
			sel.SetBoxes(boxData[b*count*4:(b+1)*count*4], center == 1)
			for c := range classes {
				s := scoreData[(b*classes+c)*count : (b*classes+c+1)*count]
				selected = sel.Select(selected, b, c, s, p)
			}
		}
	}
	y, err := opt.newOverwritten(op, tensor.Int64, []int{len(selected) / 3, 3})
	if err != nil {
		return nil, err
	}
	copy(asElems[int64](y.Bytes()), selected)
	return values(y), nil
}
