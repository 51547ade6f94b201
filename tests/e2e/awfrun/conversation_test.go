package awfrun_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

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
			waitNoLeftovers(t, p.home[:len(p.home)-len("/home")])
		})
	}
}
