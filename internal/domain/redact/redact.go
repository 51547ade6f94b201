// Package redact masks secrets in text before awf writes, truncates or exports it: activity
// records, the run log and the terminal, spans, error messages and step output shown by awf.
// It is one type, built once per process from the environment, so every sink masks the same
// values the same way.
//
// Two sources of secrets are masked:
//
//   - the values of environment variables whose names mark them secret (IsSecretName, plus the
//     names a run adds, such as a step's api_key_env), including any run of at least MinRun
//     bytes that is a substring of such a value, so an excerpt cut in the middle of a key is
//     still masked. A value is indexed by its MinRun-byte windows (each one a uint64, looked up
//     in an open-addressing table), so masking costs one hash probe per byte of text whatever
//     the number of secrets;
//   - well-known token shapes (rules.go), derived from gitleaks' public rule set.
//
// Values shorter than MinRun bytes are not masked: they cannot be told from ordinary text.
package redact

import (
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"
)

// MinRun is the shortest run of a secret value that is masked, in bytes.
const MinRun = 8

// Mask replaces a secret value (or a run of one); shape matches are masked as "[REDACTED:<rule>]".
const Mask = "[REDACTED]"

// Redactor masks secrets. A nil *Redactor masks nothing, so code that was given none keeps
// working unchanged; use New. A Redactor is safe for concurrent use: AddNames swaps its table
// atomically.
type Redactor struct {
	mu    sync.Mutex // serialises AddNames
	env   map[string]string
	names map[string]bool // extra secret names (api_key_env)
	kept  map[string]bool // values masked under no name: a run's kept mask set (AddMasks)
	tab   atomic.Pointer[table]
	gen   atomic.Uint64 // how many times tab was built (Generation)
}

// table is what one masking pass reads; it never changes once built.
type table struct {
	grams gramSet
}

// IsSecretName reports whether an environment variable's (or an input's) name marks its value
// secret, case-insensitively: its last `_` word is KEY, TOKEN, SECRET or PAT, singular or plural
// (`OPENAI_API_KEY`, `api_keys`, `deploy_tokens`, `client_secrets`); or it holds PASSWORD
// (`PGPASSWORD`, `db_passwords`) or CREDENTIALS anywhere. A word that merely starts like one
// is not one (`TOKENIZER`, `KEYBOARD`, `SECRETARY`, `PATTERN`), nor is PASSWORDLESS, which
// names the absence of one (`passwordless_hint`). The rule errs towards masking: a false
// positive masks a harmless value, a false negative leaks a credential (the rule is that of
// docs/decisions/0011-values-are-data-secrets-are-masked.md).
func IsSecretName(name string) bool {
	n := strings.ToUpper(name)
	if i := strings.LastIndexByte(n, '_'); i >= 0 {
		switch strings.TrimSuffix(n[i+1:], "S") {
		case "KEY", "TOKEN", "SECRET", "PAT":
			return true
		}
	}
	return strings.Contains(strings.ReplaceAll(n, "PASSWORDLESS", ""), "PASSWORD") || strings.Contains(n, "CREDENTIALS")
}

// New returns a redactor over env ("NAME=value" entries): the values of the variables that
// IsSecretName marks, or that names lists, are masked.
func New(env []string, names ...string) *Redactor {
	r := &Redactor{env: make(map[string]string, len(env)), names: map[string]bool{}, kept: map[string]bool{}}
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok {
			r.env[k] = v
		}
	}
	for _, n := range names {
		r.names[n] = true
	}
	r.rebuild()
	return r
}

// AddNames marks more variables secret, such as the variable a step's api_key_env names; their
// values are masked from then on. Names already known cost nothing.
func (r *Redactor) AddNames(names ...string) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	added := false
	for _, n := range names {
		if n != "" && !r.names[n] && !IsSecretName(n) {
			r.names[n] = true
			added = true
		}
	}
	if added {
		r.rebuild()
	}
}

