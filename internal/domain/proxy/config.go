// Package proxy holds the contract between the process that runs an agent step and the
// `awf mcp-serve` subprocess the agent's CLI spawns: the JSON config file that carries everything
// the subprocess needs to serve the step's tools and report back.
package proxy

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/awf-dev/awf/internal/domain/tool"
)

// ServeConfig is the file given to `awf mcp-serve --config`. Unknown keys are rejected so a typo
// cannot leave a half-working server.
type ServeConfig struct {
	// RootDir confines the file tools; absolute. Empty means the current directory.
	RootDir string `json:"root_dir,omitempty"`
	// InterceptBuiltins serves awf's six built-in tools; default true.
	InterceptBuiltins *bool `json:"intercept_builtins,omitempty"`
	// PluginTools lists plugin operations to expose as <plugin>_<operation>.
	PluginTools []PluginTools `json:"plugin_tools,omitempty"`
	// Intent is the intent rule's settings for this step.
	Intent *Intent `json:"intent,omitempty"`
	// ActivityFile is the JSONL file to append one record per call to.
	ActivityFile string `json:"activity_file,omitempty"`
	// Traceparent (W3C) makes tool-call spans children of the step span in the parent process.
	Traceparent string `json:"traceparent,omitempty"`
	// LogFile receives JSON log lines; stderr gets only startup failures.
	LogFile string `json:"log_file,omitempty"`
	// ReadyFile is written once the server is serving, so the step can prove the proxy ran.
	ReadyFile string `json:"ready_file,omitempty"`
	// RunID and Step label records, spans and log lines.
	RunID string `json:"run_id,omitempty"`
	Step  string `json:"step,omitempty"`
	// BashEnv, when set, is the exact environment for the Bash tool; otherwise awf's environment
	// minus agent credentials.
	BashEnv []string `json:"bash_env,omitempty"`
	// HideEnv names more variables to keep out of Bash's environment, such as the variable a
	// step's api_key_env points at, on top of the agent credentials awf always removes.
	HideEnv []string `json:"hide_env,omitempty"`
	// OTelEnv carries the parent's OTEL_* variables: some CLIs (codex) pass their MCP servers only
	// HOME, LANG, PATH and TERM, and tool-call spans must still reach the same collector.
	OTelEnv map[string]string `json:"otel_env,omitempty"`
	// PluginsFile is the plugins.yaml to read plugin declarations from.
	PluginsFile string `json:"plugins_file,omitempty"`
}

// PluginTools is one plugin_tools entry.
type PluginTools struct {
	Plugin string   `json:"plugin"`
	Expose []string `json:"expose"`
}

// Intent is the intent block (DESIGN §5).
type Intent struct {
	Split                  bool           `json:"split,omitempty"`
	Allow                  []tool.Variant `json:"allow,omitempty"`
	StrictServerValidation *bool          `json:"strict_server_validation,omitempty"`
	RequireDeclaration     bool           `json:"require_declaration,omitempty"`
}

// Builtins reports whether the built-in tools are served.
func (c ServeConfig) Builtins() bool { return c.InterceptBuiltins == nil || *c.InterceptBuiltins }

// Decode reads a config strictly: unknown keys, trailing data and bad values are errors that say
// which key is wrong.
func Decode(r io.Reader) (ServeConfig, error) {
	var c ServeConfig
	data, err := io.ReadAll(r)
	if err != nil {
		return c, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return c, fmt.Errorf("config is not valid: %w", err)
	}
	if dec.More() {
		return c, fmt.Errorf("config has data after the JSON object")
	}
	return c, c.Validate()
}

// Validate checks values that JSON types alone cannot.
func (c ServeConfig) Validate() error {
	var problems []string
	if c.RootDir != "" && !filepath.IsAbs(c.RootDir) {
		problems = append(problems, fmt.Sprintf("root_dir %q must be an absolute path", c.RootDir))
	}
	for i, p := range c.PluginTools {
		if p.Plugin == "" {
			problems = append(problems, fmt.Sprintf("plugin_tools[%d].plugin is empty", i))
		}
		if len(p.Expose) == 0 {
			problems = append(problems, fmt.Sprintf("plugin_tools[%d].expose lists no operation", i))
		}
	}
	if c.Intent != nil {
		for _, v := range c.Intent.Allow {
			if !v.Valid() {
				problems = append(problems, fmt.Sprintf("intent.allow has %q: must be read, write or destructive", v))
			}
		}
	}
	if !c.Builtins() && len(c.PluginTools) == 0 {
		problems = append(problems, "no tools to serve: intercept_builtins is false and plugin_tools is empty")
	}
	if len(problems) > 0 {
		return fmt.Errorf("config is not valid: %s", strings.Join(problems, "; "))
	}
	return nil
}
