package gemini

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/infrastructure/agents/cli/clitest"
)

func TestRunWithTheProxy(t *testing.T) {
	h := clitest.New(t)
	user := filepath.Join(h.Home, ".gemini")
	if err := os.MkdirAll(user, 0o700); err != nil {
		t.Fatal(err)
	}
	for name, content := range map[string]string{
		"settings.json":    `{"security":{"auth":{"selectedType":"oauth-personal"}},"mcpServers":{"mine":{"command":"x"}}}`,
		"oauth_creds.json": `{"refresh_token":"r"}`,
	} {
		if err := os.WriteFile(filepath.Join(user, name), []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	check := h.Watch(Name)
	opts := h.Options("testdata/success.json", map[string]any{"model": "gemini-fake", "system_prompt": "be terse",
		// The step may say where its user's gemini home is; the CLI still gets the private one.
		"env": map[string]any{"GEMINI_CLI_HOME": h.Home}})
	out, err := New(h.Config("GEMINI_API_KEY=k")).Run(context.Background(), h.Request("read marker.txt", opts, h.Attach(true, "Read", "Bash")))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.Output, "MARKER-42") || out.InputTokens != 133 || out.OutputTokens != 42 {
		t.Errorf("result = %+v", out)
	}
	rec := h.Read()
	priv := filepath.Join(h.TempDir, "gemini")
	want := []string{"--output-format", "json", "--skip-trust", "--model=gemini-fake", "--allowed-mcp-server-names=awf",
		"--policy=" + priv + "/policy.toml", "--prompt=read marker.txt"}
	if !reflect.DeepEqual(rec.Args, want) {
		t.Errorf("argv\n got %q\nwant %q", rec.Args, want)
	}
	if rec.Env["GEMINI_CLI_HOME"] != priv+"/home" || rec.Env["GEMINI_SYSTEM_MD"] != priv+"/system.md" ||
		rec.Env["GEMINI_API_KEY"] != "k" || rec.Env["HOME"] != h.Home {
		t.Errorf("env = %v", rec.Env)
	}
	settings := rec.Files["gemini/home/.gemini/settings.json"]
	if !strings.Contains(settings, `"oauth-personal"`) || !strings.Contains(settings, `"trust": true`) || strings.Contains(settings, `"mine"`) {
		t.Errorf("private settings = %s", settings)
	}
	if rec.Files["gemini/home/.gemini/oauth_creds.json"] != `{"refresh_token":"r"}` || rec.Files["gemini/system.md"] != "be terse" ||
		!strings.Contains(rec.Files["gemini/policy.toml"], `mcpName = "awf"`) {
		t.Errorf("private files = %v", rec.Files)
	}
	check()
}

func TestRunPlainLeavesNoPrivateDir(t *testing.T) {
	h := clitest.New(t)
	check := h.Watch(Name)
	out, err := New(h.Config()).Run(context.Background(), h.Request("hi", h.Options("testdata/success.json", nil), nil))
	if err != nil || out.Output == "" {
		t.Fatalf("%+v %v", out, err)
	}
	rec := h.Read()
	if _, ok := rec.Env["GEMINI_CLI_HOME"]; ok {
		t.Error("without a proxy the user's own gemini home must be used")
	}
	check()
}

func TestRunErrors(t *testing.T) {
	h := clitest.New(t)
	stderr := string(read(t, "auth_error.stderr"))
	_, err := New(h.Config()).Run(context.Background(), h.Request("p", h.Options("", map[string]any{
		"env": map[string]any{"FAKE_EXIT": "41", "FAKE_STDERR": stderr}}), nil))
	if fault.CodeOf(err) != fault.ExecutionAgentError || !strings.Contains(err.Error(), "Invalid auth method selected") {
		t.Fatalf("got %v", err)
	}
	_, err = New(h.Config()).Run(context.Background(), h.Request("p", h.Options("", nil), h.Attach(true, "web_fetch")))
	if fault.CodeOf(err) != fault.UserMCPProxyShadowedByBuiltin {
		t.Fatalf("got %v", err)
	}
}

func TestRunCancelKillsTheGroup(t *testing.T) {
	h := clitest.New(t)
	h.CheckCancel(New(h.Config()), h.Attach(true, "Read"))
}
