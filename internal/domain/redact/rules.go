package redact

import (
	"regexp"
	"sync"
)

// lazyRegexp returns a function compiling expr once, when first called.
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}

// rule is one well-known token shape. A rule's regexp runs only on text holding one of its
// keywords (a plain substring search), so text without any of them costs a few
// strings.Contains.
type rule struct {
	id       string
	keywords []string
	// re compiles the rule's expression on first use: most processes (every `awf mcp-serve`
	// among them) never meet a keyword of most rules, and compiling all of them at start-up
	// was the largest package initialisation of awf's own code.
	re func() *regexp.Regexp
	// group is the submatch to mask: 0 the whole match, 1 when the rest is context.
	group int
}

// rules are the token shapes masked wherever they appear.
//
// Why not gitleaks itself: github.com/zricethezav/gitleaks/v8 (v8.30.1) can be used as a
// library (detect.NewDetectorDefaultConfig), but it pulls in 66 modules (viper, archive and
// compression readers, a WebAssembly runtime for its RE2 engine, terminal styling; 1,297 lines
// of `go mod graph`), and a probe program using only its detector builds to 8.9 MB stripped
// against 1.6 MB for a hello world: about 7 MB more on awf's 21.7 MB, where this package adds
// 90 KB. Its rules
// are also made for scanning repositories: exact lengths and entropy thresholds, where awf must
// also mask a token cut short by a truncation. So the shapes below are our own, derived from the
// public rule definitions of gitleaks v8.30.1 (config/gitleaks.toml, MIT licence), ids kept, with
// minimum lengths instead of exact ones. Secrets without a distinctive shape (an AWS secret
// access key, a database password) are caught by their variable's name instead (IsSecretName).
var rules = []rule{
	{id: "github-pat", keywords: []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_"},
		re: lazyRegexp(`gh[pousr]_[0-9A-Za-z]{20,}`)},
	{id: "github-fine-grained-pat", keywords: []string{"github_pat_"},
		re: lazyRegexp(`github_pat_[0-9A-Za-z_]{22,}`)},
	{id: "gitlab-token", keywords: []string{"glpat-", "gldt-", "glffct-", "glft-", "glimt-", "glagent-", "gloas-", "glptt-", "glrt-", "glsoat-", "glcbt-"},
		re: lazyRegexp(`gl(?:pat|dt|ffct|ft|imt|agent|oas|ptt|rt|soat|cbt)-[0-9A-Za-z_.\-]{20,}`)},
	{id: "gitlab-rrt", keywords: []string{"GR1348941"},
		re: lazyRegexp(`GR1348941[0-9A-Za-z_\-]{20,}`)},
	{id: "aws-access-token", keywords: []string{"A3T", "AKIA", "ASIA", "ABIA", "ACCA"},
		re: lazyRegexp(wordStart + `((?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16})`), group: 1},
	{id: "aws-amazon-bedrock-api-key", keywords: []string{"ABSK", "bedrock-api-key-"},
		re: lazyRegexp(`ABSK[A-Za-z0-9+/]{40,}={0,2}|bedrock-api-key-[A-Za-z0-9+/=]{20,}`)},
	{id: "anthropic-api-key", keywords: []string{"sk-ant-"},
		re: lazyRegexp(wordStart + `(sk-ant-[a-z]+[0-9]*-[A-Za-z0-9_\-]{20,})`), group: 1},
	{id: "openai-api-key", keywords: []string{"sk-"},
		re: lazyRegexp(wordStart + `(sk-(?:proj|svcacct|admin)-[A-Za-z0-9_\-]{20,}|sk-[A-Za-z0-9]{20,}T3BlbkFJ[A-Za-z0-9]*|sk-[A-Za-z0-9]{40,})`), group: 1},
	{id: "gcp-api-key", keywords: []string{"AIza"},
		re: lazyRegexp(`AIza[0-9A-Za-z_\-]{30,}`)},
	{id: "gcp-oauth-token", keywords: []string{"ya29."},
		re: lazyRegexp(`ya29\.[0-9A-Za-z_\-]{20,}`)},
	{id: "slack-token", keywords: []string{"xox"},
		re: lazyRegexp(`xox[abeoprs]-[0-9A-Za-z.\-]{10,}`)},
	{id: "slack-app-token", keywords: []string{"xapp-"},
		re: lazyRegexp(`xapp-\d-[A-Za-z0-9]+-\d+-[A-Za-z0-9]+`)},
	{id: "slack-webhook-url", keywords: []string{"hooks.slack.com"},
		re: lazyRegexp(`hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9+/_\-]{20,}`)},
	{id: "npm-access-token", keywords: []string{"npm_"},
		re: lazyRegexp(wordStart + `(npm_[A-Za-z0-9]{20,})`), group: 1},
	{id: "huggingface-access-token", keywords: []string{"hf_", "api_org_"},
		re: lazyRegexp(wordStart + `((?:hf|api_org)_[A-Za-z0-9]{20,})`), group: 1},
	// A private key block is masked from its BEGIN line to its END line, or, when the END line
	// was cut off, to the end of the text or of the JSON string holding it.
	{id: "private-key", keywords: []string{"PRIVATE KEY"},
		re: lazyRegexp(`-----BEGIN[ A-Z0-9_\-]{0,100}PRIVATE KEY(?: BLOCK)?-----(?:[^"]*?-----END[ A-Z0-9_\-]{0,100}PRIVATE KEY(?: BLOCK)?-----|[^"]*)`)},
	{id: "jwt", keywords: []string{"eyJ"},
		re: lazyRegexp(wordStart + `(eyJ[A-Za-z0-9_\-]{10,}\.eyJ[A-Za-z0-9_\-]{10,}(?:\.[A-Za-z0-9_\-]*)?)`), group: 1},
	{id: "bearer-token", keywords: []string{"Bearer ", "bearer ", "BEARER "},
		re: lazyRegexp(`(?i)\bbearer +([A-Za-z0-9._~+/=\-]{16,})`), group: 1},
	// A URL's password, also after a path cleaning made `scheme://` into `scheme:/` (an error
	// naming the cleaned path of a URL given as a file).
	{id: "url-password", keywords: []string{":/"},
		re: lazyRegexp(`\b[A-Za-z][A-Za-z0-9+.\-]*:/{1,2}[^/\s:@"]+:([^/\s@"]{3,})@`), group: 1},
}

// wordStart is the start of a token that could otherwise be the tail of a word: the start of
// the text or a character that is not a letter or digit. Unlike \b it treats '_' as a
// separator, so a token glued to an identifier (tool_sk-…) is still found; the rule's group 1
// is the token.
const wordStart = `(?:^|[^0-9A-Za-z])`

// findShapes appends the matches of every rule in s to out. A rule's expression runs only
// when one of its keywords is in s.
func findShapes(s string, out []span) []span {
	present := keywords().rulesIn(s)
	for i := range rules {
		ru := &rules[i]
		if present&(1<<i) == 0 {
			continue
		}
		mask := "[REDACTED:" + ru.id + "]"
		for _, m := range ru.re().FindAllStringSubmatchIndex(s, -1) {
			if lo, hi := m[2*ru.group], m[2*ru.group+1]; lo >= 0 {
				out = append(out, span{lo, hi, mask})
			}
		}
	}
	return out
}
