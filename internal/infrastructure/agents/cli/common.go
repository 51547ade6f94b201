package cli

import "github.com/awf-dev/awf/internal/infrastructure/agents/options"

// Common returns the options every CLI provider accepts: model, binary, extra_args, env and
// system_prompt (each of the four CLIs has a way to take one). A Spec appends its own.
func Common() []options.Option {
	return []options.Option{
		{Name: "model", Kind: options.KindString, Check: options.NonEmpty, Example: "a model name, e.g. model: sonnet"},
		{Name: "binary", Kind: options.KindString, Check: options.NonEmpty, Example: "a path, e.g. binary: /usr/local/bin/claude"},
		{Name: "extra_args", Kind: options.KindStrings, Example: `a list, e.g. extra_args: ["--verbose"]`},
		{Name: "env", Kind: options.KindEnv, Example: "a mapping, e.g. env: {HTTPS_PROXY: http://proxy:3128}"},
		{Name: "system_prompt", Kind: options.KindString, Example: "a string"},
	}
}
