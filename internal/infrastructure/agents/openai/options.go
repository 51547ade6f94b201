package openai

import (
	"context"
	"fmt"
	"math"
	"net/url"
	"sort"
	"strings"
	"time"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// Defaults of the step options.
const (
	DefaultAPIKeyEnv      = "OPENAI_API_KEY"
	DefaultMaxTurns       = 25
	DefaultRequestTimeout = 2 * time.Minute
	// maxMaxTurns bounds max_turns: a loop that needs more turns than this is a loop.
	maxMaxTurns = 1000
)

// Environment variables read when the step does not set the option.
const (
	EnvBaseURL = "OPENAI_BASE_URL"
	EnvModel   = "OPENAI_MODEL"
)

// OptionNames lists every option the provider understands, in the order the docs give them;
// did-you-mean suggestions prefer earlier names on ties.
var OptionNames = []string{
	"base_url", "model", "api_key_env", "system_prompt",
	"temperature", "max_tokens", "max_turns", "request_timeout",
}

// Settings are a step's options after parsing and environment fallbacks.
type Settings struct {
	BaseURL        string // without a trailing slash, e.g. http://127.0.0.1:11434/v1
	Model          string
	APIKeyEnv      string
	SystemPrompt   string
	Temperature    *float64 // nil: the server's default
	MaxTokens      int      // 0: not sent
	MaxTurns       int
	RequestTimeout time.Duration
}

// OptionProblem is one problem with one option. Key lets a caller point at the option's line
// ("options.<Key>" in the state's positions).
type OptionProblem struct {
	Key string
	Err *fault.Error
}

// ValidateOptions reports every unknown or ill-typed option of a step, with a did-you-mean for
// misspelt names. It is static: it does not look at the environment, so a missing base_url is
// not reported here (OPENAI_BASE_URL may supply it at run time).
func ValidateOptions(opts map[string]any) []OptionProblem {
	_, problems := parseOptions(opts)
	return problems
}

// CheckWorkflow validates the options of every openai_compatible step of wf. Its signature is
// that of validate.Check, so `awf validate` and `awf run` can add it to their checks as is.
func CheckWorkflow(_ context.Context, wf *workflow.Workflow) fault.Diagnostics {
	var ds fault.Diagnostics
	if wf == nil {
		return ds
	}
	for _, name := range wf.Order {
		st := wf.States[name]
		if st == nil || st.Agent() == nil || st.Agent().Provider != Name {
			continue
		}
		for _, p := range ValidateOptions(st.Agent().Options) {
			pos := st.KeyAt("options." + p.Key)
			if p.Err.Code == fault.UserAgentInvalidOption {
				pos = st.ValueAt("options." + p.Key)
			}
			ds.Errorf(pos, p.Err.Code, p.Err.Hint, "step %q: %s", name, p.Err.Message)
		}
	}
	return ds
}

// parseOptions reads the step's options without environment fallbacks. Values come from YAML,
// so numbers may be int, int64 or float64; every problem is reported, not only the first.
func parseOptions(opts map[string]any) (Settings, []OptionProblem) {
	s := Settings{APIKeyEnv: DefaultAPIKeyEnv, MaxTurns: DefaultMaxTurns, RequestTimeout: DefaultRequestTimeout}
	var problems []OptionProblem
	bad := func(key, hint, format string, args ...any) {
		problems = append(problems, OptionProblem{Key: key, Err: fault.New(fault.UserAgentInvalidOption, format, args...).WithHint("%s", hint)})
	}
	keys := make([]string, 0, len(opts))
	for k := range opts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, key := range keys {
		v := opts[key]
		switch key {
		case "base_url":
			str, ok := v.(string)
			if !ok {
				bad(key, "write it as a URL such as http://127.0.0.1:11434/v1", "option base_url must be a string, got %s", typeName(v))
				continue
			}
			u, err := normalizeBaseURL(str)
			if err != nil {
				bad(key, "write it as a URL such as http://127.0.0.1:11434/v1", "option base_url: %v", err)
				continue
			}
			s.BaseURL = u
		case "model", "api_key_env", "system_prompt":
			str, ok := v.(string)
			if !ok || (key != "system_prompt" && strings.TrimSpace(str) == "") {
				bad(key, "write it as a non-empty string", "option %s must be a non-empty string, got %s", key, typeName(v))
				continue
			}
			switch key {
			case "model":
				s.Model = str
			case "api_key_env":
				if !validEnvName(str) {
					bad(key, "name the environment variable that holds the key, e.g. OPENAI_API_KEY (not the key itself)",
						"option api_key_env must be an environment variable name (letters, digits, _)")
					continue
				}
				s.APIKeyEnv = str
			default:
				s.SystemPrompt = str
			}
		case "temperature":
			f, ok := number(v)
			if !ok || f < 0 || f > 2 {
				bad(key, "use a number between 0 and 2, e.g. 0.2", "option temperature must be a number between 0 and 2, got %s", describe(v))
				continue
			}
			s.Temperature = &f
		case "max_tokens", "max_turns":
			n, ok := integer(v)
			limit := math.MaxInt32
			if key == "max_turns" {
				limit = maxMaxTurns
			}
			if !ok || n < 1 || n > limit {
				bad(key, fmt.Sprintf("use a whole number between 1 and %d", limit), "option %s must be a whole number between 1 and %d, got %s", key, limit, describe(v))
				continue
			}
			if key == "max_tokens" {
				s.MaxTokens = n
			} else {
				s.MaxTurns = n
			}
		case "request_timeout":
			str, ok := v.(string)
			d, err := time.ParseDuration(str)
			if !ok || err != nil || d <= 0 {
				bad(key, "write a Go duration such as 90s or 2m", "option request_timeout must be a positive duration, got %s", describe(v))
				continue
			}
			s.RequestTimeout = d
		default:
			problems = append(problems, OptionProblem{Key: key, Err: fault.New(fault.UserAgentUnknownOption,
				"unknown option %q for provider %s", key, Name).WithHint("%s", workflow.DidYouMean(key, OptionNames))})
		}
	}
	return s, problems
}

// resolveSettings parses the options and fills base_url and model from the environment. The
// first problem is returned as the error: Run cannot start with any of them.
func resolveSettings(opts map[string]any, getenv func(string) string) (Settings, error) {
	s, problems := parseOptions(opts)
	if len(problems) > 0 {
		return s, problems[0].Err
	}
	if s.BaseURL == "" {
		env := strings.TrimSpace(getenv(EnvBaseURL))
		if env == "" {
			return s, fault.New(fault.UserAgentMissingOption, "provider %s needs an endpoint: neither options.base_url nor %s is set", Name, EnvBaseURL).
				WithHint("set options.base_url or export %s, e.g. http://127.0.0.1:11434/v1 for Ollama", EnvBaseURL)
		}
		u, err := normalizeBaseURL(env)
		if err != nil {
			return s, fault.New(fault.UserAgentInvalidOption, "%s: %v", EnvBaseURL, err).WithHint("export it as a URL such as http://127.0.0.1:11434/v1")
		}
		s.BaseURL = u
	}
	if s.Model == "" {
		s.Model = strings.TrimSpace(getenv(EnvModel))
		if s.Model == "" {
			return s, fault.New(fault.UserAgentMissingOption, "provider %s needs a model: neither options.model nor %s is set", Name, EnvModel).
				WithHint("set options.model or export %s (GET %s/models lists what the server offers)", EnvModel, s.BaseURL)
		}
	}
	return s, nil
}

// normalizeBaseURL checks an endpoint URL and drops a trailing slash or a pasted
// /chat/completions, so both ".../v1" and ".../v1/chat/completions" work.
func normalizeBaseURL(raw string) (string, error) {
	raw = strings.TrimSpace(raw)
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("%q is not an http(s) URL with a host", redactURL(raw))
	}
	u.Path = strings.TrimSuffix(strings.TrimRight(u.Path, "/"), "/chat/completions")
	u.RawPath = ""
	return strings.TrimRight(u.String(), "/"), nil
}

