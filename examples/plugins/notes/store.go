package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
)

// Note is one stored note.
type Note struct {
	Key      string    `json:"key"`
	Text     string    `json:"text"`
	Tags     []string  `json:"tags,omitempty"`
	Priority string    `json:"priority"`
	Updated  time.Time `json:"updated"`
}

// Summary is what list returns per note: enough to pick one without the whole text.
type Summary struct {
	Key      string    `json:"key"`
	Title    string    `json:"title"`
	Tags     []string  `json:"tags,omitempty"`
	Priority string    `json:"priority"`
	Updated  time.Time `json:"updated"`
}

// fileName is the store's file inside the configured directory.
const fileName = "notes.json"

// errNotFound is returned for a key that has no note.
var errNotFound = errors.New("not found")

// Store keeps notes in memory and in one JSON file, rewritten atomically on every change so a
// crash never leaves half a file. One process owns the file; concurrent calls are serialised.
type Store struct {
	mu    sync.Mutex
	path  string
	notes map[string]Note
	now   func() time.Time
}

// Open loads the store in dir; a missing file is an empty store. The directory is created on
// the first write, not here, so a read-only session leaves no trace.
func Open(dir string) (*Store, error) {
	s := &Store{path: filepath.Join(dir, fileName), notes: map[string]Note{}, now: time.Now}
	data, err := os.ReadFile(s.path)
	if errors.Is(err, fs.ErrNotExist) {
		return s, nil
	}
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %w", s.path, err)
	}
	var doc struct {
		Notes map[string]Note `json:"notes"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%s is not a notes file (%v): move it away or fix it", s.path, err)
	}
	if doc.Notes != nil {
		s.notes = doc.Notes
	}
	return s, nil
}

// Len returns how many notes the store holds.
func (s *Store) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.notes)
}

// Get returns the note under key.
func (s *Store) Get(key string) (Note, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n, ok := s.notes[key]
	if !ok {
		return Note{}, errNotFound
	}
	return n, nil
}

// List returns summaries of the notes whose key starts with prefix and that carry tag (when
// given), sorted by key, at most limit of them, plus how many matched in all.
func (s *Store) List(prefix, tag string, limit int) ([]Summary, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Summary
	for _, n := range s.notes {
		if !strings.HasPrefix(n.Key, prefix) || (tag != "" && !contains(n.Tags, tag)) {
			continue
		}
		out = append(out, Summary{Key: n.Key, Title: firstLine(n.Text), Tags: n.Tags, Priority: n.Priority, Updated: n.Updated})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	total := len(out)
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return out, total
}

// Put stores n under n.Key and reports whether it replaced a note.
func (s *Store) Put(n Note) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	old, existed := s.notes[n.Key]
	n.Updated = s.now().UTC()
	s.notes[n.Key] = n
	if err := s.save(); err != nil {
		if existed {
			s.notes[n.Key] = old
		} else {
			delete(s.notes, n.Key)
		}
		return false, err
	}
	return existed, nil
}

// Delete removes the note under key.
func (s *Store) Delete(key string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	old, ok := s.notes[key]
	if !ok {
		return errNotFound
	}
	delete(s.notes, key)
	if err := s.save(); err != nil {
		s.notes[key] = old
		return err
	}
	return nil
}

// save writes the whole store to a temp file in the same directory and renames it over the old
// one. The caller holds mu.
func (s *Store) save() error {
	dir := filepath.Dir(s.path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("cannot create %s: %w", dir, err)
	}
	data, err := json.MarshalIndent(struct {
		Notes map[string]Note `json:"notes"`
	}{s.notes}, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, ".notes-*.json")
	if err != nil {
		return fmt.Errorf("cannot write to %s: %w", dir, err)
	}
	defer func() { _ = os.Remove(tmp.Name()) }()
	if _, err := tmp.Write(append(data, '\n')); err != nil {
		_ = tmp.Close()
		return fmt.Errorf("cannot write %s: %w", tmp.Name(), err)
	}
	if err := tmp.Sync(); err != nil {
		_ = tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), s.path); err != nil {
		return fmt.Errorf("cannot replace %s: %w", s.path, err)
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// firstLine is a note's title: its first line, cut to 80 characters.
func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	if r := []rune(line); len(r) > 80 {
		return string(r[:80]) + "…"
	}
	return line
}
