package tool

import (
	"math"
	"reflect"
	"testing"
)

// referenceBM25 is Okapi BM25 written the textbook way (a map of term counts per document), to
// check Rank's single-pass arithmetic against: name terms count nameWeight times.
func referenceBM25(defs []Definition, query string) []float64 {
	terms := uniqueTerms(Tokenize(query))
	docs := make([]map[string]float64, len(defs))
	lengths := make([]float64, len(defs))
	total := 0.0
	for i, d := range defs {
		docs[i] = map[string]float64{}
		for _, w := range Tokenize(d.Name) {
			docs[i][w] += nameWeight
			lengths[i] += nameWeight
		}
		for _, w := range Tokenize(d.Description) {
			docs[i][w]++
			lengths[i]++
		}
		total += lengths[i]
	}
	n := float64(len(defs))
	avg := total / n
	scores := make([]float64, len(defs))
	for _, term := range terms {
		df := 0.0
		for _, doc := range docs {
			if doc[term] > 0 {
				df++
			}
		}
		idf := math.Log(1 + (n-df+0.5)/(df+0.5))
		for i, doc := range docs {
			f := doc[term]
			scores[i] += idf * f * (bm25K1 + 1) / (f + bm25K1*(1-bm25B+bm25B*lengths[i]/avg))
		}
	}
	return scores
}

func TestRankScoresAreOkapiBM25(t *testing.T) {
	defs := []Definition{
		{Name: "Read", Description: "Reads a text file and returns its lines numbered, a file at a time."},
		{Name: "Write", Description: "Writes a file."},
		{Name: "Bash", Description: "Runs a shell command in the project directory, with a timeout."},
		{Name: "notes_search", Description: "Search notes: search titles and bodies of every note."},
		{Name: "Glob", Description: ""},
	}
	for _, query := range []string{"file", "read file", "search notes", "shell timeout file", "glob"} {
		want := referenceBM25(defs, query)
		got := map[int]float64{}
		for _, m := range Rank(defs, query, 0) {
			got[m.Index] = m.Score
		}
		for i, w := range want {
			if w == 0 {
				if _, ok := got[i]; ok {
					t.Errorf("%q: %s matched with score %v, want no match", query, defs[i].Name, got[i])
				}
				continue
			}
			if g, ok := got[i]; !ok || math.Abs(g-w) > 1e-9*w {
				t.Errorf("%q: %s score = %v, want %v", query, defs[i].Name, g, w)
			}
		}
	}
}

// TestRankOrdersBestFirst gives the best match last, so only sorting can put it first; equal
// scores keep the given order.
func TestRankOrdersBestFirst(t *testing.T) {
	defs := []Definition{
		{Name: "a", Description: "deploy"},
		{Name: "b", Description: "unrelated"},
		{Name: "deploy", Description: "deploy the deploy"},
		{Name: "c", Description: "deploy"},
	}
	var got []int
	for _, m := range Rank(defs, "deploy", 0) {
		got = append(got, m.Index)
	}
	if want := []int{2, 0, 3}; !reflect.DeepEqual(got, want) {
		t.Fatalf("Rank order = %v, want %v", got, want)
	}
	if ms := Rank(defs, "deploy", 3); len(ms) != 3 {
		t.Fatalf("limit equal to the match count cut the list: %v", ms)
	}
	// A document with no terms at all (average length 0) must not divide by zero.
	if ms := Rank([]Definition{{}, {}}, "x", 0); ms != nil {
		t.Fatalf("Rank over empty definitions = %v", ms)
	}
}

func TestStem(t *testing.T) {
	tests := map[string]string{
		"files": "file", "ads": "ads", "bus": "bus", "class": "class", "process": "process",
		"boxes": "box", "matches": "match", "wishes": "wish", "buzzes": "buzz", "gases": "gas",
		"notes": "note", "axes": "ax", "games": "game", "read": "read", "tests": "test",
	}
	for in, want := range tests {
		if got := string(stem([]byte(in))); got != want {
			t.Errorf("stem(%q) = %q, want %q", in, got, want)
		}
	}
}
