package bench

import (
	"bytes"
	"encoding/xml"
	"strings"
	"testing"
)

func TestWriteSVG(t *testing.T) {
	var b bytes.Buffer
	bars := []Bar{{"transpose", 1.7}, {"concat <&>", 0.4}, {"skipped", 0}, {"huge", 300}}
	if err := WriteSVG(&b, "ours vs onnxruntime", "onnxruntime", bars, 0.5); err != nil {
		t.Fatal(err)
	}
	s := b.String()
	// Well-formed XML, names escaped, unmeasured rows left out.
	d := xml.NewDecoder(strings.NewReader(s))
	for {
		if _, err := d.Token(); err != nil {
			if err.Error() != "EOF" {
				t.Fatalf("not well-formed: %v\n%s", err, s)
			}
			break
		}
	}
	if !strings.Contains(s, "concat &lt;&amp;&gt;") || strings.Contains(s, ">skipped<") || !strings.Contains(s, "256x") {
		t.Errorf("unexpected chart:\n%s", s)
	}
}
