package redact

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// Planted tokens: shaped like the real ones, made of repeated letters so they are obviously fake.
var shaped = map[string]string{
	"github-pat":                 "ghp_" + strings.Repeat("A1b2", 9),
	"github-fine-grained-pat":    "github_pat_" + strings.Repeat("Ab1_", 20) + "xy",
	"gitlab-token":               "glpat-" + strings.Repeat("x9Y", 7),
	"aws-access-token":           "AKIA" + "ABCDEFGHIJKLMNOP",
	"anthropic-api-key":          "sk-ant-api03-" + strings.Repeat("Zz9_", 23) + "AA",
	"openai-api-key":             "sk-proj-" + strings.Repeat("Qq8-", 19),
	"gcp-api-key":                "AIza" + strings.Repeat("Sy_1", 9),
	"slack-token":                "xoxb-1234567890-1234567890123-" + strings.Repeat("aB", 12),
	"npm-access-token":           "npm_" + strings.Repeat("n0P", 12),
	"huggingface-access-token":   "hf_" + strings.Repeat("hUgGiNg", 5),
	"jwt":                        "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.c2lnbmF0dXJlX2hlcmU",
	"private-key":                "-----BEGIN RSA PRIVATE KEY-----\n" + strings.Repeat("MIIEowIBAAKCAQEA", 8) + "\n-----END RSA PRIVATE KEY-----",
	"slack-webhook-url":          "hooks.slack.com/services/" + strings.Repeat("T0B1C2", 5),
	"gcp-oauth-token":            "ya29." + strings.Repeat("a0B1", 8),
	"aws-amazon-bedrock-api-key": "ABSK" + strings.Repeat("QmVk", 12),
	"gitlab-rrt":                 "GR1348941" + strings.Repeat("rR_", 8),
}

func TestShapesAreMasked(t *testing.T) {
	r := New(nil)
	for id, tok := range shaped {
		t.Run(id, func(t *testing.T) {
			for _, text := range []string{tok, "before " + tok + " after", `{"k":"` + tok + `"}`, "tok=" + tok + ";"} {
				got := r.String(text)
				if strings.Contains(got, tok) || !strings.Contains(got, "[REDACTED:"+id+"]") {
					t.Errorf("%q\n→ %q", text, got)
				}
			}
		})
	}
}

// A token cut by a truncation after its prefix and 20 characters is still masked.
func TestTruncatedShapesAreMasked(t *testing.T) {
	r := New(nil)
	for _, tok := range []string{shaped["github-pat"][:24], shaped["npm-access-token"][:24], shaped["openai-api-key"][:28]} {
		if got := r.String("x " + tok + "…[truncated 9 bytes]"); strings.Contains(got, tok) {
			t.Errorf("%q not masked: %q", tok, got)
		}
	}
	pk := shaped["private-key"]
	cut := pk[:60]
	if got := r.String("key: " + cut); strings.Contains(got, "MIIEowIBAAKCAQEA") {
		t.Errorf("a private key cut before its END line leaks: %q", got)
	}
	// In a JSON line the block ends at the string's closing quote: the line stays JSON.
	line := `{"error":"` + strings.ReplaceAll(cut, "\n", `\n`) + `","tool":"Bash"}`
	got := r.String(line)
	var v map[string]any
	if err := json.Unmarshal([]byte(got), &v); err != nil || v["tool"] != "Bash" || strings.Contains(got, "MIIE") {
		t.Errorf("%s → %s (%v)", line, got, err)
	}
}

func TestOrdinaryTextIsLeftAlone(t *testing.T) {
	r := New([]string{"PATH=/usr/bin:/bin", "HOME=/home/user", "SHORT_TOKEN=abc", "EDITOR=vim-for-ever"})
	for _, s := range []string{
		"", "hello world", "ghp_short", "sk-12345", "the basic idea", "a bearer of news",
		"https://example.com/path", "AKIA lowercase akiaabcdefghijklmnop", "eyJ.eyJ.x",
		"PATH is /usr/bin:/bin", "abc abc", "vim-for-ever",
	} {
		if got := r.String(s); got != s {
			t.Errorf("%q changed to %q", s, got)
		}
	}
}

