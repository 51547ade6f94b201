package mcpservers

import (
	"testing"

	"github.com/awf-dev/awf/internal/infrastructure/accel"
)

// The stdio suites above run with the rawcall accelerator on (the host's default); here they
// run again with it off, through the go-sdk's client alone, against the same real servers.
func TestStdioServersWithoutTheRawAccelerator(t *testing.T) {
	t.Setenv(accel.EnvOff, accel.BridgeRaw)
	for _, tc := range []struct {
		name string
		run  func(*testing.T)
	}{
		{"everything", TestServerEverythingOverStdio},
		{"memory", TestServerMemory},
		{"filesystem read-only", TestServerFilesystemReadOnly},
	} {
		t.Run(tc.name, tc.run)
	}
}
