package gemini

import (
	"github.com/awf-dev/awf/internal/infrastructure/agents/cli"
	"github.com/awf-dev/awf/internal/infrastructure/agents/options"
)

// approvalModes are the values of --approval-mode in the verified version.
var approvalModes = []string{"default", "auto_edit", "yolo", "plan"}

// authTypes are the values of security.auth.selectedType in the verified version.
var authTypes = []string{"gemini-api-key", "oauth-personal", "vertex-ai", "compute-default-credentials", "cloud-shell", "gateway"}

// stepOptions: the common options (system_prompt replaces Gemini's system prompt) plus
//
//	base_url       GOOGLE_GEMINI_BASE_URL, for a gateway or a local model server
//	auth_type      security.auth.selectedType in the private settings
//	approval_mode  --approval-mode
var stepOptions = append(cli.Common(),
	options.Option{Name: "base_url", Kind: options.KindString, Check: options.AbsoluteURL("http://127.0.0.1:8080"), Example: "a URL, e.g. base_url: http://127.0.0.1:8080"},
	options.Option{Name: "auth_type", Kind: options.KindString, Choices: authTypes, Example: "auth_type: gemini-api-key"},
	options.Option{Name: "approval_mode", Kind: options.KindString, Choices: approvalModes, Example: "approval_mode: auto_edit"},
)
