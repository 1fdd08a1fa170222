package safefile

import (
	"strings"
	"testing"
)

func TestValueFiles(t *testing.T) {
	long := strings.Repeat("WireFrameModel/expanded_conv/depthwise/", 10)
	names := []string{"a/b:0", "A_B_0", "", long + "x", long + "y", long + "x"}
	files := ValueFiles(names)
	want := []string{"a_b_0", "A_B_0_2", "output"}
	for i, w := range want {
		if files[i] != w {
			t.Errorf("ValueFiles(%q) = %q, want %q", names[i], files[i], w)
		}
	}
	seen := map[string]bool{}
	for i, f := range files {
		if len(f)+len("_2.npy") > 255 {
			t.Errorf("file of %q: %d bytes, above what file systems take", names[i], len(f))
		}
		if seen[strings.ToLower(f)] {
			t.Errorf("file %q given twice", f)
		}
		seen[strings.ToLower(f)] = true
	}
	if files[3] == files[4] || !strings.HasPrefix(files[3], "WireFrameModel_expanded_conv_depthwise_") {
		t.Errorf("long names: %q and %q", files[3], files[4])
	}
	if again := ValueFiles(names[3:4]); again[0] != files[3] {
		t.Errorf("long name's file changes: %q, then %q", files[3], again[0])
	}
}
