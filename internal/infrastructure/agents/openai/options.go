package openai

import (
	"context"
	"fmt"
	"math"
	"net/url"
	"strings"
	"time"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/workflow"
	"github.com/awf-dev/awf/internal/infrastructure/agents/options"
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

// schema is the provider's option table, in the order the docs give the options
// (did-you-mean suggestions prefer earlier names on ties). It is checked by the same code as
// the agent CLIs' options.
var schema = options.Schema{Provider: Name, Options: []options.Option{
	{Name: "base_url", Kind: options.KindString, Check: httpURL, Example: "a URL such as http://127.0.0.1:11434/v1"},
	{Name: "model", Kind: options.KindString, Check: options.NonEmpty, Example: "a non-empty string"},
	{Name: "api_key_env", Kind: options.KindString, Check: keyVariable,
		Hint: "name the environment variable that holds the key, e.g. OPENAI_API_KEY (not the key itself)"},
	{Name: "system_prompt", Kind: options.KindString, Example: "a string"},
	{Name: "temperature", Kind: options.KindNumber, Check: options.Between(0, 2), Hint: "use a number between 0 and 2, e.g. 0.2"},
	{Name: "max_tokens", Kind: options.KindNumber, Check: options.WholeBetween(1, math.MaxInt32),
		Hint: fmt.Sprintf("use a whole number between 1 and %d", math.MaxInt32)},
	{Name: "max_turns", Kind: options.KindNumber, Check: options.WholeBetween(1, maxMaxTurns),
		Hint: fmt.Sprintf("use a whole number between 1 and %d", maxMaxTurns)},
	{Name: "request_timeout", Kind: options.KindString, Check: positiveDuration, Hint: "write a Go duration such as 90s or 2m"},
}}

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

// ValidateOptions reports every unknown or ill-typed option of a step, with a did-you-mean for
// misspelt names. It is static: it does not look at the environment, so a missing base_url is
// not reported here (OPENAI_BASE_URL may supply it at run time).
func ValidateOptions(opts map[string]any) []options.Problem { return schema.Validate(opts) }

// CheckWorkflow validates the options of every openai_compatible step of wf. Its signature is
// that of validate.Check, so `awf validate` and `awf run` can add it to their checks as is. The
// proxy runs in-process here, so there is never an isolation warning.
func CheckWorkflow(_ context.Context, wf *workflow.Workflow) fault.Diagnostics {
	return options.CheckSteps(wf, Name, ValidateOptions, nil)
}

// settings turns parsed options into Settings, defaults filled, environment not consulted.
func settings(v options.Values) Settings {
	s := Settings{APIKeyEnv: DefaultAPIKeyEnv, MaxTurns: DefaultMaxTurns, RequestTimeout: DefaultRequestTimeout,
		Model: v.String("model"), SystemPrompt: v.String("system_prompt")}
	if v.Has("base_url") {
		s.BaseURL, _ = normalizeBaseURL(v.String("base_url")) // checked by httpURL
	}
	if v.Has("api_key_env") {
		s.APIKeyEnv = v.String("api_key_env")
	}
	if f, ok := v.Number("temperature"); ok {
		s.Temperature = &f
	}
	if f, ok := v.Number("max_tokens"); ok {
		s.MaxTokens = int(f)
	}
	if f, ok := v.Number("max_turns"); ok {
		s.MaxTurns = int(f)
	}
	if v.Has("request_timeout") {
		s.RequestTimeout, _ = time.ParseDuration(v.String("request_timeout")) // checked by positiveDuration
	}
	return s
}

func httpURL(v any) string {
	s, _ := v.(string)
	if _, err := normalizeBaseURL(s); err != nil {
		return fmt.Sprintf("must be an http(s) URL with a host, got %q", redactURL(s))
	}
	return ""
}

// keyVariable refuses anything but a variable name, without repeating the value: a key pasted
// here by mistake must not reach a message.
func keyVariable(v any) string {
	if s, _ := v.(string); !options.ValidEnvName(s) {
		return "must be an environment variable name (letters, digits, _)"
	}
	return ""
}

func positiveDuration(v any) string {
	s, _ := v.(string)
	if d, err := time.ParseDuration(s); err != nil || d <= 0 {
		return fmt.Sprintf("must be a positive duration, got %q", s)
	}
	return ""
}

// resolveSettings parses the options and fills base_url and model from the environment. The
// first problem is returned as the error: Run cannot start with any of them.
func resolveSettings(opts map[string]any, getenv func(string) string) (Settings, error) {
	v, err := schema.Parse(opts)
	if err != nil {
		return Settings{}, err
	}
	s := settings(v)
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
