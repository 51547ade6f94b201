package report

import (
	"sort"
	"strings"
	"time"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/redact"
	"github.com/awf-dev/awf/internal/domain/runrecord"
)

// Header is the run at a glance.
type Header struct {
	RunID, Workflow, File string
	Status                string
	// Current is the terminal the run reached, or the state it stopped in.
	Current  string
	Started  time.Time
	Ended    time.Time
	Duration time.Duration
	// ExitCode is the exit code awf gave (or gives) this run, derived from its status and the
	// code of its error; ExitKnown is false while it runs or when it crashed.
	ExitCode  int
	ExitKnown bool
	Error     string
	Resumed   int
	Inputs    []KV
}

// KV is one input as shown: secret-named inputs are masked whole, the others through the
// redactor.
type KV struct{ Name, Value string }

func header(in Input, t text) Header {
	r := in.Record
	status := r.Status
	if in.Alive != nil {
		status = r.Effective(in.Alive)
	}
	code, known := ExitCode(status, r.Error)
	return Header{
		RunID: t.line(r.ID, CellExcerpt), Workflow: t.line(r.Workflow, CellExcerpt), File: t.line(r.File, CellExcerpt),
		Status: status, Current: t.line(r.Current, CellExcerpt), Started: r.Started, Ended: r.Ended, Duration: r.Duration(),
		ExitCode: code, ExitKnown: known, Error: t.block(r.Error, OutputExcerpt), Resumed: r.Resumed,
		Inputs: inputs(r.Inputs, t),
	}
}

func inputs(m map[string]any, t text) []KV {
	out := make([]KV, 0, len(m))
	for name, v := range m {
		val := redact.Mask
		if !redact.IsSecretName(name) {
			val = t.value(v, CellExcerpt)
		}
		out = append(out, KV{Name: t.line(name, CellExcerpt), Value: val})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// ExitCode is the exit code of a run with this status and recorded error (docs/design.md#exit-codes): 0 for a
// success, 130 for an interrupt, and for a failure the category of the error's code (a failure
// terminal is 2; an error without a code is awf's own, 4). A running or crashed run has none.
func ExitCode(status, errText string) (int, bool) {
	switch status {
	case runrecord.Succeeded:
		return fault.ExitOK, true
	case runrecord.Interrupted:
		return fault.ExitInterrupted, true
	case runrecord.Failed, runrecord.Errored:
		if strings.TrimSpace(errText) == "" {
			return fault.ExitWorkflow, true
		}
		code := errorCode(errText)
		if code == "" {
			return fault.ExitSystem, true
		}
		return fault.ExitCode(fault.New(code, "")), true
	}
	return 0, false
}

// errorCode finds the first "[CATEGORY.SUB.SPECIFIC]" in an error's text (fault.Error renders
// its code that way, after an optional file position).
func errorCode(s string) string {
	for {
		i := strings.IndexByte(s, '[')
		if i < 0 {
			return ""
		}
		s = s[i+1:]
		j := strings.IndexByte(s, ']')
		if j < 0 {
			return ""
		}
		if c := s[:j]; isCode(c) {
			return c
		}
	}
}

func isCode(c string) bool {
	if strings.Count(c, ".") < 2 {
		return false
	}
	for _, r := range c {
		if (r < 'A' || r > 'Z') && r != '.' && r != '_' && (r < '0' || r > '9') {
			return false
		}
	}
	return true
}
