// Package memlimit finds how much memory the process may really use: the
// smallest of its cgroup's memory limit (cgroup v2 memory.max, cgroup v1
// memory.limit_in_bytes, of its own cgroup and of every cgroup above it),
// its address-space limit (RLIMIT_AS, `ulimit -v`) and the Go runtime's
// soft limit (GOMEMLIMIT, debug.SetMemoryLimit). Package graph derives the
// default cap on a run's live bytes from it, so that a container or a
// `ulimit -v` smaller than that default makes a large model a refusal,
// not a fatal out-of-memory. It reads files and asks the system; it never
// allocates in proportion to anything but those small files.
package memlimit

import (
	"bufio"
	"bytes"
	"io/fs"
	"math"
	"os"
	"path"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
)

// Limit is what bounds the process's memory.
type Limit struct {
	Bytes int64  // math.MaxInt64 when nothing does
	From  string // what sets Bytes: "cgroup memory.max", "RLIMIT_AS", "GOMEMLIMIT"; "" when nothing does
}

// Sources are what Derive reads: the file system holding /proc/self/cgroup,
// /proc/self/status and /sys/fs/cgroup (rooted at /), the address-space
// limit in bytes and the Go runtime's memory limit (math.MaxInt64 or more:
// none).
type Sources struct {
	FS         fs.FS
	RlimitAS   uint64
	GoMemLimit int64
}

// unlimited is the smallest figure read as no limit: cgroup v1 writes
// 9223372036854771712, RLIM_INFINITY is 2^64-1.
const unlimited = 1 << 60

// Derive returns the smallest limit of src.
func Derive(src Sources) Limit {
	l := Limit{Bytes: math.MaxInt64}
	take := func(v uint64, from string) {
		if v > 0 && v < unlimited && int64(v) < l.Bytes {
			l = Limit{Bytes: int64(v), From: from}
		}
	}
	if src.FS != nil {
		v2, v1 := cgroupLimits(src.FS)
		take(v2, "cgroup memory.max")
		take(v1, "cgroup memory.limit_in_bytes")
	}
	if src.RlimitAS > 0 && src.RlimitAS < unlimited {
		// The address space counts what the Go runtime reserves before
		// it allocates anything (about 1.2 GB on linux/amd64), which the
		// heap cannot use: only what is left of the limit is.
		used := addressSpace(src.FS)
		take(max(src.RlimitAS-min(used, src.RlimitAS), 1), "what RLIMIT_AS leaves")
	}
	if src.GoMemLimit > 0 {
		take(uint64(src.GoMemLimit), "GOMEMLIMIT")
	}
	return l
}

// cgroupLimits reads the memory limits of the process's cgroup and of its
// ancestors, in the v2 hierarchy and in v1's memory controller: the
// smallest of each (0 when none is set).
func cgroupLimits(fsys fs.FS) (v2, v1 uint64) {
	data, err := readSmall(fsys, "proc/self/cgroup")
	if err != nil {
		return 0, 0
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		// hierarchy-ID:controller-list:cgroup-path
		parts := strings.SplitN(sc.Text(), ":", 3)
		if len(parts) != 3 {
			continue
		}
		switch {
		case parts[0] == "0" && parts[1] == "":
			v2 = minSet(v2, walkUp(fsys, "sys/fs/cgroup", parts[2], "memory.max"))
		case hasController(parts[1], "memory"):
			v1 = minSet(v1, walkUp(fsys, "sys/fs/cgroup/memory", parts[2], "memory.limit_in_bytes"))
		}
	}
	return v2, v1
}

func hasController(list, name string) bool {
	for _, c := range strings.Split(list, ",") {
		if c == name {
			return true
		}
	}
	return false
}

// walkUp reads file in the cgroup folder at root/cg and in each folder
// above it up to root, returning the smallest limit set (0: none). Inside
// a container's cgroup namespace the path is "/" and root is the
// container's own cgroup.
func walkUp(fsys fs.FS, root, cg, file string) uint64 {
	var least uint64
	dir := path.Clean("/" + cg)
	for {
		if data, err := readSmall(fsys, path.Join(root, dir, file)); err == nil {
			s := strings.TrimSpace(string(data))
			if s != "max" {
				if v, err := strconv.ParseUint(s, 10, 64); err == nil {
					least = minSet(least, v)
				}
			}
		}
		if dir == "/" {
			return least
		}
		dir = path.Dir(dir)
	}
}

// minSet is the smaller of a and b, 0 standing for no limit.
func minSet(a, b uint64) uint64 {
	switch {
	case a == 0:
		return b
	case b == 0:
		return a
	}
	return min(a, b)
}

// readSmall reads at most 64 KiB of a file: the cgroup files are a line.
func readSmall(fsys fs.FS, name string) ([]byte, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	buf := make([]byte, 64<<10)
	n, err := f.Read(buf)
	if n > 0 {
		return buf[:n], nil
	}
	return nil, err
}

// Process returns the limit of the running process, read once.
var Process = sync.OnceValue(func() Limit {
	return Derive(Sources{FS: os.DirFS("/"), RlimitAS: rlimitAS(), GoMemLimit: debug.SetMemoryLimit(-1)})
})

// addressSpace is the address space the process holds (VmSize of
// /proc/self/status), 0 when it cannot be read.
func addressSpace(fsys fs.FS) uint64 {
	if fsys == nil {
		return 0
	}
	data, err := readSmall(fsys, "proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmSize:"); ok {
			kb, err := strconv.ParseUint(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			if err == nil && kb < unlimited>>10 {
				return kb << 10
			}
		}
	}
	return 0
}
