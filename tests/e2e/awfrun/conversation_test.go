package awfrun_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/awf-dev/awf/tests/e2e/fakemodel"
)

// conversationWorkflow is a seed step that keeps its session and a recall step continuing it,
// both with the given mcp_proxy block.
func conversationWorkflow(provider, opts, proxy, secret string) string {
	step := func(name, prompt, conv, next string) string {
		return fmt.Sprintf(`  %s:
    type: agent
    provider: %s
    prompt: %s
    options: %s
    conversation: %s
    timeout: 4m
    mcp_proxy: %s
    on_success: %s
    on_failure: failed
`, name, provider, prompt, opts, conv, proxy, next)
	}
	return "name: e2e\nstates:\n  initial: seed\n" +
		step("seed", "Remember the word "+secret+". Reply with stored.", "{}", "recall") +
		step("recall", "What was the word I told you to remember?", "{continue_from: seed}", "done") +
		"  done:\n    type: terminal\n  failed:\n    type: terminal\n    status: failure\n"
}

// stateConversation reads the recall step's persisted session from the run's state.json.
func stateConversation(t *testing.T, p *project, runID string) (id string, turns int) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(p.dir, ".awf", "runs", runID, "state.json"))
	must(t, err)
	var st struct {
		Steps []struct {
			Name         string
			Conversation *struct {
				SessionID  string `json:"session_id"`
				TotalTurns int    `json:"total_turns"`
			}
		}
	}
	must(t, json.Unmarshal(b, &st))
	for _, s := range st.Steps {
		if s.Name == "recall" && s.Conversation != nil {
			return s.Conversation.SessionID, s.Conversation.TotalTurns
		}
	}
	t.Fatalf("no conversation recorded for recall in state.json:\n%s", b)
	return "", 0
}

// TestConversationContinueFrom: the recall step continues the seed's session, so the model sees
// the seed's secret in the recall's request although the recall's prompt does not hold it:
// claude, opencode, codex and gemini through their own session stores (--resume, --session,
// `exec resume`, --resume), openai_compatible by awf sending the kept turns again. codex and
// gemini run with awf's private home when the step has a proxy (gemini also with base_url), a
// home awf keeps for the run so that the session can be resumed from it: the cases with the
// proxy prove that, codex without one the user's own ~/.codex (the test's HOME).
func TestConversationContinueFrom(t *testing.T) {
	const off, on = "{enable: false}", "{enable: true, intercept_builtins: true}"
	for _, tc := range []struct{ name, provider, proxy string }{
		{"claude", "claude", off},
		{"opencode", "opencode", off},
		{"openai_compatible", "openai_compatible", off},
		{"codex", "codex", off},
		{"codex_proxy", "codex", on},
		{"gemini", "gemini", off},
		{"gemini_proxy", "gemini", on},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// openai_compatible needs no CLI, but the project helper sets one up: claude's is used.
			c := clis[0]
			for _, k := range clis {
				if k.name == tc.provider {
					c = k
				}
			}
			p := newProject(t, c, func(*project) fakemodel.Script { return fakemodel.Script{FinalText: "stored"} }, "      enable: false")
			tmp := privateTmp(t, p)
			secret := "BANANA-" + p.marker
			o, _ := json.Marshal(c.options(p.fake.URL))
			opts := string(o)
			if tc.provider == "openai_compatible" {
				opts = fmt.Sprintf(`{base_url: %q, model: fake-model, api_key_env: FAKEMODEL_API_KEY}`, p.fake.URL+"/v1")
				p.env = append(p.env, "FAKEMODEL_API_KEY=sk-e2e")
			}
			wf := conversationWorkflow(tc.provider, opts, tc.proxy, secret)
			must(t, os.WriteFile(filepath.Join(p.dir, ".awf", "workflows", "e2e.yaml"), []byte(wf), 0o644))
			sum, _ := p.run(t)
			if len(sum.Steps) != 2 {
				t.Fatalf("steps %+v", sum.Steps)
			}
			var recallReqs, withSecret int
			for _, r := range p.fake.Requests() {
				body := string(r.Body)
				if !strings.Contains(body, "What was the word I told you to remember?") {
					continue
				}
				recallReqs++
				if strings.Contains(body, secret) {
					withSecret++
				}
			}
			if recallReqs == 0 || withSecret == 0 {
				t.Fatalf("%d recall requests, %d of them with the seed's secret: the session was not continued\n%s", recallReqs, withSecret, p.fake.Summary())
			}
			id, turns := stateConversation(t, p, sum.RunID)
			if turns != 2 || (tc.provider != "openai_compatible" && id == "") {
				t.Errorf("recall's session: id %q, %d turns", id, turns)
			}
			noRunTmpLeft(t, tmp)
			waitNoLeftovers(t, filepath.Dir(p.home))
		})
	}
}

// privateTmp gives awf and the CLIs a TMPDIR of the test's own, so that what awf keeps there
// for a run (the session homes of codex and gemini) can be checked to be gone afterwards.
func privateTmp(t *testing.T, p *project) string {
	t.Helper()
	tmp := filepath.Join(filepath.Dir(p.home), "tmp")
	must(t, os.MkdirAll(tmp, 0o700))
	p.env = append(p.env, "TMPDIR="+tmp)
	return tmp
}

// noRunTmpLeft fails when a run's private temp directory outlived the run.
func noRunTmpLeft(t *testing.T, tmp string) {
	t.Helper()
	left, _ := filepath.Glob(filepath.Join(tmp, "awf-run-*"))
	if len(left) > 0 {
		t.Errorf("the run's private temp directory outlived the run: %v", left)
	}
}

