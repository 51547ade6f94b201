package cli

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
)

// Sessions of CLIs that run with a private home (codex's CODEX_HOME, gemini's GEMINI_CLI_HOME)
// live in that home, which is normally removed after the call. A call that keeps or continues a
// session therefore runs in a session directory instead: one per line of a conversation,
// <SessionDir>/<provider>/session-*, kept until the run ends (the engine removes SessionDir
// then), and found again by the session id the CLI reported, through an index file
// <SessionDir>/<provider>/ids/<id> holding the directory's name. The directory stays where it
// was created because codex records the absolute path of a session's rollout file in its
// home's database: a home copied or moved elsewhere cannot resume (verified with 0.169.0, "no
// rollout found for thread id"). Calls in one session directory take turns (a lock), since
// each rewrites the private files of its own step there (gemini's settings.json names the
// step's proxy) and two steps continuing one session in parallel branches must not see each
// other's.

// Continues reports whether the call continues an earlier session.
func Continues(req ports.AgentRequest) bool { return req.Session != nil && req.Session.ID != "" }

// KeepsHome reports whether a CLI that runs with a private home must keep it for the run: the
// call keeps its session for a later one, or continues one, and the run has somewhere to keep
// it. A plan then leaves session files on (codex's --ephemeral off).
func KeepsHome(req ports.AgentRequest) bool {
	return req.SessionDir != "" && (req.KeepSession || Continues(req))
}

// sessionIDPattern is what awf accepts as a session id in a file name: the CLIs report UUIDs.
var sessionIDPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$`)

// keepFiles are the entries of a session directory that outlive a call.
var keepFiles = map[string]bool{"home": true, lockName: true}

const lockName = ".lock"

// sessionDir returns the session directory of a call on provider and what ends the call there:
// it records the session id the CLI reported, removes the call's other private files and
// releases the lock. A call that continues a session gets the directory that session was
// started in; any other a new one.
func sessionDir(ctx context.Context, provider string, req ports.AgentRequest) (string, func(sessionID string), error) {
	if req.SessionDir == "" {
		return "", nil, fault.New(fault.UserConversationNoSession, "step %q continues %s session %s, but this awf keeps no %s sessions in this run", req.Step, provider, req.Session.ID, provider).
			WithHint("run the workflow with `awf run`, which keeps the sessions of conversation steps")
	}
	store := filepath.Join(req.SessionDir, provider)
	if err := os.MkdirAll(filepath.Join(store, "ids"), 0o700); err != nil {
		return "", nil, fault.Wrap(err, fault.ExecutionAgentSetup, "cannot create the %s session store %s", provider, store)
	}
	var dir string
	fresh := !Continues(req)
	if fresh {
		d, err := os.MkdirTemp(store, "session-")
		if err != nil {
			return "", nil, fault.Wrap(err, fault.ExecutionAgentSetup, "cannot create a %s session directory in %s", provider, store)
		}
		dir = d
	} else {
		d, err := lookupSession(store, provider, req)
		if err != nil {
			return "", nil, err
		}
		dir = d
	}
	unlock, err := lockDir(ctx, dir)
	if err != nil {
		return "", nil, fault.Wrap(err, fault.ExecutionAgentSetup, "cannot lock the %s session directory %s", provider, dir)
	}
	clearCallFiles(dir)
	done := func(id string) {
		defer unlock()
		clearCallFiles(dir)
		if id == "" || !sessionIDPattern.MatchString(id) {
			if fresh {
				_ = os.RemoveAll(dir) // nothing can find it again
			}
			return
		}
		_ = writeAtomic(filepath.Join(store, "ids", id), []byte(filepath.Base(dir)))
	}
	return dir, done, nil
}

// lookupSession finds the directory of the session req continues.
func lookupSession(store, provider string, req ports.AgentRequest) (string, error) {
	id := req.Session.ID
	notKept := func() error {
		return fault.New(fault.UserConversationNoSession, "step %q continues %s session %s, which awf did not keep in this run's private %s home", req.Step, provider, id, provider).
			WithHint("a %s session that started with awf's private home (mcp_proxy, or options such as base_url) can only be continued in the same run by a step that runs with one too; a resumed run no longer has the homes of the interrupted one: start the conversation again", provider)
	}
	if !sessionIDPattern.MatchString(id) {
		return "", notKept()
	}
	name, err := os.ReadFile(filepath.Join(store, "ids", id))
	if errors.Is(err, fs.ErrNotExist) {
		return "", notKept()
	}
	if err != nil {
		return "", fault.Wrap(err, fault.ExecutionAgentSetup, "cannot read the %s session index of %s", provider, id)
	}
	dir := filepath.Join(store, string(name))
	if !inside(store, dir) || filepath.Dir(dir) != store {
		return "", notKept()
	}
	if _, err := os.Stat(filepath.Join(dir, "home")); err != nil {
		return "", notKept()
	}
	return dir, nil
}

// clearCallFiles removes what one call wrote into a session directory besides the home.
func clearCallFiles(dir string) {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if !keepFiles[e.Name()] {
			_ = os.RemoveAll(filepath.Join(dir, e.Name()))
		}
	}
}

// writeAtomic replaces path with data (0600) through a rename, so a reader never sees half.
func writeAtomic(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), ".tmp-")
	if err != nil {
		return err
	}
	_, werr := f.Write(data)
	cerr := f.Close()
	if werr != nil || cerr != nil {
		_ = os.Remove(f.Name())
		return errors.Join(werr, cerr)
	}
	if err := os.Rename(f.Name(), path); err != nil {
		_ = os.Remove(f.Name())
		return err
	}
	return nil
}

// lockDir holds an exclusive lock on dir/.lock until the returned function is called.
func lockDir(ctx context.Context, dir string) (func(), error) {
	f, err := os.OpenFile(filepath.Join(dir, lockName), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	if err := lockFile(ctx, f); err != nil {
		_ = f.Close()
		return nil, err
	}
	return func() { _ = unlockFile(f); _ = f.Close() }, nil
}
