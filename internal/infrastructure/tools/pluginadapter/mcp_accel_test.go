package pluginadapter

import (
	"testing"

	"github.com/awf-dev/awf/internal/infrastructure/accel"
)

// The bridged MCP suites above run with the host's defaults, the rawcall accelerator on; here
// they run again with it off, on the go-sdk's client alone, which must pass them by itself.
func TestMCPSuitesWithoutTheRawAccelerator(t *testing.T) {
	t.Setenv(accel.EnvOff, accel.BridgeRaw)
	for _, tc := range []struct {
		name string
		run  func(*testing.T)
	}{
		{"router", TestMCPServerThroughTheRouter},
		{"leaves no process", TestMCPServerLeavesNoProcess},
		{"pins", TestMCPPinsCatchChangedTools},
		{"crash restart and loop", TestMCPCrashRestartAndCrashLoop},
		{"progress", TestMCPProgressReachesTheCaller},
		{"banner and big result", TestMCPStdioBannerAndBigResult},
	} {
		t.Run(tc.name, tc.run)
	}
}