// AddValue masks value from then on, under label (what Secrets lists): the value of a workflow
// input whose name marks it secret, which no environment variable holds.
func (r *Redactor) AddValue(label, value string) {
	if r == nil || len(value) < MinRun {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.env[label] == value && r.names[label] {
		return
	}
	r.env[label] = value
	r.names[label] = true
	r.rebuild()
}

// Secrets returns the names of the variables whose values are masked, sorted.
func (r *Redactor) Secrets() []string {
	if r == nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for k, v := range r.env {
		if len(v) >= MinRun && (IsSecretName(k) || r.names[k]) {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// rebuild indexes the secret values; the caller holds mu (or owns r).
func (r *Redactor) rebuild() {
	var values []string
	for k, v := range r.env {
		if len(v) >= MinRun && (IsSecretName(k) || r.names[k]) {
			values = append(values, v)
			values = appendEscaped(values, v)
		}
	}
	for v := range r.kept {
		values = append(values, v)
		values = appendEscaped(values, v)
	}
	r.tab.Store(&table{grams: newGramSet(values)})
	r.gen.Add(1)
}

// Generation changes whenever the set of masked values does: a caller that scanned text
// earlier (a run keeping its mask set) scans again only when it changed since.
func (r *Redactor) Generation() uint64 {
	if r == nil {
		return 0
	}
	return r.gen.Load()
}

// appendEscaped appends the forms v takes inside a JSON string, where they differ from v: as a
// log line or record writes it, and as encoding/json's default HTML-safe escaping writes it
// (\u003c, \u003e, \u0026: awf's --format json documents).
func appendEscaped(values []string, v string) []string {
	q := jsonEscaped(v)
	if q != v {
		values = append(values, q)
	}
	if h := htmlSafe.Replace(q); h != q {
		values = append(values, h)
	}
	return values
}

// htmlSafe is the escaping encoding/json adds by default inside strings.
var htmlSafe = strings.NewReplacer("<", `\u003c`, ">", `\u003e`, "&", `\u0026`)

// jsonEscaped is v as it appears between the quotes of a JSON string.
func jsonEscaped(v string) string {
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\r':
			b.WriteString(`\r`)
		case c == '\t':
			b.WriteString(`\t`)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// span is a half-open byte range to mask and what to write instead.
type span struct {
	start, end int
	mask       string
}

// find returns the ranges of s to mask, sorted and merged.
func (r *Redactor) find(s string) []span {
	var out []span
	if t := r.tab.Load(); t != nil {
		out = t.grams.find(s, out)
	}
	out = findShapes(s, out)
	if len(out) < 2 {
		return out
	}
	sort.Slice(out, func(i, j int) bool { return out[i].start < out[j].start })
	merged := out[:1]
	for _, sp := range out[1:] {
		last := &merged[len(merged)-1]
		if sp.start <= last.end {
			last.end = max(last.end, sp.end)
			continue
		}
		merged = append(merged, sp)
	}
	return merged
}

// String returns s with every secret masked; s itself when there is none.
func (r *Redactor) String(s string) string {
	if r == nil || s == "" {
		return s
	}
	spans := r.find(s)
	if len(spans) == 0 {
		return s
	}
	return masked(s, spans)
}

// masked returns s with spans replaced by their masks.
func masked(s string, spans []span) string {
	var b strings.Builder
	b.Grow(len(s))
	prev := 0
	for _, sp := range spans {
		b.WriteString(s[prev:sp.start])
		b.WriteString(sp.mask)
		prev = sp.end
	}
	b.WriteString(s[prev:])
	return b.String()
}

// Bytes is String for a byte slice; it returns b itself when nothing is masked. b is read
// in place, not copied: it must not change while Bytes runs.
func (r *Redactor) Bytes(b []byte) []byte {
	if r == nil || len(b) == 0 {
		return b
	}
	s := unsafe.String(unsafe.SliceData(b), len(b)) // only read, and not kept past this call
	spans := r.find(s)
	if len(spans) == 0 {
		return b
	}
	return []byte(masked(s, spans))
}

// Value returns a decoded JSON value (or any tree of maps, slices and strings) with every string
// masked, map keys included: v itself when nothing in it needs masking (the common case, which
// then costs no copy), otherwise a copy, in which the parts that need nothing may be shared
// with v. Other values are returned as they are; the input is never modified.
func (r *Redactor) Value(v any) any {
	if r == nil || r.clean(v) {
		return v
	}
	switch val := v.(type) {
	case string:
		return r.String(val)
	case map[string]any:
		return r.Map(val)
	case []any:
		out := make([]any, len(val))
		for i, e := range val {
			out[i] = r.Value(e)
		}
		return out
	case []string:
		out := make([]string, len(val))
		for i, e := range val {
			out[i] = r.String(e)
		}
		return out
	default:
		return v
	}
}

// Map is Value for an object such as a tool call's arguments; nil stays nil, and m itself is
// returned when nothing in it needs masking.
func (r *Redactor) Map(m map[string]any) map[string]any {
	if r == nil || m == nil || r.clean(m) {
		return m
	}
	out := make(map[string]any, len(m))
	for k, e := range m {
		out[r.String(k)] = r.Value(e)
	}
	return out
}

// clean reports whether nothing in v (a tree as Value takes) needs masking.
func (r *Redactor) clean(v any) bool {
	switch val := v.(type) {
	case string:
		return len(r.find(val)) == 0
	case map[string]any:
		for k, e := range val {
			if len(r.find(k)) != 0 || !r.clean(e) {
				return false
			}
		}
	case []any:
		for _, e := range val {
			if !r.clean(e) {
				return false
			}
		}
	case []string:
		for _, e := range val {
			if len(r.find(e)) != 0 {
				return false
			}
		}
	}
	return true
}
