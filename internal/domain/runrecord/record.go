// Package runrecord is the persisted state of one run (.awf/runs/<id>/state.json): enough to
// show the run later (awf status, awf history) and to resume it where it stopped (awf resume)
// without re-running the steps that finished.
package runrecord

import (
	"crypto/sha256"
	"encoding/hex"
	"time"
)

// Version is the format of the records this build writes; a reader refuses a newer one.
const Version = 1

// Run statuses as persisted and shown: one vocabulary with the run's own result (awf run
// --format json), its terminal states and its steps, so a script compares one set of words
// (docs/reference/json-outputs.md). Crashed is never written: a reader reports it for a
// record that still says running while its process is gone (see Effective). Error is a run
// that awf itself could not carry on (a SYSTEM or EXECUTION fault outside any step's routing).
const (
	Running     = "running"
	Succeeded   = "success"
	Failed      = "failure"
	Errored     = "error"
	Interrupted = "interrupted"
	Crashed     = "crashed"
)

// Statuses are every status a run can show, in the order help texts list them.
var Statuses = []string{Running, Succeeded, Failed, Errored, Interrupted, Crashed}

// aliases are the words older awf releases wrote (succeeded, failed) and the words other
// tools use for the same statuses, accepted wherever a status is read or filtered on.
var aliases = map[string]string{
	"succeeded": Succeeded, "successful": Succeeded, "completed": Succeeded, "ok": Succeeded,
	"failed": Failed, "errored": Errored,
	"cancelled": Interrupted, "canceled": Interrupted,
}

// Canonical is the status word s stands for: s itself when it is one of Statuses, the status
// an alias names, or "" for a word that names no status. Records written by older releases
// (succeeded, failed) read through it, so they show in today's words.
func Canonical(s string) string {
	for _, st := range Statuses {
		if s == st {
			return s
		}
	}
	return aliases[s]
}

// Record is one run's persisted state.
type Record struct {
	Version  int    `json:"version"`
	ID       string `json:"id"`
	Workflow string `json:"workflow"`
	// File is the workflow file the run loaded; Source a copy of it as loaded and SourceHash
	// its sha256, so a resume can tell when the file has changed since.
	File       string `json:"file,omitempty"`
	Source     string `json:"source,omitempty"`
	SourceHash string `json:"source_hash,omitempty"`
	// Files are the other files the run read by name at its start (script_files, prompt_files,
	// called workflows, .awf/plugins.yaml), each with its sha256 as Hash gives it, so that a
	// resume notices an edit to any of them and names the file.
	Files  map[string]string `json:"files,omitempty"`
	Inputs map[string]any    `json:"inputs,omitempty"`
	Status string            `json:"status"`
	// Current is the state the run is executing (running), stopped in (interrupted, crashed), or
	// the terminal it reached.
	Current string    `json:"current,omitempty"`
	PID     int       `json:"pid"`
	Started time.Time `json:"started"`
	Updated time.Time `json:"updated"`
	Ended   time.Time `json:"ended,omitzero"`
	Error   string    `json:"error,omitempty"`
	Resumed int       `json:"resumed,omitempty"`
	Steps   []Step    `json:"steps"`
	// Active lists the loop iterations and parallel branches started and not yet finished.
	Active []string `json:"active,omitempty"`
	// Masked is the run's mask set: the texts of this record that the run's redactor masked
	// (secret values and runs of them, token shapes), each as it stands in the record, so that
	// status, history, report and resume mask them again when the variables that named them are
	// no longer set. It holds nothing the record did not already hold in clear
	// (docs/decisions/0011-values-are-data-secrets-are-masked.md).
	Masked []string `json:"masked,omitempty"`
	// Seq is the number of the last journal entry this record holds (see Apply): entries at or
	// below it are already in it, so a journal left beside a newer state.json by a crash
	// between the two writes is not applied twice.
	Seq int `json:"journal_seq,omitempty"`
}

// Step is one finished state (or a sub-step of a loop or parallel state, with Within set).
type Step struct {
	Name     string         `json:"name"`
	Type     string         `json:"type"`
	Status   string         `json:"status"`
	ExitCode int            `json:"exit_code"`
	Output   string         `json:"output,omitempty"`
	Stderr   string         `json:"stderr,omitempty"`
	Error    string         `json:"error,omitempty"`
	Next     string         `json:"next,omitempty"`
	Attempts int            `json:"attempts,omitempty"`
	Within   string         `json:"within,omitempty"`
	JSON     any            `json:"json,omitempty"`
	Response map[string]any `json:"response,omitempty"`
	// Conversation is the session of an agent step that tracks one, so that a resumed run can
	// still continue it (conversation.continue_from).
	Conversation *Session `json:"conversation,omitempty"`
	DurationMS   int64    `json:"duration_ms"`
}

// Hash is the hex sha256 of a workflow file's bytes, as SourceHash holds it.
func Hash(src []byte) string {
	sum := sha256.Sum256(src)
	return hex.EncodeToString(sum[:])
}

// Effective is the status to show: a running record whose process is gone is crashed.
func (r Record) Effective(alive func(pid int) bool) string {
	if r.Status == Running && (r.PID <= 0 || !alive(r.PID)) {
		return Crashed
	}
	return r.Status
}

// Duration is how long the run took, or has taken until its last update.
func (r Record) Duration() time.Duration {
	end := r.Ended
	if end.IsZero() {
		end = r.Updated
	}
	if end.Before(r.Started) {
		return 0
	}
	return end.Sub(r.Started)
}

// Resumable says whether awf resume may continue the run: not one that succeeded, nor one
// whose process is still running.
func (r Record) Resumable(alive func(pid int) bool) bool {
	s := r.Effective(alive)
	return s != Succeeded && s != Running
}

// Main returns the finished states of the main flow (not loop or parallel sub-steps), the
// ones a resumed run's scope is filled from.
func (r Record) Main() []Step {
	var out []Step
	for _, s := range r.Steps {
		if s.Within == "" {
			out = append(out, s)
		}
	}
	return out
}

// Session is a conversation an agent can continue: a CLI keeps it in its own session store and
// names it by ID; an HTTP endpoint keeps nothing, so its text turns travel in Messages.
type Session struct {
	ID       string    `json:"session_id,omitempty"`
	Messages []Message `json:"messages,omitempty"`
	// Turns counts the calls made in the conversation so far.
	Turns int `json:"total_turns"`
}

// Message is one text turn of a conversation: Role is user or assistant.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}
