package mcpservers

import (
	"testing"

	"github.com/awf-dev/awf/tests/testkit"
)

// bins holds bin/awf, built once for the tests that drive `awf mcp-serve`.
var bins *testkit.Bins

func TestMain(m *testing.M) {
	testkit.Main(m.Run, false, &bins)
}
