package fault

// Codes of `awf ci` and `awf run --sarif` (docs/guide/ci.md), in the SYSTEM category (exit 4).
// Each code is written here once; codes are a public contract, never renamed once released.
const (
	// SYSTEM.CI
	// SystemCIWrite: the step outputs, the job summary or the SARIF file could not be written.
	SystemCIWrite = "SYSTEM.CI.WRITE"
)
