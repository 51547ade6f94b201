package awfrun_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// failFastBound is how long a CLI that cannot reach or be admitted by its model may take to
// fail, from `awf run` to its exit: the step's own timeout is far longer. opencode 1.18.33
// alone takes 15 to 25 s on a loaded 2-core machine before its first model request (measured:
// "creating instance" to the first "stream" line of its log), so its bound is that much longer.
func failFastBound(cli string) time.Duration {
	if cli == "opencode" {
		return 40 * time.Second
	}
	return 15 * time.Second
}

// badEndpoints are the model servers a CLI cannot use: nothing listening (a port just closed),
// and a server refusing every request with 401 (a missing or wrong key).
func badEndpoints(t *testing.T) map[string]string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	must(t, err)
	closed := "http://" + l.Addr().String()
	_ = l.Close()
	deny := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = w.Write([]byte(`{"error":{"message":"invalid api key","type":"authentication_error","code":"invalid_api_key"}}`))
	}))
	t.Cleanup(deny.Close)
	return map[string]string{"unreachable": closed, "unauthorized": deny.URL}
}

// failingCLI points each CLI at url with no usable key: the options and the environment.
func failingCLI(t *testing.T, name, url, home string) (map[string]any, []string) {
	switch name {
	case "claude":
		return map[string]any{}, []string{"ANTHROPIC_BASE_URL=" + url}
	case "gemini":
		return map[string]any{"model": "gemini-2.5-flash", "base_url": url}, nil
	case "codex":
		// A key codex will send (it refuses to start without one), that the server does not take.
		return map[string]any{"model": "fake-model", "model_provider": "fakemodel", "base_url": url + "/v1", "env_key": "FAKEMODEL_API_KEY"},
			[]string{"FAKEMODEL_API_KEY=sk-not-admitted"}
	case "opencode":
		cfg := filepath.Join(home, "opencode-user.json")
		body, _ := json.Marshal(map[string]any{
			"provider": map[string]any{"fake": map[string]any{
				"npm": "@ai-sdk/openai-compatible", "name": "fake",
				"options": map[string]any{"baseURL": url + "/v1"},
				"models":  map[string]any{"fake-model": map[string]any{"name": "fake-model"}},
			}},
			"model": "fake/fake-model", "small_model": "fake/fake-model",
		})
		must(t, os.WriteFile(cfg, body, 0o600))
		return map[string]any{"model": "fake/fake-model"}, []string{"OPENCODE_CONFIG=" + cfg}
	}
	t.Fatalf("no failing setup for %s", name)
	return nil, nil
}

// TestAgentsThatCannotWorkFailFast: each real CLI pointed at a model server that is not there
// or refuses it, with no usable key, fails its step within failFastBound (its timeout is 3
// minutes), and the error says which CLI, quotes what it printed, and gives that provider's
// hint. Without awf watching the CLI, codex and opencode wait for the network until the
// step's timeout.
func TestAgentsThatCannotWorkFailFast(t *testing.T) {
	for _, name := range []string{"claude", "gemini", "codex", "opencode"} {
		for kind, url := range badEndpoints(t) {
			t.Run(name+"/"+kind, func(t *testing.T) {
				bin := cliDir(t, name)
				root, _ := filepath.EvalSymlinks(t.TempDir())
				dir, home, tmp := filepath.Join(root, "proj"), filepath.Join(root, "home"), filepath.Join(root, "tmp")
				for _, d := range []string{filepath.Join(dir, ".awf", "workflows"), home, tmp} {
					must(t, os.MkdirAll(d, 0o700))
				}
				opts, env := failingCLI(t, name, url, home)
				o, _ := json.Marshal(opts)
				wf := fmt.Sprintf("name: e2e\nstates:\n  initial: agent\n  agent:\n    type: agent\n    provider: %s\n    prompt: say hi\n    options: %s\n    timeout: 3m\n    mcp_proxy:\n      enable: true\n    on_success: done\n    on_failure: failed\n  done: {type: terminal}\n  failed: {type: terminal, status: failure}\n", name, o)
				must(t, os.WriteFile(filepath.Join(dir, ".awf", "workflows", "e2e.yaml"), []byte(wf), 0o644))
				ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
				defer cancel()
				cmd := exec.CommandContext(ctx, awfBin, "run", "e2e", "--format", "json")
				cmd.Dir = dir
				cmd.Env = append([]string{"PATH=" + bin + ":" + os.Getenv("PATH"), "HOME=" + home, "TMPDIR=" + tmp, "LANG=C.UTF-8", "TERM=dumb",
					"NO_PROXY=127.0.0.1,localhost", "no_proxy=127.0.0.1,localhost", "E2E_TAG=" + root}, env...)
				var out, errb bytes.Buffer
				cmd.Stdout, cmd.Stderr = &out, &errb
				start := time.Now()
				_ = cmd.Run()
				took := time.Since(start)
				var s runSummary
				if err := json.Unmarshal(out.Bytes(), &s); err != nil || len(s.Steps) == 0 {
					t.Fatalf("awf run printed no summary (%v):\n%s\nstderr:\n%s", err, out.String(), errb.String())
				}
				msg := s.Steps[0].Error
				t.Logf("%s failed in %s: %s", name, took.Round(100*time.Millisecond), msg)
				if s.Status != "failure" || s.Steps[0].Status != "failure" {
					t.Errorf("run %s, step %s; want both failed", s.Status, s.Steps[0].Status)
				}
				if bound := failFastBound(name); took > bound {
					t.Errorf("the step failed after %s, want within %s", took.Round(time.Second), bound)
				}
				if !strings.Contains(msg, name) || !strings.Contains(msg, "hint:") || !strings.Contains(msg, hintWord[name]) {
					t.Errorf("the error does not name %s or give its hint (%q):\n%s", name, hintWord[name], msg)
				}
				waitNoLeftovers(t, root)
			})
		}
	}
}

// hintWord is a word of each provider's hint: what to set or run.
var hintWord = map[string]string{
	"claude":   "ANTHROPIC_API_KEY",
	"gemini":   "GEMINI_API_KEY",
	"codex":    "base_url",
	"opencode": "OPENCODE_CONFIG",
}