func TestSecretNames(t *testing.T) {
	for _, c := range []struct {
		name string
		want bool
	}{
		{"GITHUB_TOKEN", true}, {"GH_TOKEN", true}, {"AWS_SECRET_ACCESS_KEY", true}, {"AWS_SESSION_TOKEN", true},
		{"NPM_TOKEN", true}, {"HF_TOKEN", true}, {"DB_PASSWORD", true}, {"MYPASSWORD_FILE", true}, {"PGPASSWORD", true},
		{"GITLAB_PAT", true}, {"GOOGLE_APPLICATION_CREDENTIALS", true}, {"CLIENT_SECRET", true}, {"openai_api_key", true},
		// plurals name several credentials, each as secret as one
		{"api_keys", true}, {"deploy_tokens", true}, {"db_passwords", true}, {"client_secrets", true},
		{"GITLAB_PATS", true}, {"MY_KEYS", true}, {"Deploy_Tokens", true},
		// PASSWORDLESS names the absence of a password; a secret word after it still counts
		{"passwordless_hint", false}, {"PASSWORDLESS", false}, {"passwordless_login_secret", true},
		{"passwordless_then_password", true},
		// words that only start like a secret word, or a secret word that is not the last one
		{"PATH", false}, {"HOME", false}, {"KEY", false}, {"TOKENIZER", false}, {"tokenizer", false},
		{"SECRETARY", false}, {"PATTERN", false}, {"KEYBOARD", false}, {"keyboard", false},
		{"TOKEN_COUNT", false}, {"KEY_ID", false}, {"max_tokensize", false}, {"api_keyss", false}, {"MONKEYS", false},
		{"", false}, {"_", false}, {"_S", false},
	} {
		if got := IsSecretName(c.name); got != c.want {
			t.Errorf("IsSecretName(%q) = %v, want %v", c.name, got, c.want)
		}
	}
}

const envSecret = "Zq7-longValue/with+Symbols=9kLmN0pQ" // no known shape: only the name marks it

func TestEnvValuesAndTheirRunsAreMasked(t *testing.T) {
	r := New([]string{"DEPLOY_TOKEN=" + envSecret, "PLAIN=" + envSecret + "x"})
	cases := map[string]string{
		"whole":          "tok=" + envSecret + ";",
		"prefix cut":     "error: tok=" + envSecret[:12] + "…[truncated]",
		"suffix":         envSecret[len(envSecret)-9:] + " at the start",
		"middle 8":       "xx" + envSecret[5:13] + "yy",
		"json escaped":   `{"a":"` + envSecret + `"}`,
		"twice":          envSecret + " and " + envSecret,
		"adjacent twice": envSecret + envSecret,
	}
	for name, text := range cases {
		got := r.String(text)
		for i := 0; i+MinRun <= len(envSecret); i++ {
			if strings.Contains(got, envSecret[i:i+MinRun]) {
				t.Errorf("%s: %q leaks %q", name, got, envSecret[i:i+MinRun])
				break
			}
		}
		if !strings.Contains(got, Mask) {
			t.Errorf("%s: no mask in %q", name, got)
		}
	}
	// Seven bytes of the secret are not a secret.
	if got := r.String("x" + envSecret[3:10] + "x"); got != "x"+envSecret[3:10]+"x" {
		t.Errorf("a 7-byte run was masked: %q", got)
	}
	// The text around a run is kept byte for byte.
	if got := r.String("a=" + envSecret + " b=2"); got != "a="+Mask+" b=2" {
		t.Errorf("got %q", got)
	}
}

func TestJSONEscapedSecret(t *testing.T) {
	secret := `pa"ss\word` + "\nline2-more"
	r := New([]string{"DB_PASSWORD=" + secret})
	b, _ := json.Marshal(map[string]string{"e": secret})
	if got := r.String(string(b)); strings.Contains(got, `word\nline2`) || strings.Contains(got, `pa\"ss`) {
		t.Errorf("JSON form leaks: %s", got)
	}
}

