package runindex

import (
	"encoding/binary"
	"hash/crc32"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/domain/runrecord"
)

// list is the listed runs as id:status:current.
func list(t *testing.T, s *Store) []string {
	t.Helper()
	recs, err := s.List()
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range recs {
		out = append(out, r.ID+":"+r.Status+":"+r.Current)
	}
	return out
}

// Changes that leave the runs directory's link count as it was (no run directory made or
// removed) are seen all the same: each is made after a list has built the index, and the next
// list, by a fresh store as another awf process would be, must show it.
func TestIndexSeesChangesInPlace(t *testing.T) {
	t0 := time.Unix(1000, 0)
	cases := []struct {
		name   string
		change func(t *testing.T, s *Store)
		want   []string
	}{
		{"a finished run resumed", func(t *testing.T, s *Store) {
			save(t, s, "a", runrecord.Running, t0)
		}, []string{"b:running:", "a:running:"}},
		{"a running run's journal grows", func(t *testing.T, s *Store) {
			j, err := s.OpenJournal("b")
			if err != nil {
				t.Fatal(err)
			}
			defer func() { _ = j.Close() }()
			if err := j.Append(runrecord.Entry{N: 1, At: t0, Current: "review"}); err != nil {
				t.Fatal(err)
			}
		}, []string{"b:running:review", "a:failure:"}},
		{"one run removed and another made", func(t *testing.T, s *Store) {
			if err := os.RemoveAll(s.Dir("a")); err != nil {
				t.Fatal(err)
			}
			save(t, s, "c", runrecord.Failed, t0.Add(2*time.Second))
		}, []string{"c:failure:", "b:running:"}},
		{"a starting run's record appears", func(t *testing.T, s *Store) {
			save(t, s, "s", runrecord.Running, t0.Add(3*time.Second))
		}, []string{"s:running:", "b:running:", "a:failure:"}},
		{"a record replaced at the same size and time", func(t *testing.T, s *Store) {
			file := filepath.Join(s.Dir("a"), "state.json")
			st, err := os.Stat(file)
			if err != nil {
				t.Fatal(err)
			}
			data, _ := os.ReadFile(file)
			tmp := file + ".new" // as long as the old one, given its time: only its inode differs
			if err := os.WriteFile(tmp, []byte(replaceOnce(string(data), `"failure"`, `"success"`)), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Chtimes(tmp, st.ModTime(), st.ModTime()); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(tmp, file); err != nil {
				t.Fatal(err)
			}
		}, []string{"b:running:", "a:success:"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			s := New(root, "activity.jsonl")
			save(t, s, "a", runrecord.Failed, t0)
			save(t, s, "b", runrecord.Running, t0.Add(time.Second))
			if tc.name == "a starting run's record appears" {
				if err := os.MkdirAll(s.Dir("s"), 0o700); err != nil { // made, no record yet
					t.Fatal(err)
				}
			}
			list(t, s)
			list(t, New(root, "activity.jsonl")) // the index now matches the directory
			tc.change(t, s)
			equal(t, list(t, New(root, "activity.jsonl")), tc.want...)
		})
	}
}

func replaceOnce(s, old, new string) string {
	for i := 0; i+len(old) <= len(s); i++ {
		if s[i:i+len(old)] == old {
			return s[:i] + new + s[i+len(old):]
		}
	}
	return s
}

// Every truncation and every flipped byte of an index is refused (the index is rebuilt),
// never a panic or a wrong list.
func TestDecodeRefusesDamage(t *testing.T) {
	good := encode(header{NLink: 4, Dirs: 2}, []entry{
		{ID: "a", Workflow: "w", Status: runrecord.Succeeded, Started: 5, Masked: []string{"k"}, State: stamp{1, 2, 3}},
		{ID: "b", Status: runrecord.Running, Active: []string{"x", "y"}, Calls: 3},
	})
	h, es, err := decode(good)
	if err != nil || h.NLink != 4 || len(es) != 2 || es[0].Masked[0] != "k" || es[1].Active[1] != "y" || es[1].Calls != 3 || es[0].State != (stamp{1, 2, 3}) {
		t.Fatalf("round trip: %v %v %+v", err, h, es)
	}
	for n := range len(good) {
		if _, _, err := decode(good[:n]); err == nil {
			t.Errorf("truncated to %d bytes: accepted", n)
		}
	}
	for i := range good {
		bad := append([]byte(nil), good...)
		bad[i] ^= 0x41
		if _, _, err := decode(bad); err == nil {
			t.Errorf("byte %d flipped: accepted", i)
		}
	}
}

// A well-formed index is refused all the same when it names a run outside the runs directory,
// a run twice (standing for one it leaves out) or more runs than it holds.
func TestDecodeRefusesPlanted(t *testing.T) {
	for name, entries := range map[string][]entry{
		"parent":    {{ID: "../x"}},
		"dot":       {{ID: ".index.json"}},
		"nested":    {{ID: "a/b"}},
		"nul":       {{ID: "a\x00"}},
		"twice":     {{ID: "a", Started: 2}, {ID: "a", Started: 1}},
		"empty id":  {{ID: ""}},
		"backslash": {{ID: `a\b`}},
	} {
		if _, _, err := decode(encode(header{NLink: 3, Dirs: 1}, entries)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	huge := []byte(magic + "\x00\x00\xff\xff\xff\xff\x0f")
	huge = binary.LittleEndian.AppendUint32(huge, crc32.Checksum(huge, castagnoli))
	if _, _, err := decode(huge); err == nil {
		t.Error("an index claiming 4 billion entries in 15 bytes: accepted")
	}
}
