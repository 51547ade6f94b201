// Package approvals is the hand-off of calls held for approval (mcp_proxy.intent.ask) through a
// run's approvals/ directory: `awf mcp-serve` writes <id>.pending.json and waits for
// <id>.decision.json, which `awf serve` (API, live page) or `awf run` (terminal) creates. The
// decision file is created exclusively, so the first decision wins and a later one is refused
// (docs/decisions/0032-serve-and-live-pages.md).
package approvals

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/awf-dev/awf/internal/application/routing"
	"github.com/awf-dev/awf/internal/domain/activity"
	"github.com/awf-dev/awf/internal/domain/redact"
	"github.com/awf-dev/awf/internal/domain/toolset"
	"github.com/awf-dev/awf/internal/infrastructure/privatefs"
)

// DirName is the approvals directory inside a run directory.
const DirName = "approvals"

const (
	pendingSuffix  = ".pending.json"
	decisionSuffix = ".decision.json"
	defaultPoll    = 100 * time.Millisecond
	maxFileBytes   = 1 << 20
)

// Errors a decider gets, so the API can answer 400, 404 and 409.
var (
	ErrBadID      = errors.New("approval id is not valid: it is the 32 hexadecimal digits listed by GET .../approvals")
	ErrNotFound   = errors.New("no such pending approval")
	ErrDecided    = errors.New("this call was already decided")
	ErrBadDecider = errors.New(`decision must be "approve" or "deny"`)
)

// idPattern is the only form of an id: what newID makes. Anything else (a path, "..", a name
// with a slash) is refused before it reaches the file system.
var idPattern = regexp.MustCompile(`^[0-9a-f]{32}$`)

// ValidID reports whether id could name an approval.
func ValidID(id string) bool { return idPattern.MatchString(id) }

// Pending is a held call as its pending file stores it and the API lists it.
type Pending struct {
	ID          string         `json:"id"`
	RunID       string         `json:"run_id,omitempty"`
	Step        string         `json:"step,omitempty"`
	Tool        string         `json:"tool"`
	Variant     string         `json:"variant"`
	Arguments   map[string]any `json:"arguments,omitempty"`
	Summary     string         `json:"summary"`
	RequestedAt time.Time      `json:"requested_at"`
	Deadline    time.Time      `json:"deadline"`
}

// decisionFile is a decision as its file stores it.
type decisionFile struct {
	Decision string    `json:"decision"`
	By       string    `json:"by"`
	At       time.Time `json:"at"`
}

// Dir is one run's approvals directory. The zero Timeout means toolset.DefaultApprovalTimeout,
// the zero Poll 100 ms.
type Dir struct {
	Path    string
	Timeout time.Duration
	Poll    time.Duration
	// Redactor masks secrets in the arguments written to the pending file; nil masks nothing.
	Redactor *redact.Redactor
}

// Await implements routing.Approver: it writes the pending file and waits for a decision, or
// decides deny by timeout itself once the deadline passes (exclusively, so a decision made at
// the same moment wins if it came first).
func (d Dir) Await(ctx context.Context, req routing.ApprovalRequest) (activity.Approval, error) {
	if err := os.MkdirAll(d.Path, 0o700); err != nil {
		return activity.Approval{}, err
	}
	if err := os.Chmod(d.Path, 0o700); err != nil {
		return activity.Approval{}, err
	}
	id, err := newID()
	if err != nil {
		return activity.Approval{}, err
	}
	timeout := d.Timeout
	if timeout <= 0 {
		timeout = toolset.DefaultApprovalTimeout
	}
	now := time.Now().UTC()
	args := req.Args
	if d.Redactor != nil {
		args = d.Redactor.Map(args)
	}
	p := Pending{ID: id, RunID: req.RunID, Step: req.Step, Tool: d.Redactor.String(req.Tool), Variant: string(req.Variant), Arguments: args,
		Summary: Summarize(args), RequestedAt: now, Deadline: now.Add(timeout)}
	b, err := json.Marshal(p)
	if err != nil {
		return activity.Approval{}, err
	}
	pending := filepath.Join(d.Path, id+pendingSuffix)
	if err := privatefs.WriteFile(pending, b); err != nil {
		return activity.Approval{}, err
	}
	defer func() { _ = os.Remove(pending) }()
	return d.wait(ctx, id, p.Deadline)
}

// wait polls for id's decision until the deadline.
func (d Dir) wait(ctx context.Context, id string, deadline time.Time) (activity.Approval, error) {
	poll := d.Poll
	if poll <= 0 {
		poll = defaultPoll
	}
	t := time.NewTicker(poll)
	defer t.Stop()
	for {
		if a, ok, err := d.read(id); ok || err != nil {
			return a, err
		}
		if !time.Now().Before(deadline) {
			err := d.write(id, decisionFile{Decision: activity.ApprovalDeny, By: activity.ApprovedByTimeout, At: time.Now().UTC()})
			if err != nil && !errors.Is(err, ErrDecided) {
				return activity.Approval{}, err
			}
			continue // read back whichever decision won
		}
		select {
		case <-ctx.Done():
			return activity.Approval{}, ctx.Err()
		case <-t.C:
		}
	}
}

