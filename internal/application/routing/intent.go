package routing

import (
	"github.com/awf-dev/awf/internal/domain/tool"
	"github.com/awf-dev/awf/internal/domain/toolset"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// IntentSettings are a step's `mcp_proxy.intent` settings as the exposure applies them. The zero
// value is NOT the default (it is non-strict): start from DefaultIntentSettings or one of the
// From* converters.
type IntentSettings struct {
	// Split exposes retrieve_tools and call_tool_read/write/destructive instead of each tool.
	Split bool
	// Allow lists the variants the step may use; nil means all three, an empty non-nil list
	// allows nothing (fail closed).
	Allow []tool.Variant
	// Strict refuses calls that contradict a tool's annotations; false only warns
	// (strict_server_validation).
	Strict bool
	// RequireDeclaration makes the nested intent.operation_type mandatory on split calls.
	RequireDeclaration bool
	// Ask lists the variants whose calls wait for Approver (intent.ask); empty holds nothing.
	Ask []tool.Variant
	// Approver is asked about held calls; nil with Ask set refuses them.
	Approver Approver
}

// DefaultIntentSettings is what a step gets when its intent block says nothing: direct exposure,
// every variant allowed, strict server validation, no mandatory declaration.
func DefaultIntentSettings() IntentSettings { return IntentSettings{Strict: true} }

// IntentSettingsFromWorkflow converts the loaded YAML block. The loader fills defaults and
// `awf validate` rejects an empty allow list, so the values are taken as they are.
func IntentSettingsFromWorkflow(w workflow.IntentSettings) IntentSettings {
	return IntentSettings{
		Split:              w.Split,
		Allow:              cloneVariants(w.Allow),
		Strict:             w.StrictServerValidation,
		RequireDeclaration: w.RequireDeclaration,
		Ask:                cloneVariants(w.Ask),
	}
}

// IntentSettingsFromToolset converts the intent settings of a step's toolset, as `awf run`
// builds them and `awf mcp-serve` reads them back.
func IntentSettingsFromToolset(i toolset.Intent) IntentSettings {
	return IntentSettings{
		Split:              i.Split,
		Allow:              cloneVariants(i.Allow),
		Strict:             i.Strict,
		RequireDeclaration: i.RequireDeclaration,
		Ask:                cloneVariants(i.Ask),
	}
}

// Rule returns the settings the domain rule reads.
func (s IntentSettings) Rule() tool.RuleSettings {
	return tool.RuleSettings{Strict: s.Strict, Allow: s.Allow, RequireDeclaration: s.RequireDeclaration}
}

// Allows reports whether the step may use variant v.
func (s IntentSettings) Allows(v tool.Variant) bool { return s.Rule().Allows(v) }

// cloneVariants copies a list so later changes by the caller cannot alter a running exposure;
// nil stays nil (all variants), empty stays empty (none).
func cloneVariants(vs []tool.Variant) []tool.Variant {
	if vs == nil {
		return nil
	}
	return append(make([]tool.Variant, 0, len(vs)), vs...)
}
