package gemm

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestIntegerKernelsCurrent: integerkernels_amd64.s is what asm/gen.go -in-place
// writes.
func TestIntegerKernelsCurrent(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the generator")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	out := filepath.Join(t.TempDir(), "integerkernels_amd64.s")
	cmd := exec.Command(goBin, "run", "./asm/gen.go", "-in-place", "-o", out)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go run ./asm/gen.go -in-place: %v\n%s", err, b)
	}
	want, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("integerkernels_amd64.s")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("integerkernels_amd64.s is stale: run go run ./asm/gen.go -in-place -o integerkernels_amd64.s in ops/internal/gemm")
	}
}
