package builtins

// SchemasVerified tells the router (routing.VerifiedSchemas) that the six input schemas are
// constants of this package, compiled by the tests of internal/infrastructure/mcpserve, so it
// may compile each on first use and `awf mcp-serve` starts without resolving them.
func (p *Provider) SchemasVerified() bool { return true }
