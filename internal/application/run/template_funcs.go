package run

import (
	"text/template"

	"github.com/awf-dev/awf/internal/domain/fault"
)

// readFileFunc is the readFile helper of a scope: the file's text through the run's bounded,
// confined reader, or an error naming the path.
func (s Scope) readFileFunc() func(path string) (string, error) {
	return func(path string) (string, error) {
		if s.host == nil || s.host.readFile == nil {
			return "", fault.New(fault.SystemRunSetup, "readFile %q: this awf has no file reader wired", path)
		}
		return s.host.readFile(path)
	}
}

// scopeFuncs are the functions bound to one render's scope: readFile. The helpers that need no
// scope are in Funcs already.
func scopeFuncs(s Scope) template.FuncMap {
	return template.FuncMap{"readFile": s.readFileFunc()}
}
