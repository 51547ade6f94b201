package mcpserve

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/awf-dev/awf/internal/domain/ports"
	"github.com/awf-dev/awf/internal/domain/tool"
	"github.com/awf-dev/awf/internal/domain/toolset"
	"github.com/awf-dev/awf/internal/infrastructure/privatefs"
)

// fileConfig is the JSON file given to `awf mcp-serve --config`: the wire form of a
// toolset.Spec. Unknown keys are rejected so a typo cannot leave a half-working server; a
// missing intercept_builtins means true and a missing intent means the default rule.
// serve_with, first, is the binary the parent chose (toolset.Spec.Binary); a config written by
// hand may leave it out.
type fileConfig struct {
	ServeWith         string            `json:"serve_with,omitempty"`
	RootDir           string            `json:"root_dir,omitempty"`
	InterceptBuiltins *bool             `json:"intercept_builtins,omitempty"`
	PluginTools       []filePluginTools `json:"plugin_tools,omitempty"`
	Intent            *fileIntent       `json:"intent,omitempty"`
	ActivityFile      string            `json:"activity_file,omitempty"`
	Traceparent       string            `json:"traceparent,omitempty"`
	LogFile           string            `json:"log_file,omitempty"`
	ReadyFile         string            `json:"ready_file,omitempty"`
	ApprovalsDir      string            `json:"approvals_dir,omitempty"`
	RunID             string            `json:"run_id,omitempty"`
	Step              string            `json:"step,omitempty"`
	BashEnv           []string          `json:"bash_env,omitempty"`
	HideEnv           []string          `json:"hide_env,omitempty"`
	EnvPassthrough    []string          `json:"env_passthrough,omitempty"`
	OTelEnv           map[string]string `json:"otel_env,omitempty"`
	PluginsFile       string            `json:"plugins_file,omitempty"`
	PluginCommands    *[]string         `json:"plugin_commands,omitempty"` // absent: not resolved; [] none declared
	Sandbox           *fileSandbox      `json:"sandbox,omitempty"`
}

// fileSandbox is the step's mcp_proxy.sandbox block; a missing block or key means the default
// (mode auto, network on, nothing extra writable).
type fileSandbox struct {
	Mode     string   `json:"mode,omitempty"`
	Network  *bool    `json:"network,omitempty"`
	Writable []string `json:"writable"`
	Readable []string `json:"readable,omitempty"`
	// Egress is the network allow and deny lists; network is then false.
	Egress *fileEgress `json:"egress,omitempty"`
}

// fileEgress is mcp_proxy.sandbox.network's {allow, deny} form.
type fileEgress struct {
	Allow []string `json:"allow"`
	Deny  []string `json:"deny,omitempty"`
}

type filePluginTools struct {
	Plugin string   `json:"plugin"`
	Expose []string `json:"expose"`
}

// fileIntent keeps allow without omitempty: null means every variant, [] means none.
type fileIntent struct {
	Split                  bool           `json:"split,omitempty"`
	Allow                  []tool.Variant `json:"allow"`
	StrictServerValidation *bool          `json:"strict_server_validation,omitempty"`
	RequireDeclaration     bool           `json:"require_declaration,omitempty"`
	Ask                    []tool.Variant `json:"ask,omitempty"`
	// ApprovalTimeout is a Go duration ("5m"); absent means the default.
	ApprovalTimeout string `json:"approval_timeout,omitempty"`
}

