package openai

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/application/validate"
	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// CheckWorkflow plugs into `awf validate` as is.
var _ validate.Check = CheckWorkflow

func TestValidateOptions(t *testing.T) {
	tests := []struct {
		name string
		opts map[string]any
		want []string // "key code hint-fragment", in key order
	}{
		{"all valid, YAML types", map[string]any{
			"base_url": "http://127.0.0.1:11434/v1/", "model": "qwen2.5", "api_key_env": "MY_KEY", "system_prompt": "",
			"temperature": 0.7, "max_tokens": int64(512), "max_turns": 10, "request_timeout": "90s"}, nil},
		{"integral float and int temperature", map[string]any{"max_tokens": 100.0, "temperature": int64(1)}, nil},
		{"misspelt names get a suggestion", map[string]any{"modle": "x", "base-url": "http://h", "max_turn": 3}, []string{
			"base-url " + fault.UserAgentUnknownOption + " did you mean 'base_url'?",
			"max_turn " + fault.UserAgentUnknownOption + " did you mean 'max_turns'?",
			"modle " + fault.UserAgentUnknownOption + " did you mean 'model'?",
		}},
		{"unrelated name lists the valid ones", map[string]any{"flavour": "x"}, []string{"flavour " + fault.UserAgentUnknownOption + " valid: base_url, model"}},
		{"ill-typed values", map[string]any{
			"base_url": "localhost:8080", "model": 3, "api_key_env": "sk-abc def", "temperature": "hot",
			"max_tokens": 1.5, "max_turns": int64(0), "request_timeout": 30}, []string{
			"api_key_env " + fault.UserAgentInvalidOption + " not the key itself",
			"base_url " + fault.UserAgentInvalidOption + " http://127.0.0.1:11434/v1",
			"max_tokens " + fault.UserAgentInvalidOption + " whole number",
			"max_turns " + fault.UserAgentInvalidOption + " between 1 and 1000",
			"model " + fault.UserAgentInvalidOption + " non-empty string",
			"request_timeout " + fault.UserAgentInvalidOption + " 90s or 2m",
			"temperature " + fault.UserAgentInvalidOption + " between 0 and 2",
		}},
		{"well-typed values out of range", map[string]any{
			"api_key_env": " ", "request_timeout": "0s", "temperature": 2.5, "max_turns": 1001, "max_tokens": 0}, []string{
			"api_key_env " + fault.UserAgentInvalidOption + " not the key itself",
			"max_tokens " + fault.UserAgentInvalidOption + " between 1 and 2147483647",
			"max_turns " + fault.UserAgentInvalidOption + " between 1 and 1000",
			"request_timeout " + fault.UserAgentInvalidOption + " 90s or 2m",
			"temperature " + fault.UserAgentInvalidOption + " between 0 and 2",
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := ValidateOptions(tc.opts)
			if len(got) != len(tc.want) {
				t.Fatalf("got %d problems, want %d: %+v", len(got), len(tc.want), got)
			}
			for i, w := range tc.want {
				parts := strings.SplitN(w, " ", 3)
				p := got[i]
				if p.Key != parts[0] || p.Err.Code != parts[1] || !strings.Contains(p.Err.Hint, parts[2]) {
					t.Errorf("problem %d = %s %s (hint %q), want %s", i, p.Key, p.Err.Code, p.Err.Hint, w)
				}
			}
		})
	}
}

func TestOptionValuesNeverEchoAnAPIKeyWrittenAsTheVariableName(t *testing.T) {
	p := ValidateOptions(map[string]any{"api_key_env": "sk-live-abcdef0123456789"})
	if len(p) != 1 || strings.Contains(p[0].Err.Error(), "sk-live") {
		t.Fatalf("problems = %+v: a key pasted into api_key_env must not be repeated", p)
	}
}

func TestResolveSettings(t *testing.T) {
	env := map[string]string{"OPENAI_BASE_URL": "https://api.example.com/v1/chat/completions", "OPENAI_MODEL": "env-model"}
	getenv := func(k string) string { return env[k] }
	s, err := resolveSettings(nil, getenv)
	if err != nil {
		t.Fatal(err)
	}
	if s.BaseURL != "https://api.example.com/v1" || s.Model != "env-model" || s.APIKeyEnv != "OPENAI_API_KEY" ||
		s.MaxTurns != 25 || s.RequestTimeout != 2*time.Minute || s.Temperature != nil || s.MaxTokens != 0 {
		t.Errorf("defaults from the environment = %+v", s)
	}
	s, err = resolveSettings(map[string]any{"base_url": "http://127.0.0.1:8080/v1", "model": "opt-model"}, getenv)
	if err != nil || s.BaseURL != "http://127.0.0.1:8080/v1" || s.Model != "opt-model" {
		t.Errorf("options must win over the environment: %+v, %v", s, err)
	}

	tests := []struct {
		name string
		opts map[string]any
		env  map[string]string
		code string
		hint string
	}{
		{"no base_url anywhere", nil, map[string]string{"OPENAI_MODEL": "m"}, fault.UserAgentMissingOption, "OPENAI_BASE_URL"},
		{"no model anywhere", map[string]any{"base_url": "http://h/v1"}, nil, fault.UserAgentMissingOption, "http://h/v1/models"},
		{"bad env URL", nil, map[string]string{"OPENAI_BASE_URL": "ftp://x", "OPENAI_MODEL": "m"}, fault.UserAgentInvalidOption, "URL"},
		{"unknown option at run time", map[string]any{"modle": "x"}, env, fault.UserAgentUnknownOption, "did you mean 'model'?"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := resolveSettings(tc.opts, func(k string) string { return tc.env[k] })
			if fault.CodeOf(err) != tc.code || !strings.Contains(err.Error(), tc.hint) {
				t.Fatalf("err = %v, want %s with %q", err, tc.code, tc.hint)
			}
			if fault.ExitCode(err) != fault.ExitUser {
				t.Errorf("exit code %d, want 1: the fix is in the workflow or environment", fault.ExitCode(err))
			}
		})
	}
}

