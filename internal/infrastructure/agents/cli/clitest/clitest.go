// Package clitest is a stand-in agent CLI for the providers' tests: a shell script that
// records how it was started (arguments, environment, working directory, a copy of the private
// files), prints a canned report and exits with a chosen status. A provider test points the
// step's `binary` option at it and steers it through the step's `env` option, exactly as a
// user would configure a real CLI.
package clitest

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// script honours, all optional:
//
//	FAKE_RECORD   path prefix: writes <p>.args (NUL-separated), <p>.env (env -0), <p>.cwd
//	FAKE_COPY     a directory copied to <FAKE_RECORD>.files before the CLI "works"
//	FAKE_STDOUT   a file printed on stdout
//	FAKE_STDERR   text printed on stderr
//	FAKE_PIDFILE  starts `sleep 1000` in the background and writes its pid there, then waits
//	FAKE_STUBBORN with FAKE_PIDFILE: ignore SIGTERM
//	FAKE_EXIT     exit status (default 0)
const script = `#!/bin/sh
if [ -n "$FAKE_RECORD" ]; then
  printf '%s\0' "$@" > "$FAKE_RECORD.args"
  env -0 > "$FAKE_RECORD.env"
  pwd > "$FAKE_RECORD.cwd"
  if [ -n "$FAKE_COPY" ] && [ -d "$FAKE_COPY" ]; then cp -R "$FAKE_COPY" "$FAKE_RECORD.files"; fi
fi
if [ -n "$FAKE_STDOUT" ]; then cat "$FAKE_STDOUT"; fi
if [ -n "$FAKE_STDERR" ]; then printf '%s\n' "$FAKE_STDERR" >&2; fi
if [ -n "$FAKE_PIDFILE" ]; then
  if [ -n "$FAKE_STUBBORN" ]; then trap '' TERM; fi
  sleep 1000 &
  echo $! > "$FAKE_PIDFILE.tmp" && mv "$FAKE_PIDFILE.tmp" "$FAKE_PIDFILE"
  while :; do wait; done
fi
exit "${FAKE_EXIT:-0}"
`

// Script writes the fake CLI into a fresh directory and returns its path.
func Script(t testing.TB) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "fake-cli")
	if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// Record is what one run of the fake saw.
type Record struct {
	Args  []string
	Env   map[string]string
	Cwd   string
	Files map[string]string // path relative to FAKE_COPY → content
}

// Read loads the record written under prefix.
func Read(t testing.TB, prefix string) Record {
	t.Helper()
	args, err := os.ReadFile(prefix + ".args")
	if err != nil {
		t.Fatalf("the fake CLI did not run (no %s.args): %v", prefix, err)
	}
	rec := Record{Env: map[string]string{}, Files: map[string]string{}}
	for _, a := range bytes.Split(args, []byte{0}) {
		rec.Args = append(rec.Args, string(a))
	}
	rec.Args = rec.Args[:len(rec.Args)-1] // the trailing NUL leaves an empty last field
	env, err := os.ReadFile(prefix + ".env")
	if err != nil {
		t.Fatal(err)
	}
	for _, kv := range bytes.Split(env, []byte{0}) {
		if k, v, ok := strings.Cut(string(kv), "="); ok {
			rec.Env[k] = v
		}
	}
	cwd, err := os.ReadFile(prefix + ".cwd")
	if err != nil {
		t.Fatal(err)
	}
	rec.Cwd = strings.TrimSpace(string(cwd))
	root := prefix + ".files"
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		b, rerr := os.ReadFile(p)
		if rerr != nil {
			return rerr
		}
		rel, _ := filepath.Rel(root, p)
		rec.Files[rel] = string(b)
		return nil
	})
	return rec
}

// Snapshot lists every path under root with its size and mode, to show a run left a tree
// (the user's home, the step's dir) exactly as it found it.
func Snapshot(t testing.TB, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		out[rel] = fi.Mode().String() + " " + strconv.FormatInt(fi.Size(), 10)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
