package cli_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/infrastructure/plugins/plugintest"
)

// TestPluginsListEscapesServerText: a bridged server whose tool name and description hold a
// clear-screen sequence, an OSC 52 clipboard write, a carriage return before a forged "✓" line
// and bidi and zero-width characters, or that writes them to stderr and dies before
// initialize, cannot reach the terminal through `awf plugins list`: the text output holds no raw
// ESC, BEL, CR or format character and shows the text escaped, and no line starts with the
// forged "✓"; the JSON output is JSON-escaped.
func TestPluginsListEscapesServerText(t *testing.T) {
	bin := plugintest.MCPFixture(t, t.TempDir())
	for _, mode := range []string{"tools", "start"} {
		t.Run(mode, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.MkdirAll(filepath.Join(dir, ".awf"), 0o755); err != nil {
				t.Fatal(err)
			}
			body := fmt.Sprintf("plugins:\n  fix:\n    type: mcp\n    command: %s\n    env: {FIXTURE_HOSTILE: %s}\n", bin, mode)
			if err := os.WriteFile(filepath.Join(dir, ".awf", "plugins.yaml"), []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
			env := []string{"HOME=" + dir, "TMPDIR=" + dir}
			text := awf(t, dir, env, "plugins", "list")
			out := text.stdout + text.stderr
			if strings.ContainsAny(out, "\x1b\x07\r\u202e\u200b") {
				t.Errorf("raw control characters reach the terminal:\n%q", out)
			}
			if !strings.Contains(out, `\x1b[2J`) || !strings.Contains(out, `\u202e`) {
				t.Errorf("the server's text is not shown escaped (exit %d):\n%s", text.code, out)
			}
			for _, line := range strings.Split(out, "\n") {
				if strings.HasPrefix(strings.TrimSpace(line), "✓") {
					t.Errorf("a forged line: %q", line)
				}
			}
			js := awf(t, dir, env, "plugins", "list", "--format", "json")
			if strings.ContainsAny(js.stdout, "\x1b\x07\r") || !strings.Contains(js.stdout, `\u001b[2J`) {
				t.Errorf("json output not escaped:\n%q", js.stdout)
			}
		})
	}
}
