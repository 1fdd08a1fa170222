package memlimit

import (
	"math"
	"testing"
	"testing/fstest"
)

func TestDerive(t *testing.T) {
	const gib = 1 << 30
	v2 := fstest.MapFS{
		"proc/self/cgroup":                        {Data: []byte("0::/user.slice/job\n")},
		"sys/fs/cgroup/memory.max":                {Data: []byte("max\n")},
		"sys/fs/cgroup/user.slice/memory.max":     {Data: []byte("8589934592\n")},
		"sys/fs/cgroup/user.slice/job/memory.max": {Data: []byte("max\n")},
	}
	v1 := fstest.MapFS{
		"proc/self/cgroup":                                      {Data: []byte("12:pids:/x\n4:memory:/docker/abc\n3:cpu,cpuacct:/docker/abc\n")},
		"sys/fs/cgroup/memory/memory.limit_in_bytes":            {Data: []byte("9223372036854771712\n")},
		"sys/fs/cgroup/memory/docker/memory.limit_in_bytes":     {Data: []byte("9223372036854771712\n")},
		"sys/fs/cgroup/memory/docker/abc/memory.limit_in_bytes": {Data: []byte("2147483648\n")},
	}
	// A container's own namespace: the path is "/", the root its cgroup.
	ns := fstest.MapFS{
		"proc/self/cgroup":         {Data: []byte("0::/\n")},
		"sys/fs/cgroup/memory.max": {Data: []byte("3221225472\n")},
	}
	status := fstest.MapFS{
		"proc/self/status": {Data: []byte("Name:\tonnxshape\nVmPeak:\t 1227184 kB\nVmSize:\t 1227184 kB\nVmLck:\t       0 kB\n")},
	}
	unlimitedV1 := fstest.MapFS{
		"proc/self/cgroup":                           {Data: []byte("4:memory:/\n")},
		"sys/fs/cgroup/memory/memory.limit_in_bytes": {Data: []byte("9223372036854771712\n")},
	}
	for _, c := range []struct {
		name string
		src  Sources
		want Limit
	}{
		{"nothing", Sources{GoMemLimit: math.MaxInt64}, Limit{Bytes: math.MaxInt64}},
		{"no cgroup files", Sources{FS: fstest.MapFS{}, RlimitAS: math.MaxUint64, GoMemLimit: math.MaxInt64}, Limit{Bytes: math.MaxInt64}},
		{"v2, a parent's limit", Sources{FS: v2, GoMemLimit: math.MaxInt64}, Limit{8 * gib, "cgroup memory.max"}},
		{"v1", Sources{FS: v1, RlimitAS: math.MaxUint64, GoMemLimit: math.MaxInt64}, Limit{2 * gib, "cgroup memory.limit_in_bytes"}},
		{"v1 unlimited", Sources{FS: unlimitedV1, GoMemLimit: math.MaxInt64}, Limit{Bytes: math.MaxInt64}},
		{"namespace root", Sources{FS: ns}, Limit{3 * gib, "cgroup memory.max"}},
		{"ulimit -v below the cgroup", Sources{FS: v2, RlimitAS: 4 * gib, GoMemLimit: math.MaxInt64}, Limit{4 * gib, "what RLIMIT_AS leaves"}},
		{"ulimit -v less the address space in use", Sources{FS: status, RlimitAS: 4 * gib, GoMemLimit: math.MaxInt64}, Limit{4*gib - 1227184<<10, "what RLIMIT_AS leaves"}},
		{"ulimit -v below the address space in use", Sources{FS: status, RlimitAS: gib, GoMemLimit: math.MaxInt64}, Limit{1, "what RLIMIT_AS leaves"}},
		{"GOMEMLIMIT below all", Sources{FS: v1, RlimitAS: 4 * gib, GoMemLimit: gib}, Limit{gib, "GOMEMLIMIT"}},
		{"RLIM_INFINITY", Sources{RlimitAS: math.MaxUint64, GoMemLimit: math.MaxInt64}, Limit{Bytes: math.MaxInt64}},
	} {
		if got := Derive(c.src); got != c.want {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
}

func TestProcess(t *testing.T) {
	l := Process()
	if l.Bytes <= 0 || (l.Bytes < math.MaxInt64) != (l.From != "") {
		t.Errorf("this process: %+v", l)
	}
	t.Logf("this process: %+v", l)
}
