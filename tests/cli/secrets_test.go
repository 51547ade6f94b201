package cli_test

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/encoding/prototext"

	"github.com/awf-dev/awf/tests/testkit"
)

// plantedShapes are tokens of every well-known shape, fake but well formed.
func plantedShapes() map[string]string {
	r := func(n int) string { // letters and digits only, random per run
		b := make([]byte, n)
		_, _ = rand.Read(b)
		const abc = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
		for i := range b {
			b[i] = abc[int(b[i])%len(abc)]
		}
		return string(b)
	}
	up := func(n int) string { return strings.ToUpper(r(n)) }
	return map[string]string{
		"github":      "ghp_" + r(36),
		"github-fine": "github_pat_" + r(82),
		"gitlab":      "glpat-" + r(20),
		"aws":         "AKIA" + strings.Map(func(c rune) rune { return 'A' + (c % 26) }, up(16)),
		"openai":      "sk-proj-" + r(74) + "T3BlbkFJ" + r(74),
		"anthropic":   "sk-ant-api03-" + r(93) + "AA",
		"google":      "AIza" + r(35),
		"slack":       "xoxb-1234567890-1234567890123-" + r(24),
		"npm":         "npm_" + r(36),
		"huggingface": "hf_" + strings.Map(func(c rune) rune { return 'a' + (c % 26) }, r(34)),
		"jwt":         "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIx" + r(20) + "In0." + r(43),
		"private-key": "-----BEGIN OPENSSH PRIVATE KEY-----\n" + r(70) + "\n" + r(70) + "\n-----END OPENSSH PRIVATE KEY-----",
	}
}

// scriptedModel is an OpenAI-compatible endpoint that plays a hostile script: a Bash call that
// prints every planted secret and fails, a call to a tool whose name is a secret, a Read of a
// file full of secrets, then a final answer that repeats the model key it was sent.
func scriptedModel(t *testing.T, bashCommand string, secretName string) *httptest.Server {
	toolCall := func(id, name string, args map[string]any) string {
		a, _ := json.Marshal(args)
		c, _ := json.Marshal(map[string]any{"choices": []any{map[string]any{"index": 0, "finish_reason": "tool_calls",
			"delta": map[string]any{"tool_calls": []any{map[string]any{"index": 0, "id": id, "type": "function",
				"function": map[string]any{"name": name, "arguments": string(a)}}}}}}})
		return string(c)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The turn is read from the conversation (one tool result per earlier turn), so every
		// run plays the whole script.
		var req struct {
			Messages []struct{ Role string } `json:"messages"`
		}
		_ = json.NewDecoder(r.Body).Decode(&req)
		n := 1
		for _, m := range req.Messages {
			if m.Role == "tool" {
				n++
			}
		}
		var event string
		switch n {
		case 1:
			event = toolCall("c1", "Bash", map[string]any{"command": bashCommand})
		case 2:
			event = toolCall("c2", secretName, map[string]any{"x": 1})
		case 3:
			event = toolCall("c3", "Read", map[string]any{"file_path": "secrets.txt"})
		default:
			key := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
			c, _ := json.Marshal(map[string]any{"choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
				"delta": map[string]any{"content": "done; the key I was sent is " + key}}}})
			event = string(c)
		}
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprintf(w, "data: %s\n\ndata: [DONE]\n\n", event)
	}))
	t.Cleanup(srv.Close)
	return srv
}

const secretsWorkflow = `name: leaky
states:
  initial: ask
  ask:
    type: agent
    provider: openai_compatible
    prompt: go
    options:
      base_url: %s
      model: m
      api_key_env: LLM_APIKEY
    mcp_proxy:
      enable: true
      env_passthrough: [GITHUB_TOKEN]
    on_success: echo
    on_failure: echo
  echo:
    type: command
    command: echo "token=$GITHUB_TOKEN npm=$NPM_TOKEN"; echo "{{.states.ask.Output}}"; exit 1
    on_success: done
    on_failure: done
  done:
    type: terminal
`