// redactURL hides a password written into a URL before it reaches a message.
func redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.User == nil {
		if i := strings.Index(raw, "@"); i >= 0 {
			return "…" + raw[i:]
		}
		return raw
	}
	return u.Redacted()
}

func validEnvName(s string) bool {
	if s == "" || (s[0] >= '0' && s[0] <= '9') {
		return false
	}
	for _, r := range s {
		if !(r == '_' || (r >= 'A' && r <= 'Z') || (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9')) {
			return false
		}
	}
	return true
}

// number accepts any numeric YAML value.
func number(v any) (float64, bool) {
	switch n := v.(type) {
	case int:
		return float64(n), true
	case int64:
		return float64(n), true
	case float64:
		return n, !math.IsNaN(n) && !math.IsInf(n, 0)
	}
	return 0, false
}

// integer accepts ints and integral floats (JSON and some YAML paths produce 100.0).
func integer(v any) (int, bool) {
	f, ok := number(v)
	if !ok || f != math.Trunc(f) || f < math.MinInt32 || f > math.MaxInt32 {
		return 0, false
	}
	return int(f), true
}

func typeName(v any) string {
	switch v.(type) {
	case nil:
		return "nothing"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case int, int64, float64:
		return "a number"
	case []any:
		return "a list"
	case map[string]any:
		return "a mapping"
	}
	return fmt.Sprintf("%T", v)
}

// describe shows a scalar value, or its type for anything larger.
func describe(v any) string {
	switch v.(type) {
	case string, int, int64, float64, bool:
		s := fmt.Sprintf("%v", v)
		if len(s) > 40 {
			s = s[:40] + "…"
		}
		return fmt.Sprintf("%q", s)
	}
	return typeName(v)
}
