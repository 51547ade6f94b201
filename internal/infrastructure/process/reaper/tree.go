package reaper

import (
	"bytes"
	"os"
	"strconv"
)

// Descendants returns the pids of every live process below pid (children, theirs, and so on),
// read from /proc; nil when there are none or /proc cannot be read. It is a snapshot:
// a process may fork or exit right after.
func Descendants(pid int) []int {
	kids := map[int][]int{}
	for _, p := range AllPids() {
		if pp, ok := parentOf(p); ok {
			kids[pp] = append(kids[pp], p)
		}
	}
	var out []int
	for queue := kids[pid]; len(queue) > 0; queue = queue[1:] {
		p := queue[0]
		out = append(out, p)
		queue = append(queue, kids[p]...)
	}
	return out
}

// WithToken returns the pids of the live processes whose environment carries TokenEnv=token.
// Only processes of this user can be read, which is all a start can have left.
func WithToken(token string) []int {
	if token == "" {
		return nil
	}
	needle := []byte(TokenEnv + "=" + token + "\x00")
	self := os.Getpid()
	var out []int
	for _, p := range AllPids() {
		if p == self {
			continue
		}
		b, err := os.ReadFile("/proc/" + strconv.Itoa(p) + "/environ")
		if err != nil || len(b) == 0 {
			continue
		}
		if bytes.HasPrefix(b, needle) || bytes.Contains(b, append([]byte{0}, needle...)) {
			out = append(out, p)
		}
	}
	return out
}

// AllPids lists the numeric entries of /proc: every process visible here.
func AllPids() []int {
	d, err := os.Open("/proc")
	if err != nil {
		return nil
	}
	defer d.Close()
	names, _ := d.Readdirnames(-1)
	out := make([]int, 0, len(names))
	for _, n := range names {
		if p, err := strconv.Atoi(n); err == nil && p > 0 {
			out = append(out, p)
		}
	}
	return out
}

// parentOf reads a live process's parent pid from /proc/<pid>/stat; zombies and gone
// processes report false.
func parentOf(pid int) (int, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false
	}
	// The fields after the parenthesised name, which may itself hold spaces and ')'.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 || i+4 > len(b) {
		return 0, false
	}
	f := bytes.Fields(b[i+1:])
	if len(f) < 2 || f[0][0] == 'Z' || f[0][0] == 'X' {
		return 0, false
	}
	pp, err := strconv.Atoi(string(f[1]))
	return pp, err == nil
}
