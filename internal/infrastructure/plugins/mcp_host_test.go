package plugins

import (
	"testing"

	"github.com/awf-dev/awf/internal/infrastructure/accel"
)

// One switch decides the bridged servers' call path: Options.SDKOnly, or AWF_ACCEL_OFF naming
// bridge-raw; either leaves the go-sdk's client alone.
func TestSDKOnlySwitch(t *testing.T) {
	for _, tc := range []struct {
		name, off string
		sdkOnly   bool
		wantAccel bool
	}{
		{"default", "", false, true},
		{"option", "", true, false},
		{"environment", accel.BridgeRaw, false, false},
		{"all off", "all", false, false},
		{"another accelerator off", accel.MCPDirect, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(accel.EnvOff, tc.off)
			h := New(Options{Root: t.TempDir(), SDKOnly: tc.sdkOnly})
			cfg := h.bridgeConfig(Spec{Name: "x", Type: TypeMCP, Command: "x"})
			if got := cfg.Accelerator != nil; got != tc.wantAccel {
				t.Errorf("accelerator %v, want %v", got, tc.wantAccel)
			}
		})
	}
}
