package apitest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Every Go snippet of the README compiles against the module as it is: each
// becomes the body of a function of a throwaway main package (under
// testdata, removed afterwards) that `go vet` type-checks, so that an API
// change cannot leave the README showing calls that no longer exist.
// (The infer snippet is also ExampleFile, whose output is checked.)
func TestReadmeSnippetsCompile(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a package with the go command")
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```go\n(.*?)```").FindAllSubmatch(readme, -1)
	if len(blocks) < 3 {
		t.Fatalf("found %d Go snippets in the README", len(blocks))
	}
	var src strings.Builder
	src.WriteString(`package main

import (
	"context"
	"errors"
	"fmt"
	"image"
	"log"
	"os"
	"sort"

	"golang.org/x/image/draw"

	"github.com/onnxshape/onnxshape/builder"
	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/infer"
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

var (
	_ = context.Background
	_ = errors.Is
	_ = fmt.Println
	_ = log.Fatal
	_ = os.ReadFile
	_ = image.Decode
	_ = sort.Slice
	_ = draw.BiLinear
	_ = builder.New
	_ = graph.Load
	_ = infer.File
	_ = ops.Transpose
	_ = tensor.New
)

func main() {}
`)
	for i, b := range blocks {
		fmt.Fprintf(&src, "\n// README snippet %d\nfunc snippet%d() {\n%s}\n", i+1, i+1, b[1])
	}
	dir := filepath.Join("testdata", "readme")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll("testdata")
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(src.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if os.Getenv("ONNXSHAPE_EMULATED") != "" {
		t.Skip("starts go vet, which qemu-user's emulation of this process does not survive reliably (scripts/portability.sh)")
	}
	out, err := exec.Command("go", "vet", "./"+filepath.ToSlash(dir)).CombinedOutput()
	if err != nil {
		t.Fatalf("the README's Go snippets do not compile:\n%s", out)
	}
}
