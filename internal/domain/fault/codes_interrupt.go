package fault

// Codes of the INTERRUPT category (exit 130). Each code is written here once; every other
// package names it through these constants. Codes are a public contract: scripts and editor
// integrations match on them, so a released code is never renamed.
const (
	// INTERRUPT.MCP_PROXY
	InterruptMCPProxyCancelled = "INTERRUPT.MCP_PROXY.CANCELLED"

	// INTERRUPT.RUN
	InterruptRunSignal = "INTERRUPT.RUN.SIGNAL"
)
