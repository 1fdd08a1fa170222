package apitest

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// issueNumber matches a reference to the project's own issue tracker by
// number (the word, a space, maybe "#", digits), which a reader cannot look
// up: the text must say what it refers to instead.
var issueNumber = regexp.MustCompile(`(?i)\bissues? #?[0-9]+\b`)

// No Go file, document or script of the repository cites an issue by its
// number (links to other projects' issue trackers, which a reader can
// follow, are allowed).
func TestNoIssueNumbers(t *testing.T) {
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "node_modules", "testdata", "bench-data":
				return filepath.SkipDir
			}
			return nil
		}
		switch filepath.Ext(path) {
		case ".go", ".md", ".sh", ".txt":
		default:
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(data), "\n") {
			if strings.Contains(line, "github.com/") && strings.Contains(line, "/issues/") {
				continue
			}
			if m := issueNumber.FindString(line); m != "" {
				rel, _ := filepath.Rel(root, path)
				t.Errorf("%s:%d cites %q: say what it refers to", rel, i+1, m)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