// Encode is the config file for spec.
func Encode(spec toolset.Spec) ([]byte, error) {
	builtins, strict := spec.Builtins, spec.Intent.Strict
	c := fileConfig{
		ServeWith:         spec.Binary(),
		RootDir:           spec.Root,
		InterceptBuiltins: &builtins,
		Intent: &fileIntent{Split: spec.Intent.Split, Allow: spec.Intent.Allow,
			StrictServerValidation: &strict, RequireDeclaration: spec.Intent.RequireDeclaration, Ask: spec.Intent.Ask},
		ActivityFile: spec.ActivityFile, Traceparent: spec.Traceparent, LogFile: spec.LogFile,
		ReadyFile: spec.ReadyFile, ApprovalsDir: spec.ApprovalsDir, RunID: spec.RunID, Step: spec.Step, BashEnv: spec.BashEnv,
		HideEnv: spec.HideEnv, OTelEnv: spec.OTelEnv, PluginsFile: spec.PluginsFile,
		EnvPassthrough: spec.EnvPassthrough,
	}
	if t := spec.Intent.ApprovalTimeout; t > 0 {
		c.Intent.ApprovalTimeout = t.String()
	}
	if spec.PluginCommands != nil {
		cmds := spec.PluginCommands
		c.PluginCommands = &cmds
	}
	for _, p := range spec.PluginTools {
		c.PluginTools = append(c.PluginTools, filePluginTools{Plugin: p.Plugin, Expose: p.Expose})
	}
	if sb := spec.Sandbox; sb.Mode != "" { // the zero value means the defaults: nothing to write
		network := sb.Network
		c.Sandbox = &fileSandbox{Mode: sb.Mode, Network: &network, Writable: append([]string{}, sb.Writable...), Readable: sb.Readable}
		if e := sb.Egress; e != nil {
			c.Sandbox.Egress = &fileEgress{Allow: append([]string{}, e.Allow...), Deny: e.Deny}
		}
	}
	return json.MarshalIndent(c, "", "  ")
}

// Defaults is the toolset of an empty config (and of `awf mcp-serve` without --config): the
// built-in tools over the current directory under the default intent rule.
func Defaults() toolset.Spec { return fileConfig{}.spec() }

// ServeWith is the binary the config's serve_with names, "" when it names none or the config
// is not a JSON object. It decodes that one key, so that awf-serve can decide to answer the
// client before the whole config is decoded and checked (Decode still checks the key).
func ServeWith(data []byte) string {
	var c struct {
		ServeWith string `json:"serve_with"`
	}
	if json.Unmarshal(data, &c) != nil {
		return ""
	}
	return c.ServeWith
}

// Decode reads a config strictly: unknown keys, trailing data and bad values are errors that say
// which key is wrong.
func Decode(r io.Reader) (toolset.Spec, error) {
	var c fileConfig
	data, err := io.ReadAll(r)
	if err != nil {
		return toolset.Spec{}, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return toolset.Spec{}, fmt.Errorf("config is not valid: %w", err)
	}
	if dec.More() {
		return toolset.Spec{}, fmt.Errorf("config has data after the JSON object")
	}
	if err := c.validate(); err != nil {
		return toolset.Spec{}, err
	}
	return c.spec(), nil
}

// spec is the toolset the config describes, defaults filled in.
func (c fileConfig) spec() toolset.Spec {
	s := toolset.Spec{
		Root: c.RootDir, Builtins: c.builtins(), Intent: toolset.DefaultIntent(),
		ActivityFile: c.ActivityFile, LogFile: c.LogFile, ReadyFile: c.ReadyFile, ApprovalsDir: c.ApprovalsDir, RunID: c.RunID,
		Step: c.Step, PluginsFile: c.PluginsFile, BashEnv: c.BashEnv, HideEnv: c.HideEnv,
		OTelEnv: c.OTelEnv, Traceparent: c.Traceparent, EnvPassthrough: c.EnvPassthrough,
	}
	if c.PluginCommands != nil {
		s.PluginCommands = append([]string{}, *c.PluginCommands...)
	}
	if in := c.Intent; in != nil {
		s.Intent = toolset.Intent{Split: in.Split, Allow: in.Allow, Strict: in.StrictServerValidation == nil || *in.StrictServerValidation, RequireDeclaration: in.RequireDeclaration,
			Ask: in.Ask}
		s.Intent.ApprovalTimeout, _ = time.ParseDuration(in.ApprovalTimeout) // checked by validate
	}
	for _, p := range c.PluginTools {
		s.PluginTools = append(s.PluginTools, toolset.PluginTools{Plugin: p.Plugin, Expose: p.Expose})
	}
	if sb := c.Sandbox; sb != nil {
		s.Sandbox = toolset.DefaultSandbox()
		if sb.Mode != "" {
			s.Sandbox.Mode = sb.Mode
		}
		if sb.Network != nil {
			s.Sandbox.Network = *sb.Network
		}
		s.Sandbox.Writable = sb.Writable
		s.Sandbox.Readable = sb.Readable
		if e := sb.Egress; e != nil {
			s.Sandbox.Egress = &toolset.Egress{Allow: e.Allow, Deny: e.Deny}
			s.Sandbox.Network = false
		}
	}
	return s
}

