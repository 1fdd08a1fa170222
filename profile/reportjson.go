package profile

import "encoding/json"

// MarshalJSON writes the report with its verdict, Inside and Summary
// beside the fields: the JSON `onnxshape check --json` prints.
func (r Report) MarshalJSON() ([]byte, error) {
	type fields Report // the fields alone, without this method
	return json.Marshal(struct {
		Verdict string `json:"verdict"`
		Inside  bool   `json:"inside"`
		Summary string `json:"summary"`
		fields
	}{r.Verdict(), r.Inside(), r.Summary(), fields(r)})
}