// TestSecretsReachNoRecord plants secrets of every shape, two secret-named variables' values and
// a truncated excerpt of one in tool output, errors, arguments, a tool name and step output, and
// runs the real binary: none reaches the activity file, run.log, an exported span or the terminal.
func TestSecretsReachNoRecord(t *testing.T) {
	shapes := plantedShapes()
	ghToken := "gh-" + hex.EncodeToString([]byte(time.Now().String()))[:30] + "/Xq+9" // no known shape
	npmToken := "np-" + strings.Repeat("Qw3rTy", 5)
	modelKey := "mk-" + strings.Repeat("Lm4oP9", 5) // named by api_key_env only
	var echoShapes []string
	for _, s := range shapes {
		echoShapes = append(echoShapes, s)
	}
	script := "printf '%s\\n' \"$GITHUB_TOKEN\" " + shellWords(echoShapes) + "; " +
		"printf 'x%.0s' $(seq 1 1010); echo \"$GITHUB_TOKEN\"; echo cut=" + ghToken[:12] + "; exit 3"
	model := scriptedModel(t, script, "tool_"+shapes["github"])

	dir := project(t, map[string]string{"leaky.yaml": fmt.Sprintf(secretsWorkflow, model.URL+"/v1")})
	if err := os.WriteFile(filepath.Join(dir, "secrets.txt"), []byte(strings.Join(echoShapes, "\n")+"\n"+npmToken+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	otlp := testkit.NewOTLPReceiver()
	defer otlp.Close()
	env := []string{"HOME=" + t.TempDir(), "TMPDIR=" + t.TempDir(), "GITHUB_TOKEN=" + ghToken, "NPM_TOKEN=" + npmToken,
		"LLM_APIKEY=" + modelKey, "OTEL_EXPORTER_OTLP_ENDPOINT=" + otlp.URL, "OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf", "OTEL_TRACES_EXPORTER=otlp"}

	text := awf(t, dir, env, "run", "leaky")
	jsonRun := awf(t, dir, env, "run", "leaky", "--format", "json")
	table := awf(t, dir, env, "activity", "list")
	list := awf(t, dir, env, "activity", "list", "-o", "json")

	var files []string
	for _, pattern := range []string{"run.log", "activity.jsonl"} {
		m, _ := filepath.Glob(filepath.Join(dir, ".awf", "runs", "*", pattern))
		files = append(files, m...)
	}
	if len(files) != 4 {
		t.Fatalf("want 2 runs' logs and activity files, got %v\n%s%s", files, text.stdout, text.stderr)
	}
	outputs := map[string]string{
		"run stdout": text.stdout, "run stderr": text.stderr, "json stdout": jsonRun.stdout, "json stderr": jsonRun.stderr,
		"activity table": table.stdout, "activity json": list.stdout,
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		outputs[f] = string(b)
	}
	var spanText strings.Builder
	for _, s := range otlp.Spans() {
		spanText.WriteString(prototext.Format(s))
	}
	outputs["spans"] = spanText.String()

	// The run really happened: the Bash call, the odd tool and the Read are recorded, masked.
	if !strings.Contains(list.stdout, `"tool": "Bash"`) || !strings.Contains(list.stdout, `"tool": "Read"`) ||
		!strings.Contains(list.stdout, "[REDACTED") || !strings.Contains(list.stdout, `"code": "EXECUTION.TOOL.FAILED"`) ||
		!strings.Contains(list.stdout, `"code": "USER.TOOL.NOT_FOUND"`) || !strings.Contains(outputs["spans"], "tool.call") {
		t.Fatalf("the run did not go as scripted:\n%s\n%s%s", list.stdout, text.stdout, text.stderr)
	}
	// GITHUB_TOKEN was handed to Bash (env_passthrough): its value was printed, then masked.
	if !strings.Contains(list.stdout, "[REDACTED]") {
		t.Errorf("the passed-through token never reached Bash:\n%s", list.stdout)
	}
	for where, out := range outputs {
		for name, s := range shapes {
			if strings.Contains(out, s[:min(len(s), 20)]) {
				t.Errorf("%s: the %s token leaks", where, name)
			}
		}
		for name, s := range map[string]string{"GITHUB_TOKEN": ghToken, "NPM_TOKEN": npmToken, "api_key_env": modelKey} {
			for i := 0; i+8 <= len(s); i++ {
				if strings.Contains(out, s[i:i+8]) {
					t.Errorf("%s: 8 bytes of %s leak (%q)", where, name, s[i:i+8])
					break
				}
			}
		}
	}
	if t.Failed() {
		t.Logf("run output:\n%s%s", text.stdout, text.stderr)
	}
}

// shellWords quotes each word for sh.
func shellWords(ws []string) string {
	q := make([]string, len(ws))
	for i, w := range ws {
		q[i] = "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
	}
	return strings.Join(q, " ")
}

// TestBashDropsSecretNamedVariables: the probe (GH_TOKEN, AWS keys, NPM_TOKEN, HF_TOKEN
// all reached Bash); env_passthrough hands one on deliberately.
func TestBashDropsSecretNamedVariables(t *testing.T) {
	dir := project(t, map[string]string{"leaky.yaml": fmt.Sprintf(secretsWorkflow, "http://127.0.0.1:9/v1")})
	env := []string{"HOME=" + t.TempDir(), "TMPDIR=" + t.TempDir(), "GITHUB_TOKEN=ghtokenvalue123", "GH_TOKEN=x1", "AWS_SECRET_ACCESS_KEY=x2",
		"AWS_SESSION_TOKEN=x3", "NPM_TOKEN=x4", "HF_TOKEN=x5", "DB_PASSWORD=x6", "PLAIN_VAR=kept"}
	cmd := `{"command":"echo [$GITHUB_TOKEN$GH_TOKEN$AWS_SECRET_ACCESS_KEY$AWS_SESSION_TOKEN$NPM_TOKEN$HF_TOKEN$DB_PASSWORD] [$PLAIN_VAR] [${#GITHUB_TOKEN}]"}`
	r := awf(t, dir, env, "call", "tool-destructive", "Bash", "--args", cmd)
	if r.code != 0 || !strings.Contains(r.stdout, "[] [kept] [0]") {
		t.Fatalf("without passthrough: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = awf(t, dir, env, "call", "tool-destructive", "Bash", "--args", cmd, "--workflow", "leaky", "--step", "ask")
	if r.code != 0 || !strings.Contains(r.stdout, "[[REDACTED]] [kept] [15]") {
		t.Fatalf("with env_passthrough [GITHUB_TOKEN]: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}