func (c fileConfig) builtins() bool { return c.InterceptBuiltins == nil || *c.InterceptBuiltins }

// validate checks values that JSON types alone cannot.
func (c fileConfig) validate() error {
	var problems []string
	switch c.ServeWith {
	case "", toolset.SlimBinary, toolset.AWFBinary:
	default:
		problems = append(problems, fmt.Sprintf("serve_with %q must be %s or %s", c.ServeWith, toolset.SlimBinary, toolset.AWFBinary))
	}
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
		for _, v := range c.Intent.Ask {
			if !v.Valid() {
				problems = append(problems, fmt.Sprintf("intent.ask has %q: must be read, write or destructive", v))
			}
		}
		if t := c.Intent.ApprovalTimeout; t != "" {
			if d, err := time.ParseDuration(t); err != nil || d <= 0 {
				problems = append(problems, fmt.Sprintf("intent.approval_timeout %q must be a positive Go duration such as 5m", t))
			}
		}
	}
	if c.ApprovalsDir != "" && !filepath.IsAbs(c.ApprovalsDir) {
		problems = append(problems, fmt.Sprintf("approvals_dir %q must be an absolute path", c.ApprovalsDir))
	}
	if sb := c.Sandbox; sb != nil {
		switch sb.Mode {
		case "", "auto", "required", "off":
		default:
			problems = append(problems, fmt.Sprintf("sandbox.mode %q must be auto, required or off", sb.Mode))
		}
	}
	if !c.builtins() && len(c.PluginTools) == 0 {
		problems = append(problems, "no tools to serve: intercept_builtins is false and plugin_tools is empty")
	}
	if len(problems) > 0 {
		return fmt.Errorf("config is not valid: %s", strings.Join(problems, "; "))
	}
	return nil
}

// Handoff is the ports.ToolsetHandoff adapter: the config file `awf mcp-serve --config` reads
// and the ready record it writes back.
type Handoff struct{}

var _ ports.ToolsetHandoff = Handoff{}

// WriteSpec writes spec's config file atomically, mode 0600 (it names the run's files).
func (Handoff) WriteSpec(path string, spec toolset.Spec) error {
	b, err := Encode(spec)
	if err != nil {
		return err
	}
	return privatefs.WriteFile(path, b)
}

// maxReadyBytes bounds the ready record: a few hundred bytes in practice.
const maxReadyBytes = 1 << 20

// ReadReady reads the ready record mcp-serve wrote once it served.
func (Handoff) ReadReady(_ context.Context, path string) (toolset.Ready, error) {
	f, err := os.Open(path)
	if err != nil {
		return toolset.Ready{}, err
	}
	defer func() { _ = f.Close() }()
	var r ReadyRecord
	if err := json.NewDecoder(io.LimitReader(f, maxReadyBytes)).Decode(&r); err != nil {
		return toolset.Ready{}, fmt.Errorf("ready record %s: %w", path, err)
	}
	if r.PID <= 0 {
		return toolset.Ready{}, errors.New("ready record without pid")
	}
	return toolset.Ready{PID: r.PID, Tools: r.Tools}, nil
}
