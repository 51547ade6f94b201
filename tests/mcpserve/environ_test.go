package mcpserve_test

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestUnsandboxedBashFindsNoKeyAbove: the agent CLI (here the test process) starts mcp-serve
// with model API keys and other secret-named variables in its environment. A Bash call with
// the sandbox off reads /proc/<pid>/environ of its parent and of every ancestor up to, not
// including, the CLI, as whoever runs the test: as root (CAP_SYS_PTRACE opens what the
// non-dumpable flag closes) and as an ordinary user. It finds no key, from awf-serve and from
// awf alike, while its own environment is what it always was (scrubbed, the rest kept).
func TestUnsandboxedBashFindsNoKeyAbove(t *testing.T) {
	keys := map[string]string{
		"ANTHROPIC_API_KEY": "sk-ant-planted-environ-1", "OPENAI_API_KEY": "sk-planted-environ-2",
		"GEMINI_API_KEY": "planted-environ-gemini-3", "MY_SERVICE_TOKEN": "planted-environ-token-4",
	}
	for _, bin := range []string{serveBin, awfBin} {
		t.Run(bin[strings.LastIndexByte(bin, '/')+1:], func(t *testing.T) {
			for k, v := range keys {
				t.Setenv(k, v)
			}
			t.Setenv("AWF_PLAIN_SETTING", "kept-in-bash")
			root, state := t.TempDir(), t.TempDir()
			s, cfgPath := newServer(t, root, state, map[string]any{"sandbox": map[string]any{"mode": "off"}}, 0o600)
			s.cmd = exec.Command(bin, "mcp-serve", "--config", cfgPath)
			s.cmd.Stderr = os.Stderr
			s.cmd.Env = append(os.Environ(), "HOME="+state, "TMPDIR="+state)
			s.connect(t, nil)
			walk := fmt.Sprintf(`p=$PPID; for i in 1 2 3 4 5 6; do [ "$p" = %d ] && { echo reached-cli; break; }
				echo "visit=$(cat /proc/$p/comm)"; tr '\0' '\n' </proc/$p/environ; echo; p=$(cut -d' ' -f4 /proc/$p/stat); done`, os.Getpid())
			out, _ := s.call(t, "Bash", map[string]any{"command": walk})
			if !strings.Contains(out, "reached-cli") || !strings.Contains(out, "visit=awf") {
				t.Fatalf("the walk did not pass mcp-serve on its way to the CLI: %s", out)
			}
			for k, v := range keys {
				if strings.Contains(out, v) {
					t.Errorf("unsandboxed Bash read %s above it:\n%s", k, out)
				}
			}
			env, _ := s.call(t, "Bash", map[string]any{"command": "env"})
			if !strings.Contains(env, "AWF_PLAIN_SETTING=kept-in-bash") || strings.Contains(env, "planted-environ") {
				t.Errorf("Bash's own environment changed: %s", env)
			}
		})
	}
}
