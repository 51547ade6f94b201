package gemini

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/infrastructure/agents/cli"
)

// report is `--output-format json`: on stdout for a finished run, on stderr (at the end,
// after any stack trace) with only session_id and error for a failed one.
type report struct {
	SessionID string  `json:"session_id"`
	Response  *string `json:"response"`
	Stats     struct {
		Models map[string]struct {
			Tokens struct {
				Input      *int `json:"input"`
				Prompt     int  `json:"prompt"`
				Candidates int  `json:"candidates"`
			} `json:"tokens"`
		} `json:"models"`
	} `json:"stats"`
	Error *struct {
		Type    string `json:"type"`
		Message string `json:"message"`
		Code    any    `json:"code"`
	} `json:"error"`
}

// parse reads the report. Tokens are summed over every model the run used (the main model and
// the routing model's side requests alike).
func parse(r cli.Result) (ports.AgentResult, error) {
	rep, stdoutErr := decode(r.Stdout)
	if stdoutErr != nil || (rep.Response == nil && rep.Error == nil) {
		// A failed run leaves stdout empty and its report at the end of stderr.
		if alt, ok := lastObject(r.Stderr); ok && alt.Error != nil {
			rep, stdoutErr = alt, nil
		}
	}
	if stdoutErr != nil {
		return ports.AgentResult{}, fmt.Errorf("not a JSON report: %w", stdoutErr)
	}
	out := ports.AgentResult{SessionID: rep.SessionID}
	for _, m := range rep.Stats.Models {
		in := m.Tokens.Prompt
		if m.Tokens.Input != nil {
			in = *m.Tokens.Input
		}
		out.InputTokens += in
		out.OutputTokens += m.Tokens.Candidates
	}
	if rep.Error != nil {
		msg := strings.TrimSpace(rep.Error.Message)
		if msg == "" {
			msg = rep.Error.Type
		}
		return out, cli.AgentError(Name, "%s (code %v)", msg, rep.Error.Code).WithHint("%s", hint(rep.Error.Code, msg))
	}
	if rep.Response == nil {
		return out, errors.New(`no "response" in the report`)
	}
	out.Output = *rep.Response
	return out, nil
}

func decode(b []byte) (report, error) {
	var rep report
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return rep, errors.New("empty output")
	}
	err := json.Unmarshal(b, &rep)
	return rep, err
}

// lastObject finds the JSON object that ends stderr: it starts on the last line that is
// exactly "{" (the CLI indents its report) or, failing that, at the last line starting with "{".
func lastObject(stderr string) (report, bool) {
	s := strings.TrimSpace(stderr)
	if !strings.HasSuffix(s, "}") {
		return report{}, false
	}
	for end := len(s); end > 0; {
		i := strings.LastIndex(s[:end], "\n{")
		start := i + 1
		if i < 0 {
			if !strings.HasPrefix(s, "{") {
				return report{}, false
			}
			start = 0
		}
		if rep, err := decode([]byte(s[start:])); err == nil {
			return rep, true
		}
		if i < 0 {
			return report{}, false
		}
		end = i
	}
	return report{}, false
}

// hint maps the CLI's exit codes (carried in error.code) to what to do.
func hint(code any, msg string) string {
	switch fmt.Sprint(code) {
	case "41":
		return "authentication failed: set GEMINI_API_KEY (or options.auth_type), or log in with `gemini` once interactively"
	case "52":
		return "the CLI rejected its configuration: check the step's options and your ~/.gemini/settings.json"
	case "55":
		return "the workspace is not trusted: awf passes --skip-trust; check options.extra_args"
	}
	if strings.Contains(msg, "model") {
		return "check options.model and the endpoint (options.base_url)"
	}
	return "run the CLI by hand with the same prompt to see more"
}
