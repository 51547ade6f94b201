package mcpserve

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strconv"
)

// maxEnvBlock bounds the environment block BlankProcEnviron overwrites; Linux caps the whole
// of argv and envp far below it.
const maxEnvBlock = 64 << 20

// BlankProcEnviron overwrites this process's initial environment block, the memory that
// /proc/<pid>/environ reads, with zeros, after the variables named in keep (those set). An
// agent CLI starts mcp-serve with its whole environment, model API keys included; the Go
// runtime keeps its own copy of it (os.Environ, which Bash's scrubbed environment and the
// redactor are made from), so the block itself is read by nothing but /proc. Blanking it
// leaves no key there for a process that may read it: root's unsandboxed Bash (mode off)
// holds CAP_SYS_PTRACE, which the non-dumpable flag does not stop, and a plugin start makes
// the process dumpable again for a moment (sandbox.StartMapped). Call it first thing, before
// any child starts. The block is written through /proc/self/mem, which a process may always
// write in itself; C code linked with cgo would lose its view of the environment too, which
// the static mcp-serve binaries do not have.
func BlankProcEnviron(keep ...string) error {
	stat, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		return err
	}
	start, end, err := envBounds(stat)
	if err != nil {
		return err
	}
	block := make([]byte, end-start)
	n := 0
	for _, name := range keep {
		if v, ok := os.LookupEnv(name); ok && n+len(name)+len(v)+2 <= len(block) {
			n += copy(block[n:], name+"="+v+"\x00")
		}
	}
	mem, err := os.OpenFile("/proc/self/mem", os.O_RDWR, 0)
	if err != nil {
		return err
	}
	defer mem.Close()
	_, err = mem.WriteAt(block, int64(start))
	return err
}

// envBounds reads env_start and env_end, fields 50 and 51 of /proc/self/stat (proc(5)).
func envBounds(stat []byte) (start, end uint64, err error) {
	// Fields are counted after the parenthesised name, which may hold spaces and ')'.
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, 0, errors.New("/proc/self/stat has no command name")
	}
	f := bytes.Fields(stat[i+1:]) // f[0] is field 3, the state
	if len(f) < 49 {
		return 0, 0, fmt.Errorf("/proc/self/stat has %d fields, want at least 51 (Linux 3.5 or later)", len(f)+2)
	}
	start, err1 := strconv.ParseUint(string(f[47]), 10, 64)
	end, err2 := strconv.ParseUint(string(f[48]), 10, 64)
	switch {
	case err1 != nil || err2 != nil:
		return 0, 0, fmt.Errorf("/proc/self/stat: env_start %q, env_end %q", f[47], f[48])
	case end < start || end-start > maxEnvBlock || start > 1<<62:
		return 0, 0, fmt.Errorf("/proc/self/stat: environment block %d..%d out of range", start, end)
	}
	return start, end, nil
}
