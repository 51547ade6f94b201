package tool

import (
	"reflect"
	"testing"
)

func TestTokenize(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"readFile", []string{"read", "file"}},
		{"read_file", []string{"read", "file"}},
		{"HTTPServer", []string{"http", "server"}},
		{"github:delete_repo", []string{"github", "delete", "repo"}},
		{"notes-add.v2", []string{"note", "add", "v2"}},
		{"Find files by pattern", []string{"find", "file", "by", "pattern"}},
		{"matches processes boxes class", []string{"match", "process", "box", "class"}},
		{"sha256Sum", []string{"sha256", "sum"}},
		{"Ünïcode Straße", []string{"ünïcode", "straße"}},
		{"  ,,  ", nil},
		{"", nil},
	}
	for _, tt := range tests {
		if got := Tokenize(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Tokenize(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestRank(t *testing.T) {
	defs := []Definition{
		{Name: "Read", Description: "Reads a text file and returns its lines numbered."},
		{Name: "Write", Description: "Writes a file, replacing its content."},
		{Name: "Bash", Description: "Runs a shell command."},
		{Name: "Grep", Description: "Search file contents with a regular expression."},
		{Name: "notes_search", Description: "Search the notes."},
		{Name: "readFileRange", Description: "Returns part of a file."},
	}
	names := func(ms []Match) []string {
		var out []string
		for _, m := range ms {
			out = append(out, defs[m.Index].Name)
		}
		return out
	}
	tests := []struct {
		query string
		limit int
		want  []string
	}{
		{"shell command", 0, []string{"Bash"}},
		{"read file", 0, []string{"readFileRange", "Read", "Write", "Grep"}},
		{"search", 0, []string{"notes_search", "Grep"}},
		{"search", 1, []string{"notes_search"}},
		{"SEARCH search Search", 0, []string{"notes_search", "Grep"}},
		{"kubernetes", 0, nil},
		{"", 0, nil},
	}
	for _, tt := range tests {
		ms := Rank(defs, tt.query, tt.limit)
		if got := names(ms); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Rank(%q, %d) = %q, want %q", tt.query, tt.limit, got, tt.want)
		}
		for i := 1; i < len(ms); i++ {
			if ms[i].Score > ms[i-1].Score {
				t.Errorf("Rank(%q) not sorted: %+v", tt.query, ms)
			}
		}
		for _, m := range ms {
			if m.Score <= 0 {
				t.Errorf("Rank(%q) returned a non-matching entry %+v", tt.query, m)
			}
		}
	}
	if got := Rank(nil, "read", 10); got != nil {
		t.Errorf("Rank over no definitions = %v", got)
	}
}

func BenchmarkRank(b *testing.B) {
	defs := make([]Definition, 0, 200)
	for i := range 200 {
		defs = append(defs, Definition{Name: "plugin_op_" + string(rune('a'+i%26)), Description: "Does thing number something with files and records."})
	}
	defs = append(defs, Definition{Name: "Grep", Description: "Search file contents with a regular expression."})
	b.ReportAllocs()
	for b.Loop() {
		if len(Rank(defs, "search file contents", 10)) == 0 {
			b.Fatal("no match")
		}
	}
}
