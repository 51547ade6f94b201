package toolscan

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/awf-dev/awf/internal/domain/redact"
)

// Rule ids: stable, written in reports, SARIF and the docs' rules table.
const (
	RuleHiddenCharacters   = "hidden-characters"
	RuleModelInstructions  = "model-instructions"
	RuleCredentialPath     = "credential-path"
	RuleShadowsBuiltin     = "shadows-builtin"
	RuleAnnotationMismatch = "annotation-mismatch"
	RuleBuiltinReference   = "builtin-reference"
	RuleToolReference      = "tool-reference"
	RuleShadowsServerTool  = "shadows-server-tool"
	RuleSecret             = "secret"
)

// RuleInfo describes a rule for reports (SARIF's rules, the docs' table).
type RuleInfo struct {
	ID       string
	Severity Severity
	Summary  string
}

// Rules are every rule by id. The high ones look at one tool alone, so a step that starts one
// server gates its tools as `awf plugins lock` did; rules that compare servers are medium.
var Rules = map[string]RuleInfo{
	RuleHiddenCharacters:   {RuleHiddenCharacters, High, "invisible or direction-changing characters (zero-width, bidi overrides and isolates, tag characters, other format or control characters)"},
	RuleModelInstructions:  {RuleModelInstructions, High, "instruction-like text aimed at the model (\"ignore previous instructions\", \"do not tell the user\", <IMPORTANT> …)"},
	RuleCredentialPath:     {RuleCredentialPath, High, "a credential path (~/.ssh, id_rsa, .aws/credentials, .npmrc, .netrc, .env, /proc/*/environ …)"},
	RuleShadowsBuiltin:     {RuleShadowsBuiltin, High, "the tool's name is a built-in tool's (Read, Write, Edit, Bash, Glob, Grep …) or awf's own"},
	RuleAnnotationMismatch: {RuleAnnotationMismatch, High, "annotations contradict the name (readOnlyHint on delete_/write_/… , destructiveHint false on delete_/drop_/…)"},
	RuleBuiltinReference:   {RuleBuiltinReference, Medium, "the text names a built-in tool (\"the Bash tool\", `Read`, call_tool_write …)"},
	RuleToolReference:      {RuleToolReference, Medium, "the text names another server's tool"},
	RuleShadowsServerTool:  {RuleShadowsServerTool, Medium, "the tool's name is another server's tool as the agent sees it (<plugin>_<tool>)"},
	RuleSecret:             {RuleSecret, Medium, "the text holds a token shape (the secret shapes awf masks)"},
}

// RuleIDs are the rule ids, high ones first, for stable reports.
func RuleIDs() []string {
	ids := make([]string, 0, len(Rules))
	for id := range Rules {
		ids = append(ids, id)
	}
	slices.SortFunc(ids, func(a, b string) int {
		return cmp.Or(cmp.Compare(Rules[a].Severity.rank(), Rules[b].Severity.rank()), strings.Compare(a, b))
	})
	return ids
}

// invisible reports a character that a reader does not see or that changes how the text
// around it reads: control and format characters (zero-width, bidi, tags, soft hyphen, BOM),
// line and paragraph separators, and the supplementary variation selectors (used to smuggle
// bytes). Tab and newline are ordinary.
func invisible(r rune) bool {
	switch {
	case r == '\t' || r == '\n':
		return false
	case unicode.Is(unicode.Cc, r), unicode.Is(unicode.Cf, r), unicode.Is(unicode.Zl, r), unicode.Is(unicode.Zp, r):
		return true
	case r >= 0xE0100 && r <= 0xE01EF, r == 0x3164, r == 0x115F, r == 0x1160, r == 0xFFA0:
		return true
	}
	return false
}

