package osenv

import (
	"slices"
	"testing"
)

func TestEnvironReadsTheProcessEnvironment(t *testing.T) {
	t.Setenv("AWF_OSENV_PROBE", "x=1")
	if !slices.Contains(Env{}.Environ(), "AWF_OSENV_PROBE=x=1") {
		t.Fatal("Environ does not show a variable just set")
	}
}