// read returns id's decision when there is one.
func (d Dir) read(id string) (activity.Approval, bool, error) {
	b, err := readSmall(filepath.Join(d.Path, id+decisionSuffix))
	if errors.Is(err, os.ErrNotExist) {
		return activity.Approval{}, false, nil
	}
	if err != nil {
		return activity.Approval{}, false, err
	}
	var f decisionFile
	if err := json.Unmarshal(b, &f); err != nil {
		return activity.Approval{}, false, fmt.Errorf("decision file of %s is not valid: %w", id, err)
	}
	if f.Decision != activity.ApprovalApprove {
		f.Decision = activity.ApprovalDeny // anything but an explicit approve denies
	}
	if !activity.ValidDecider(f.By) && f.By != activity.ApprovedByTimeout {
		f.By = "unknown"
	}
	return activity.Approval{Decision: f.Decision, By: f.By, At: f.At}, true, nil
}

// Decide records the decision on a pending call: approve or deny, by api, page or terminal. The
// first decision wins; a later one gets ErrDecided.
func (d Dir) Decide(id, decision, by string) error {
	if !ValidID(id) {
		return ErrBadID
	}
	if decision != activity.ApprovalApprove && decision != activity.ApprovalDeny || !activity.ValidDecider(by) {
		return ErrBadDecider
	}
	if _, err := os.Lstat(filepath.Join(d.Path, id+pendingSuffix)); err != nil {
		if _, derr := os.Lstat(filepath.Join(d.Path, id+decisionSuffix)); derr == nil {
			return ErrDecided
		}
		return ErrNotFound
	}
	return d.write(id, decisionFile{Decision: decision, By: by, At: time.Now().UTC()})
}

// write creates id's decision file exclusively: the content goes to a private temp file, which
// is hard-linked to the final name (link fails when the name exists), so a reader sees a whole
// file and only the first writer succeeds.
func (d Dir) write(id string, f decisionFile) error {
	b, err := json.Marshal(f)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(d.Path, ".decision-*")
	if err != nil {
		return err
	}
	defer func() { _ = os.Remove(tmp.Name()) }()
	if _, err := tmp.Write(b); err != nil {
		_ = tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Link(tmp.Name(), filepath.Join(d.Path, id+decisionSuffix)); err != nil {
		if errors.Is(err, os.ErrExist) {
			return ErrDecided
		}
		return err
	}
	return nil
}

// List returns the calls waiting for a decision, oldest first. A missing directory is an empty
// list; a file that is not a valid pending record is skipped.
func (d Dir) List() ([]Pending, error) {
	ents, err := os.ReadDir(d.Path)
	if errors.Is(err, os.ErrNotExist) {
		return []Pending{}, nil
	}
	if err != nil {
		return nil, err
	}
	out := []Pending{}
	for _, e := range ents {
		id, ok := strings.CutSuffix(e.Name(), pendingSuffix)
		if !ok || !ValidID(id) || !e.Type().IsRegular() {
			continue
		}
		if _, err := os.Lstat(filepath.Join(d.Path, id+decisionSuffix)); err == nil {
			continue // decided, the holder has not yet removed it
		}
		b, err := readSmall(filepath.Join(d.Path, e.Name()))
		if err != nil {
			continue
		}
		var p Pending
		if json.Unmarshal(b, &p) != nil || p.ID != id {
			continue
		}
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].RequestedAt.Before(out[j].RequestedAt) })
	return out, nil
}

// readSmall reads a file of at most maxFileBytes, refusing a symlink.
func readSmall(path string) ([]byte, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() || fi.Size() > maxFileBytes {
		return nil, fmt.Errorf("%s is not a regular file of at most %d bytes", filepath.Base(path), maxFileBytes)
	}
	return os.ReadFile(path)
}

// newID is 16 random bytes in hexadecimal.
func newID() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return hex.EncodeToString(b[:]), nil
}

// Summarize is a one-line account of a call's arguments for a prompt or a page: the command of
// a Bash call, else the keys and short values, cut to 200 characters. It is not escaped: a
// terminal or page escapes it.
func Summarize(args map[string]any) string {
	if c, ok := args["command"].(string); ok {
		return cut(c)
	}
	keys := make([]string, 0, len(args))
	for k := range args {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s=%v", k, args[k]))
	}
	return cut(strings.Join(parts, " "))
}

func cut(s string) string {
	const maxRunes = 200
	if r := []rune(s); len(r) > maxRunes {
		return string(r[:maxRunes]) + "…"
	}
	return s
}
