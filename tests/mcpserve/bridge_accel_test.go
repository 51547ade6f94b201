package mcpserve_test

import (
	"testing"

	"github.com/awf-dev/awf/internal/infrastructure/accel"
)

// The bridged suites above run through awf with the rawcall accelerator on (the default); here
// they run again with it off in the awf they spawn (the variable rides to awf mcp-serve), on
// the go-sdk's client alone.
func TestBridgedSuitesWithoutTheRawAccelerator(t *testing.T) {
	t.Setenv(accel.EnvOff, accel.BridgeRaw)
	for _, tc := range []struct {
		name string
		run  func(*testing.T)
	}{
		{"byte identical", TestBridgedContentIsByteIdentical},
		{"progress cancellation logs", TestBridgedProgressCancellationAndLogs},
		{"call timeout", TestBridgedCallTimeout},
		{"crash answers in time", TestBridgedCrashAnswersInTime},
		{"server plugin", TestMCPServerPluginOverMCPServe},
		{"output schema", TestBridgedOutputSchemaIsChecked},
	} {
		t.Run(tc.name, tc.run)
	}
}
