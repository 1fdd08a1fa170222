package safefile

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
)

// ValueFiles are the file names, without extension, under which a dump
// holds the values names, in order (onnxshape run --out writes them,
// onnxshape diff --against and the onnxruntime dumper of bench/ort use
// them): each name with every character but [A-Za-z0-9._-] turned into _
// (ONNX names may hold any character, path separators included), made
// unique, case aside for the file systems that ignore it, by a suffix
// _2, _3, ...; a name longer than maxValueFile bytes (tf2onnx names a
// fused node's output by every node it fused) keeps its first bytes and
// ends in a hash of the whole name, as file systems refuse a name of more
// than 255 bytes.
func ValueFiles(names []string) []string {
	used := map[string]bool{}
	files := make([]string, len(names))
	for i, n := range names {
		name := valueFile(n)
		for k := 2; used[strings.ToLower(name)]; k++ {
			name = fmt.Sprintf("%s_%d", valueFile(n), k)
		}
		used[strings.ToLower(name)] = true
		files[i] = name
	}
	return files
}

func valueFile(name string) string {
	clean := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			return r
		}
		return '_'
	}, name)
	if clean == "" || strings.Trim(clean, ".") == "" {
		clean = "output"
	}
	if len(clean) > maxValueFile {
		sum := sha256.Sum256([]byte(name))
		clean = clean[:maxValueFile-17] + "_" + hex.EncodeToString(sum[:8])
	}
	return clean
}

// maxValueFile is the longest file name ValueFiles gives, leaving room
// under the usual 255-byte limit for a uniqueness suffix and an extension.
const maxValueFile = 200