// hiddenChars finds invisible characters: the message counts them and decodes a tag-character
// payload (U+E0020–U+E007E spell ASCII), the text is the escaped excerpt around the first.
func hiddenChars(s string) (msg, text string, ok bool) {
	n, first := 0, -1
	var tags strings.Builder
	for i, r := range s {
		if r == '\r' || !invisible(r) {
			continue
		}
		if first < 0 {
			first = i
		}
		n++
		if r >= 0xE0020 && r <= 0xE007E {
			tags.WriteRune(r - 0xE0000)
		}
	}
	if n == 0 {
		return "", "", false
	}
	r, size := utf8.DecodeRuneInString(s[first:])
	msg = fmt.Sprintf("%d invisible or direction-changing character(s), the first U+%04X", n, r)
	if tags.Len() > 0 {
		msg += fmt.Sprintf("; tag characters spell %q", Escape(tags.String()))
	}
	return msg, excerpt(s, first, first+size), true
}

// visible is s without its invisible characters, so that "ig\u200bnore" reads as "ignore"
// to the other rules, with a run of tag characters decoded to the ASCII it hides, set apart
// by spaces.
func visible(s string) string {
	var b strings.Builder
	inTags := false
	for _, r := range s {
		tag := r >= 0xE0020 && r <= 0xE007E
		if tag != inTags {
			b.WriteByte(' ')
			inTags = tag
		}
		switch {
		case tag:
			b.WriteRune(r - 0xE0000)
		case !invisible(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// excerpt is the escaped text around s[i:j], at most 40 characters either side, with "…"
// where it cuts.
func excerpt(s string, i, j int) string {
	const around = 40
	before, after := []rune(s[:i]), []rune(s[j:])
	pre, post := "", ""
	if len(before) > around {
		before, pre = before[len(before)-around:], "…"
	}
	if len(after) > around {
		after, post = after[:around], "…"
	}
	return pre + Escape(string(before)+s[i:j]+string(after)) + post
}

// matchIn finds the first of res in s and returns what matched (lower case, whitespace
// folded) and the escaped excerpt around it.
func matchIn(s string, res []*regexp.Regexp) (string, string, bool) {
	for _, re := range res {
		if m := re.FindStringIndex(s); m != nil {
			return strings.Join(strings.Fields(strings.ToLower(s[m[0]:m[1]])), " "), excerpt(s, m[0], m[1]), true
		}
	}
	return "", "", false
}

// The expressions below compile on first use: most awf processes never scan a definition.

// instructionPhrases are the texts that speak to the model rather than describe a tool. The
// list is small on purpose: every entry is an imperative no honest description needs. Any
// case, any run of whitespace between words, straight or curly apostrophes.
var instructionPhrases = sync.OnceValue(func() []*regexp.Regexp {
	return []*regexp.Regexp{
		regexp.MustCompile(`(?i)\b(ignore|disregard|forget|override)(\s+(all|any|the|your))*\s+(previous|prior|above|earlier|preceding|system|other)\s+(instructions|prompts?|rules|messages|directions)\b`),
		regexp.MustCompile(`(?i)\bbefore\s+(using|calling|running|invoking)\s+(any|every)\s+other\s+tools?\b`),
		regexp.MustCompile(`(?i)\b(do\s+not|don['’‘]?t|never)\s+(tell|inform|alert|notify|warn|show)\s+(the\s+)?user\b`),
		regexp.MustCompile(`(?i)\bwithout\s+(telling|informing|alerting|notifying|asking)\s+(the\s+)?user\b`),
		regexp.MustCompile(`(?i)\b(do\s+not|don['’‘]?t|never)\s+(mention|reveal|disclose)\s+(this|that|these|it)\b`),
		regexp.MustCompile(`(?i)<\s*/?\s*(important|system|instructions?|secret|hidden)\s*>`),
		regexp.MustCompile(`(?i)\b(you\s+are\s+now|new\s+instructions:|system\s+prompt:|from\s+now\s+on,?\s+you)`),
	}
})

func instructions(s string) (string, string, bool) {
	m, text, ok := matchIn(s, instructionPhrases())
	if !ok {
		return "", "", false
	}
	return fmt.Sprintf("instruction aimed at the model (%q)", m), text, true
}

// credentialPaths are files that hold keys and tokens; a description that names one is asking
// the model to read it.
var credentialPaths = sync.OnceValue(func() []*regexp.Regexp {
	return []*regexp.Regexp{
		regexp.MustCompile(`(?i)~/\.ssh\b|(^|[^\w.])\.ssh/|\bid_(rsa|dsa|ecdsa|ed25519)\b|\bauthorized_keys\b`),
		regexp.MustCompile(`(?i)\.aws/(credentials|config)\b|\.config/gcloud\b|\.azure/|\.kube/config\b|\.docker/config\.json`),
		regexp.MustCompile(`(?i)(^|[^\w.])\.(npmrc|netrc|pypirc|git-credentials|pgpass|gnupg)\b`),
		regexp.MustCompile(`(?i)(^|[^\w.$])\.env\b`),
		regexp.MustCompile(`(?i)/proc/[^/\s]+/environ\b|/etc/shadow\b`),
	}
})

func credentialPath(s string) (string, string, bool) {
	m, text, ok := matchIn(s, credentialPaths())
	if !ok {
		return "", "", false
	}
	return fmt.Sprintf("names a credential path (%q)", strings.TrimLeft(m, " '\"(/")), text, true
}

// builtins are the tools agent CLIs give the model themselves, and awf's own router tools: a
// bridged tool must not take their names or steer the model toward them.
var builtins = []string{"Read", "Write", "Edit", "MultiEdit", "Bash", "Glob", "Grep", "WebFetch", "WebSearch", "NotebookEdit", "TodoWrite",
	"call_tool_read", "call_tool_write", "call_tool_destructive"}

// builtinMentions name a built-in as a tool: "the Bash tool", `Read`, Bash(…), or a name that
// is no English word (WebFetch, call_tool_write). "Read the file" is not a mention.
var builtinMentions = sync.OnceValue(func() []*regexp.Regexp {
	return []*regexp.Regexp{
		regexp.MustCompile(`\b(Read|Write|Edit|MultiEdit|Bash|Glob|Grep|WebFetch|WebSearch|NotebookEdit|TodoWrite) ([Tt]ool|TOOL)\b`),
		regexp.MustCompile("[`'\"](Read|Write|Edit|MultiEdit|Bash|Glob|Grep|WebFetch|WebSearch|NotebookEdit|TodoWrite)[`'\"]"),
		regexp.MustCompile(`\b(Read|Write|Edit|Bash|Glob|Grep|WebFetch|WebSearch)\(`),
		regexp.MustCompile(`\b(MultiEdit|WebFetch|WebSearch|NotebookEdit|TodoWrite|call_tool_(read|write|destructive))\b`),
	}
})

func builtinReference(s string) (string, string, bool) {
	folded := strings.Join(strings.Fields(s), " ")
	for _, re := range builtinMentions() {
		if m := re.FindStringIndex(folded); m != nil {
			return fmt.Sprintf("names a built-in tool (%q)", folded[m[0]:m[1]]), excerpt(folded, m[0], m[1]), true
		}
	}
	return "", "", false
}

// canon folds a tool name for comparison: lower case, letters and digits only.
func canon(name string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return unicode.ToLower(r)
		}
		return -1
	}, name)
}

func shadowsBuiltin(name string) (string, bool) {
	c := canon(name)
	for _, b := range builtins {
		if c == canon(b) {
			return fmt.Sprintf("the name is the built-in tool %s's", b), true
		}
	}
	return "", false
}

// otherName is a tool of another server as the agent sees it, and its bare name.
type otherName struct{ prefixed, bare, server string }

// otherNames lists the tools of the servers other than t's.
func otherNames(t Tool, all []Tool) []otherName {
	var out []otherName
	for _, o := range all {
		if o.Server != t.Server {
			out = append(out, otherName{o.Server + "_" + o.Name, o.Name, o.Server})
		}
	}
	return out
}

func shadowsOther(name string, others []otherName) (string, bool) {
	c := canon(name)
	for _, o := range others {
		if c == canon(o.prefixed) {
			return fmt.Sprintf("the name is tool %s of server %s as the agent sees it", Escape(o.bare), Escape(o.server)), true
		}
	}
	return "", false
}

// otherToolReference finds another server's tool named in s: its prefixed name, or its bare
// name when that is distinctive (it has a _ or - in it, so "list" or "echo" are not mentions).
func otherToolReference(s string, others []otherName) (string, string, bool) {
	for _, o := range others {
		for _, n := range []string{o.prefixed, o.bare} {
			if n == o.bare && !strings.ContainsAny(n, "_-") {
				continue
			}
			if i := wordIndex(s, n); i >= 0 {
				return fmt.Sprintf("names tool %s of server %s", Escape(o.bare), Escape(o.server)), excerpt(s, i, i+len(n)), true
			}
		}
	}
	return "", "", false
}

// wordChars may not touch a name for it to stand alone.
const wordChars = "_-0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"

// wordIndex is the index of name in s where it stands alone (no letter, digit, _ or - on
// either side), or -1.
func wordIndex(s, name string) int {
	if name == "" {
		return -1
	}
	for from := 0; ; {
		i := strings.Index(s[from:], name)
		if i < 0 {
			return -1
		}
		i += from
		j := i + len(name)
		if (i == 0 || !strings.ContainsRune(wordChars, rune(s[i-1]))) && (j == len(s) || !strings.ContainsRune(wordChars, rune(s[j]))) {
			return i
		}
		from = i + 1
	}
}

// Verbs in a tool's name that a read-only tool cannot have, and those that make it destructive.
var (
	destructiveVerbs = map[string]bool{"delete": true, "remove": true, "drop": true, "destroy": true, "kill": true, "erase": true,
		"purge": true, "wipe": true, "truncate": true, "rm": true, "del": true, "unlink": true, "terminate": true}
	writeVerbs = map[string]bool{"write": true, "overwrite": true, "update": true, "create": true, "insert": true, "exec": true,
		"execute": true, "upload": true, "move": true, "rename": true, "send": true}
)

// nameWords splits a tool name into lower-case words at _, -, ., spaces and camelCase.
func nameWords(name string) []string {
	var b strings.Builder
	var prev rune
	for _, r := range name {
		if unicode.IsUpper(r) && unicode.IsLower(prev) {
			b.WriteByte(' ')
		}
		b.WriteRune(unicode.ToLower(r))
		prev = r
	}
	return strings.FieldsFunc(b.String(), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

func annotationMismatch(t Tool) (string, bool) {
	for _, w := range nameWords(t.Name) {
		switch {
		case t.ReadOnlyHint != nil && *t.ReadOnlyHint && (destructiveVerbs[w] || writeVerbs[w]):
			return fmt.Sprintf("readOnlyHint is true but the name says %q", w), true
		case t.DestructiveHint != nil && !*t.DestructiveHint && destructiveVerbs[w]:
			return fmt.Sprintf("destructiveHint is false but the name says %q", w), true
		}
	}
	return "", false
}

// shapes masks the token shapes awf masks everywhere else (no environment values).
var shapes = sync.OnceValue(func() *redact.Redactor { return redact.New(nil) })

func secret(s string) (string, string, bool) {
	m := shapes().String(s)
	if m == s {
		return "", "", false
	}
	i := strings.Index(m, "[REDACTED:")
	j := i + strings.IndexByte(m[i:], ']') + 1
	return fmt.Sprintf("holds a secret's shape (%s)", m[i+len("[REDACTED:"):j-1]), excerpt(m, i, j), true
}
