// Package osenv is the ports.Environment adapter over this process's environment.
package osenv

import (
	"os"

	"github.com/awf-dev/awf/internal/domain/ports"
)

// Env reads awf's own environment.
type Env struct{}

var _ ports.Environment = Env{}

// Environ returns the environment as KEY=value pairs.
func (Env) Environ() []string { return os.Environ() }
