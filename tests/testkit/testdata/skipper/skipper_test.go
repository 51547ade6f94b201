// Package skipper_test is run by testkit's own tests through `go test`, to see where a skip line
// ends up. It lives under testdata so `go test ./...` never runs it.
package skipper_test

import (
	"testing"

	"github.com/awf-dev/awf/tests/testkit"
)

func TestSkipped(t *testing.T) {
	testkit.Skip(t, "the planted reason,\nsplit over two lines")
}

func TestPasses(t *testing.T) {}