// TestConversationTurnsReachTheProxy: a seed step allowed only to read calls Read through awf's
// proxy; the step continuing its session, allowed everything, calls Bash. The CLI's mcp-serve
// records each call with its turn (1 for the seed, 2 for the continuation, which goes on
// counting), and the continuation's model request holds the seed's Read: the session was
// resumed with the proxy attached on both turns.
func TestConversationTurnsReachTheProxy(t *testing.T) {
	for _, c := range clis {
		t.Run(c.name, func(t *testing.T) {
			p := newProject(t, c, func(p *project) fakemodel.Script {
				return fakemodel.Script{FinalText: finalText, WantTools: []fakemodel.ToolCall{
					{Name: "Read", Args: map[string]any{"file_path": p.file}},
					{Name: "Bash", Args: map[string]any{"command": "echo BASH-$((6*7))-" + p.marker}},
				}}
			}, "      enable: false")
			tmp := privateTmp(t, p)
			o, _ := json.Marshal(c.options(p.fake.URL))
			step := func(name, prompt, conv, allow, next string) string {
				return fmt.Sprintf(`  %s:
    type: agent
    provider: %s
    prompt: %s
    options: %s
    conversation: %s
    timeout: 4m
    mcp_proxy: {enable: true, intercept_builtins: true, sandbox: {mode: off}%s}
    on_success: %s
    on_failure: failed
`, name, c.name, prompt, o, conv, allow, next)
			}
			wf := "name: e2e\nstates:\n  initial: seed\n" +
				step("seed", "Read secret.txt.", "{}", ", intent: {allow: [read]}", "act") +
				step("act", "Now run the command you are given.", "{continue_from: seed}", "", "done") +
				"  done:\n    type: terminal\n  failed:\n    type: terminal\n    status: failure\n"
			must(t, os.WriteFile(filepath.Join(p.dir, ".awf", "workflows", "e2e.yaml"), []byte(wf), 0o644))
			sum, _ := p.run(t)

			b, err := os.ReadFile(filepath.Join(p.dir, ".awf", "runs", sum.RunID, "activity.jsonl"))
			must(t, err)
			var got []string
			for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
				var r struct {
					Tool, Step, Outcome string
					Turn                int
				}
				must(t, json.Unmarshal([]byte(l), &r))
				got = append(got, fmt.Sprintf("%s/%s/%s/turn %d", r.Step, r.Tool, r.Outcome, r.Turn))
			}
			if want := "seed/Read/success/turn 1, act/Bash/success/turn 2"; strings.Join(got, ", ") != want {
				t.Fatalf("activity %v, want %s\n%s", got, want, p.fake.Summary())
			}
			resumed := false
			for _, r := range p.fake.Requests() {
				body := string(r.Body)
				if strings.Contains(body, "Now run the command you are given.") && strings.Contains(body, p.marker) {
					resumed = true
				}
			}
			if !resumed {
				t.Errorf("no request of the act step held the seed's Read result: the session was not resumed\n%s", p.fake.Summary())
			}
			if out := sum.Steps[1].Output; !strings.Contains(out, p.bashMarker) {
				t.Errorf("act's Output lacks the Bash output: %q", out)
			}
			noRunTmpLeft(t, tmp)
			waitNoLeftovers(t, filepath.Dir(p.home))
		})
	}
}

// runWithInput is project.run with the user's conversation turns on standard input.
func (p *project) runWithInput(t *testing.T, input string) runSummary {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, awfBin, "run", "e2e", "--format", "json")
	cmd.Dir, cmd.Env, cmd.Stdin = p.dir, p.env, strings.NewReader(input)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var s runSummary
	if jerr := json.Unmarshal(out.Bytes(), &s); jerr != nil || err != nil || s.Status != "success" {
		t.Fatalf("awf run: %v, status %q (%v)\n%s\nstderr:\n%s\nfake:\n%s", err, s.Status, jerr, out.String(), errb.String(), p.fake.Summary())
	}
	return s
}

// TestConversationModeTurns: a `mode: conversation` step with the proxy attached takes the
// user's next message from standard input and continues its own session with it, until the
// input ends: two turns, the second request holding the first turn's secret.
func TestConversationModeTurns(t *testing.T) {
	for _, c := range clis {
		t.Run(c.name, func(t *testing.T) {
			p := newProject(t, c, func(*project) fakemodel.Script { return fakemodel.Script{FinalText: "stored"} }, "      enable: false")
			tmp := privateTmp(t, p)
			secret := "KIWI-" + p.marker
			o, _ := json.Marshal(c.options(p.fake.URL))
			wf := fmt.Sprintf(`name: e2e
states:
  initial: recall
  recall:
    type: agent
    provider: %s
    mode: conversation
    prompt: Remember the word %s. Reply with stored.
    options: %s
    timeout: 4m
    mcp_proxy: {enable: true, intercept_builtins: true}
    on_success: done
    on_failure: failed
  done:
    type: terminal
  failed:
    type: terminal
    status: failure
`, c.name, secret, o)
			must(t, os.WriteFile(filepath.Join(p.dir, ".awf", "workflows", "e2e.yaml"), []byte(wf), 0o644))
			sum := p.runWithInput(t, "What was the word I told you to remember?\n")
			second := 0
			for _, r := range p.fake.Requests() {
				body := string(r.Body)
				if strings.Contains(body, "What was the word I told you to remember?") && strings.Contains(body, secret) {
					second++
				}
			}
			if second == 0 {
				t.Fatalf("no request of the second turn held the first turn's secret: the session was not continued\n%s", p.fake.Summary())
			}
			if id, turns := stateConversation(t, p, sum.RunID); turns != 2 || id == "" {
				t.Errorf("the step's session: id %q, %d turns, want 2", id, turns)
			}
			noRunTmpLeft(t, tmp)
			waitNoLeftovers(t, filepath.Dir(p.home))
		})
	}
}
