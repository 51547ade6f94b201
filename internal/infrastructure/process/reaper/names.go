package reaper

import "os"

// TokenEnv is the reserved variable that carries a start's token to every process the start
// spawns. It is random per start, so a sweep by token ends only that start's processes, and a
// process cannot name another start's token without reading its environment. It is declared
// for every platform: the sweep (tree.go) builds everywhere, and finds nothing where there is
// no /proc.
const TokenEnv = "AWF_PROC_TOKEN"

// Names the starter and the reaper agree on.
const (
	// Arg0 is the reaper's argv[0], so ps shows what it is; argv[1] is the command's path and
	// the rest its argv.
	Arg0 = "awf-reap"
	// GraceEnv holds the grace in milliseconds; its presence with Arg0 selects the reaper.
	GraceEnv = "AWF_PROC_REAP"
	// FDsEnv says how many descriptors (0, 1, 2, then the starter's extra files) pass on.
	FDsEnv = "AWF_PROC_REAP_FDS"
	// StatEnv names the descriptor where the reaper writes the exec's errno, 0 on success.
	StatEnv = "AWF_PROC_REAP_STAT"
	// LingerEnv, in milliseconds, lets the tree outlive the command for that long before it
	// gets SIGTERM, grace and SIGKILL (an agent CLI's MCP server flushes its spans after the
	// CLI is gone); without it the tree is SIGKILLed as soon as the command exits.
	LingerEnv = "AWF_PROC_REAP_LINGER"
	// ExitEnv names the descriptor where the reaper writes the command's own wait status, in
	// decimal, as soon as the command exits: its starter learns it while the tree lingers.
	ExitEnv = "AWF_PROC_REAP_EXIT"
)

// Path is the binary to re-execute as the reaper: this very binary, through the kernel's link
// to it, so a renamed or replaced file on disk is not what runs.
const Path = "/proc/self/exe"

// Supported reports whether this system can run the reaper.
func Supported() bool {
	_, err := os.Stat(Path)
	return err == nil
}

// Without returns env without the named variables.
func Without(env []string, names ...string) []string {
	out := env[:0:0]
	for _, kv := range env {
		keep := true
		for _, n := range names {
			if len(kv) > len(n) && kv[len(n)] == '=' && kv[:len(n)] == n {
				keep = false
				break
			}
		}
		if keep {
			out = append(out, kv)
		}
	}
	return out
}
