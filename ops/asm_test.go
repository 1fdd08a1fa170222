package ops_test

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The kernels' assembly (ops/internal/*/*_amd64.s) never runs a legacy-SSE
// instruction (one with an X register and no V prefix) while a YMM or ZMM
// register it wrote may hold a dirty upper half, and never returns without
// VZEROUPPER once it has: on the machines this project runs on, each such
// SSE instruction costs hundreds of cycles (a small MatMulInteger spent half
// its time on two of them a row), and Go's own float code is SSE. The scan
// is of each TEXT block in order, not of its branches: a block that writes
// a Y or Z register before some SSE instruction, in the file's order, needs
// a VZEROUPPER between them.
func TestAssemblyKeepsSSEAndAVXApart(t *testing.T) {
	files, err := filepath.Glob("internal/*/*_amd64.s")
	if err != nil || len(files) == 0 {
		t.Fatalf("no assembly found: %v", err)
	}
	wide := regexp.MustCompile(`\b[YZ][0-9]+\b`)
	narrow := regexp.MustCompile(`\bX[0-9]+\b`)
	instr := regexp.MustCompile(`^([A-Z][A-Z0-9]*)\s*(.*)$`)
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(nil, 1<<20)
		var fn string
		dirty := false
		for line := 1; sc.Scan(); line++ {
			s := sc.Text()
			if strings.HasPrefix(s, "TEXT") {
				fn, dirty = strings.Fields(s)[1], false
				continue
			}
			if fn == "" || strings.HasPrefix(s, "#") {
				continue
			}
			s, _, _ = strings.Cut(s, "//")
			m := instr.FindStringSubmatch(strings.TrimSpace(s))
			if m == nil {
				continue
			}
			op, args := m[1], m[2]
			switch {
			case op == "VZEROUPPER":
				dirty = false
			case wide.MatchString(args):
				dirty = true
			case dirty && !strings.HasPrefix(op, "V") && narrow.MatchString(args):
				t.Errorf("%s:%d: %s runs the legacy-SSE %s after a wide VEX instruction: use its VEX form", f, line, fn, op)
			case dirty && op == "RET":
				t.Errorf("%s:%d: %s returns without VZEROUPPER", f, line, fn)
			}
		}
		fh.Close()
	}
}