func TestAddNames(t *testing.T) {
	r := New([]string{"MYKEYVAR=" + envSecret})
	if got := r.String(envSecret); got != envSecret {
		t.Fatalf("masked before the name was added: %q", got)
	}
	r.AddNames("MYKEYVAR", "", "UNSET_ONE")
	if got := r.String(envSecret); got != Mask {
		t.Errorf("not masked after AddNames: %q", got)
	}
	if got := r.Secrets(); len(got) != 1 || got[0] != "MYKEYVAR" {
		t.Errorf("Secrets() = %v", got)
	}
	r.AddNames("MYKEYVAR") // known: no rebuild, still masked
	if got := r.String(envSecret); got != Mask {
		t.Errorf("got %q", got)
	}
}

func TestNilAndValue(t *testing.T) {
	var n *Redactor
	if n.String("ghp_"+strings.Repeat("a", 36)) == "" || n.Bytes(nil) != nil || n.Map(nil) != nil || n.Value(3) != 3 || n.Secrets() != nil {
		t.Error("nil redactor must pass everything through")
	}
	n.AddNames("X")
	r := New([]string{"API_KEY=" + envSecret})
	in := map[string]any{
		"command": "echo " + envSecret,
		"nested":  []any{"ok", map[string]any{envSecret: 1.5}, []string{envSecret}},
		"n":       2.0,
	}
	out := r.Map(in)
	b, _ := json.Marshal(out)
	if strings.Contains(string(b), envSecret[:MinRun]) || !strings.Contains(string(b), `"n":2`) {
		t.Errorf("Map: %s", b)
	}
	if in["command"] != "echo "+envSecret {
		t.Error("Map modified its input")
	}
	plain := []byte("nothing here")
	if got := r.Bytes(plain); &got[0] != &plain[0] {
		t.Error("Bytes copied a clean input")
	}
	if got := string(r.Bytes([]byte(envSecret))); got != Mask {
		t.Errorf("Bytes: %q", got)
	}
}

func TestOverlappingMatchesMerge(t *testing.T) {
	tok := shaped["github-pat"]
	r := New([]string{"GITHUB_TOKEN=" + tok})
	got := r.String("a " + tok + " b")
	if strings.Count(got, "[REDACTED") != 1 || strings.Contains(got, "A1b2") {
		t.Errorf("got %q", got)
	}
}

// A token glued to an identifier (a model's tool name "tool_ghp_…") is found too.
func TestShapesGluedToWords(t *testing.T) {
	r := New(nil)
	for id, tok := range shaped {
		for _, text := range []string{"tool_" + tok, "x_" + tok + "_y", "\n" + tok} {
			if got := r.String(text); strings.Contains(got, tok) {
				t.Errorf("%s: %q → %q", id, text, got)
			}
		}
	}
	for _, s := range []string{"task-" + strings.Repeat("a", 45), "shelf_" + strings.Repeat("b", 10), "XAKIA" + "ABCDEFGHIJKLMNOP"} {
		if got := r.String(s); got != s {
			t.Errorf("%q masked as %q", s, got)
		}
	}
}

func TestEdges(t *testing.T) {
	eight := "Ab3$Cd5%" // exactly MinRun bytes
	many := []string{"EIGHT_TOKEN=" + eight}
	for i := 0; i < 3000; i++ { // enough windows for collisions in the table
		many = append(many, fmt.Sprintf("S%d_SECRET=%s", i, strings.Repeat(fmt.Sprintf("%04d", i), 3)))
	}
	r := New(many)
	if got := r.String(eight); got != Mask {
		t.Errorf("a secret of exactly %d bytes: %q", MinRun, got)
	}
	if !slices.Contains(r.Secrets(), "EIGHT_TOKEN") || len(r.Secrets()) != 3001 {
		t.Errorf("Secrets() has %d names", len(r.Secrets()))
	}
	for i := 0; i < 3000; i += 7 {
		v := strings.Repeat(fmt.Sprintf("%04d", i), 3)
		if got := r.String("<" + v + ">"); got != "<"+Mask+">" {
			t.Fatalf("secret %d: %q", i, got)
		}
	}
	// Two tokens of one shape in one text are both masked; a secret value glued to a token
	// is one mask.
	gh := shaped["github-pat"]
	if got := r.String(gh + " " + gh); strings.Count(got, "[REDACTED:github-pat]") != 2 {
		t.Errorf("two tokens: %q", got)
	}
	if got := r.String(eight + gh); got != Mask {
		t.Errorf("adjacent secrets: %q", got)
	}
}

