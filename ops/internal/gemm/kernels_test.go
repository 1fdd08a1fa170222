package gemm

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestKernelsCurrent: kernels_amd64.s is what asm/gen.go writes.
func TestKernelsCurrent(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the generator")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	out := filepath.Join(t.TempDir(), "kernels_amd64.s")
	cmd := exec.Command(goBin, "run", "./asm/gen.go", "-o", out)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go run ./asm/gen.go: %v\n%s", err, b)
	}
	want, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("kernels_amd64.s")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("kernels_amd64.s is stale: run go run ./asm/gen.go -o kernels_amd64.s in ops/internal/gemm")
	}
}

// TestPeak: the FMA loop runs (its rate is BenchmarkPeak's).
func TestPeak(t *testing.T) {
	if fl := peakFMA(10); fl < 0 {
		t.Fatal(fl)
	}
}
