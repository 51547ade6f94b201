package tool

import (
	"bytes"
	"cmp"
	"math"
	"slices"
	"unicode"
	"unicode/utf8"
)

// BM25 parameters: the usual Okapi values. nameWeight repeats the name's terms in the document,
// a cheap BM25F: a query word found in a tool's name counts more than one found in its prose.
const (
	bm25K1     = 1.2
	bm25B      = 0.75
	nameWeight = 2
)

// Match is one ranked definition: its index in the slice given to Rank and its BM25 score.
type Match struct {
	Index int
	Score float64
}

// Rank scores each definition's name and description against query with Okapi BM25 and returns
// the definitions that match at least one query term, best first (ties keep the given order),
// at most limit of them (limit <= 0: all). An empty query, or one with no terms, matches nothing.
// Terms come from Tokenize, so "readFile", "read_file" and "Read file" all find a tool named
// read_file.
func Rank(defs []Definition, query string, limit int) []Match {
	terms := uniqueTerms(Tokenize(query))
	if len(terms) == 0 || len(defs) == 0 {
		return nil
	}
	// Only the query terms' frequencies matter, so a document is scanned once into a small
	// per-term count instead of a map of every word it holds.
	tf := make([]int, len(defs)*len(terms))
	lengths := make([]int, len(defs))
	df := make([]int, len(terms))
	total := 0
	var buf []byte
	for i, d := range defs {
		counts := tf[i*len(terms) : (i+1)*len(terms)]
		count := func(weight int) func([]byte) {
			return func(term []byte) {
				lengths[i] += weight
				for j, t := range terms {
					if string(term) == t {
						counts[j] += weight
						break
					}
				}
			}
		}
		buf = scanTerms(d.Name, buf, count(nameWeight))
		buf = scanTerms(d.Description, buf, count(1))
		total += lengths[i]
		for j := range terms {
			if counts[j] > 0 {
				df[j]++
			}
		}
	}
	avg := float64(total) / float64(len(defs))
	if avg == 0 {
		avg = 1
	}
	n := float64(len(defs))
	var out []Match
	for i := range defs {
		score := 0.0
		norm := bm25K1 * (1 - bm25B + bm25B*float64(lengths[i])/avg)
		for j := range terms {
			f := float64(tf[i*len(terms)+j])
			if f == 0 {
				continue
			}
			idf := math.Log(1 + (n-float64(df[j])+0.5)/(float64(df[j])+0.5))
			score += idf * f * (bm25K1 + 1) / (f + norm)
		}
		if score > 0 {
			out = append(out, Match{Index: i, Score: score})
		}
	}
	slices.SortStableFunc(out, func(a, b Match) int { return cmp.Compare(b.Score, a.Score) })
	if limit > 0 {
		out = out[:min(limit, len(out))]
	}
	return out
}

// Tokenize splits text into lower-case search terms: at every character that is not a letter or
// a digit (so snake_case, kebab-case and dotted names split), and at camelCase boundaries
// ("readFile" → read, file; "HTTPServer" → http, server). A plural "s"/"es" is dropped so "files"
// finds "file".
func Tokenize(s string) []string {
	var out []string
	scanTerms(s, nil, func(term []byte) { out = append(out, string(term)) })
	return out
}

// scanTerms calls fn with each term of s, lower-cased and stemmed in buf (which it returns for
// reuse); fn must not keep the slice.
func scanTerms(s string, buf []byte, fn func(term []byte)) []byte {
	start := -1
	var prev rune
	emit := func(end int) {
		if start >= 0 { // a term is never empty: start is set at a letter or digit before end
			buf = buf[:0]
			for _, r := range s[start:end] {
				buf = utf8.AppendRune(buf, unicode.ToLower(r))
			}
			fn(stem(buf))
		}
		start = -1
	}
	for i, r := range s {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			emit(i)
			prev = r
			continue
		}
		if start >= 0 && unicode.IsUpper(r) {
			next, _ := utf8.DecodeRuneInString(s[i+utf8.RuneLen(r):])
			if unicode.IsLower(prev) || unicode.IsDigit(prev) || (unicode.IsUpper(prev) && unicode.IsLower(next)) {
				emit(i)
			}
		}
		if start < 0 {
			start = i
		}
		prev = r
	}
	emit(len(s))
	return buf
}

// stem removes an English plural ending, conservatively: only from words longer than three
// letters, never from "ss" (process, class), and "es" only after s, x, z, ch and sh.
func stem(w []byte) []byte {
	if len(w) <= 3 || !bytes.HasSuffix(w, []byte("s")) || bytes.HasSuffix(w, []byte("ss")) {
		return w
	}
	if base, ok := bytes.CutSuffix(w, []byte("es")); ok {
		for _, end := range [...]string{"s", "x", "z", "ch", "sh"} {
			if bytes.HasSuffix(base, []byte(end)) {
				return base
			}
		}
	}
	return w[:len(w)-1]
}

// uniqueTerms drops repeated query terms: repeating a word in a query should not reweigh it.
func uniqueTerms(ts []string) []string {
	out := ts[:0:0]
	for _, t := range ts {
		if !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}