func TestBaseURLPasswordIsNotShown(t *testing.T) {
	p := ValidateOptions(map[string]any{"base_url": "ftp://user:hunter2@host/v1"})
	if len(p) != 1 || strings.Contains(p[0].Err.Error(), "hunter2") {
		t.Fatalf("problems = %+v: the password must be redacted", p)
	}
}

func TestCheckWorkflowPointsAtTheOption(t *testing.T) {
	keyPos := fault.Position{File: "wf.yaml", Line: 9, Column: 7}
	valPos := fault.Position{File: "wf.yaml", Line: 10, Column: 20}
	wf := &workflow.Workflow{Order: []string{"ask", "other"}, States: map[string]*workflow.State{
		"ask": {Name: "ask", Type: workflow.StateAgent, Spec: &workflow.AgentSpec{Provider: Name,
			Options: map[string]any{"modle": "x", "max_turns": "many"}},
			KeyPos:   map[string]fault.Position{"options.modle": keyPos},
			ValuePos: map[string]fault.Position{"options.max_turns": valPos}},
		"other": {Name: "other", Type: workflow.StateAgent, Spec: &workflow.AgentSpec{Provider: "claude", Options: map[string]any{"modle": "x"}}},
	}}
	ds := CheckWorkflow(context.Background(), wf)
	if len(ds) != 2 {
		t.Fatalf("diagnostics = %v, want 2 (claude's options are not ours to check)", ds)
	}
	if ds[0].Code != fault.UserAgentInvalidOption || ds[0].Position != valPos || !strings.Contains(ds[0].Message, `step "ask"`) {
		t.Errorf("first = %v, want the invalid max_turns at its value", ds[0])
	}
	if ds[1].Code != fault.UserAgentUnknownOption || ds[1].Position != keyPos || ds[1].Hint != "did you mean 'model'?" {
		t.Errorf("second = %v, want the unknown key at its key", ds[1])
	}
	if len(CheckWorkflow(context.Background(), nil)) != 0 {
		t.Error("a nil workflow has nothing to report")
	}
}

func TestSettingsCarryEveryOption(t *testing.T) {
	s, err := resolveSettings(map[string]any{
		"base_url": "http://127.0.0.1:11434/v1/chat/completions/", "model": "qwen2.5", "api_key_env": "MY_KEY", "system_prompt": "be terse",
		"temperature": int64(1), "max_tokens": 512.0, "max_turns": 10, "request_timeout": "90s"}, func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	temp := 1.0
	want := Settings{BaseURL: "http://127.0.0.1:11434/v1", Model: "qwen2.5", APIKeyEnv: "MY_KEY", SystemPrompt: "be terse",
		Temperature: &temp, MaxTokens: 512, MaxTurns: 10, RequestTimeout: 90 * time.Second}
	if s.Temperature == nil || *s.Temperature != temp {
		t.Fatalf("temperature = %v", s.Temperature)
	}
	s.Temperature = want.Temperature
	if s != want {
		t.Errorf("settings = %+v\nwant       %+v", s, want)
	}
}

func TestRedactURL(t *testing.T) {
	for raw, want := range map[string]string{
		"http://h:1/v1":                "http://h:1/v1",           // nothing to hide
		"https://user:hunter2@h/v1":    "https://user:xxxxx@h/v1", // a parsed password
		"http://us er:hunter2@h:x/v1":  "…@h:x/v1",                // unparsable: everything before @ goes
		"@h/v1":                        "…@h/v1",                  // an @ at the start still cuts
		"http://user@h/v1":             "http://user@h/v1",        // a user alone is no secret
		"::not a url:hunter2@evil.com": "…@evil.com",
	} {
		if got := redactURL(raw); got != want {
			t.Errorf("redactURL(%q) = %q, want %q", raw, got, want)
		}
	}
}