func TestOneShortestSecret(t *testing.T) {
	r := New([]string{"ONLY_TOKEN=Ab3$Cd5%"})
	if got := r.String("x Ab3$Cd5% y"); got != "x "+Mask+" y" {
		t.Errorf("got %q", got)
	}
	if got := New([]string{"ONLY_TOKEN=Ab3$Cd5"}).String("Ab3$Cd5"); got != "Ab3$Cd5" {
		t.Errorf("a 7-byte value was masked: %q", got)
	}
}

func TestAddValue(t *testing.T) {
	r := New(nil)
	r.AddValue("input api_key", "short")
	r.AddValue("input api_key", "k-0123456789abcdef")
	if got := r.String("key is k-0123456789abcdef here"); strings.Contains(got, "0123456789") {
		t.Errorf("an added value leaks: %q", got)
	}
	if got := r.String("short"); got != "short" {
		t.Errorf("a value under MinRun is text: %q", got)
	}
	if s := r.Secrets(); len(s) != 1 || s[0] != "input api_key" {
		t.Errorf("secrets %v", s)
	}
	var none *Redactor
	none.AddValue("x", "k-0123456789abcdef")
}

func TestAddValueAtMinRun(t *testing.T) {
	r := New(nil)
	v := strings.Repeat("q", MinRun-1) + "Z" // exactly MinRun bytes
	r.AddValue("input db_password", v)
	if got := r.String("is " + v); strings.Contains(got, v) {
		t.Errorf("a value of exactly MinRun bytes leaks: %q", got)
	}
	tabbed := "tab\there\rand-more"
	r.AddValue("input api_key", tabbed)
	b, _ := json.Marshal(tabbed)
	if got := r.String(string(b)); strings.Contains(got, `here\rand`) || strings.Contains(got, `tab\there`) {
		t.Errorf("the JSON form of an added value leaks: %s", got)
	}
}

// A clean tree is returned as it is; a tree with a secret is copied and masked, the input left
// alone.
func TestMapReturnsCleanInputItself(t *testing.T) {
	r := New([]string{"API_KEY=" + envSecret})
	clean := map[string]any{"file_path": "/a/b", "n": 2.0, "list": []any{"x", map[string]any{"k": true}}, "s": []string{"y"}}
	if got := r.Map(clean); fmt.Sprintf("%p", got) != fmt.Sprintf("%p", clean) {
		t.Error("Map copied a clean map")
	}
	dirty := map[string]any{"ok": map[string]any{"k": "v"}, "deep": []any{map[string]any{"x": "echo " + envSecret}}}
	got := r.Map(dirty)
	if b, _ := json.Marshal(got); strings.Contains(string(b), envSecret[:MinRun]) {
		t.Errorf("Map: %s", b)
	}
	if dirty["deep"].([]any)[0].(map[string]any)["x"] != "echo "+envSecret {
		t.Error("Map modified its input")
	}
	if fmt.Sprintf("%p", got) == fmt.Sprintf("%p", dirty) {
		t.Error("Map returned a map that needed masking")
	}
}

func TestAddInputs(t *testing.T) {
	const pw, plain = "pw-input-value-88", "ordinary words"
	r := New(nil)
	r.AddInputs(map[string]any{"db_password": pw, "note": plain, "api_key": 12.0, "short_token": "ab"})
	if got := r.String(pw + " " + plain); got != Mask+" "+plain {
		t.Errorf("String = %q", got)
	}
	if got := r.Secrets(); !slices.Equal(got, []string{"input db_password"}) {
		t.Errorf("Secrets() = %q", got)
	}
	var n *Redactor
	n.AddInputs(map[string]any{"db_password": pw}) // a nil redactor masks nothing, and does not panic
}
