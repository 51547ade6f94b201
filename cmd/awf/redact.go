package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/awf-dev/awf/internal/domain/redact"
	"github.com/awf-dev/awf/internal/infrastructure/plugins"
)

// secrets is the process's one redactor, built from its environment on first use. Every sink
// of this process masks with it: the log, the spans, the activity records and what awf prints.
// A run adds the variables its steps name in api_key_env (usecase.Run, mcpserve.Build).
var secrets = sync.OnceValue(func() *redact.Redactor { return redact.New(os.Environ()) })

// redactingWriter masks secrets in each write before it reaches the terminal. awf writes whole
// lines or whole documents, so a secret is never split across two writes; step output is masked
// before it is split into lines (textObserver).
type redactingWriter struct {
	w   io.Writer
	red *redact.Redactor
}

func (r redactingWriter) Write(p []byte) (int, error) {
	if _, err := r.w.Write(r.red.Bytes(p)); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Unwrap is the writer underneath, so the logger can still tell a terminal from a file.
func (r redactingWriter) Unwrap() io.Writer { return r.w }

// maskPluginEnv masks the values the project's .awf/plugins.yaml gives its plugins and MCP
// servers in `env:` and `headers:` (${VAR} expanded from awf's environment), whatever their
// names: they are the plugins' credentials, and a plugin that prints one (its stderr goes to
// run.log) or returns one must not put it in a record. A file that cannot be read adds nothing:
// the run reports it where it uses the plugins.
func maskPluginEnv(root string) {
	maskPluginValues(filepath.Join(root, ".awf", "plugins.yaml"), secrets())
}

// maskPluginValues adds to red the env: and headers: values of the plugins file: maskPluginEnv
// for this process, and `awf mcp-serve` for the step it serves (servecmd.Options.MaskPlugins),
// so that both sides mask the same set.
func maskPluginValues(file string, red *redact.Redactor) {
	m, err := plugins.LoadManifest(file)
	if err != nil || m == nil {
		return
	}
	for _, spec := range m.Specs {
		for _, pairs := range [][]string{spec.Env, spec.MCP.Headers} {
			for _, kv := range pairs {
				name, val, _ := strings.Cut(kv, "=")
				red.AddValue("plugin "+spec.Name+" "+name, os.ExpandEnv(val))
			}
		}
	}
}
