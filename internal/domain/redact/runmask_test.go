package redact

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// Secret-named inputs are masked whatever their type: integers as they print, every string in
// an array, values of objects inside it; booleans and short values are not.
func TestAddInputsOfEveryType(t *testing.T) {
	type list []any // a named list type, as an array input's value is
	tests := []struct {
		name   string
		inputs map[string]any
		text   string
		want   string
	}{
		{"string", map[string]any{"api_key": "strinput-secret"}, "k=strinput-secret", "k=" + Mask},
		{"int64", map[string]any{"pin_password": int64(987654321012)}, "pin 987654321012", "pin " + Mask},
		{"int", map[string]any{"pin_password": 12345678}, "pin 12345678.", "pin " + Mask + "."},
		{"float from JSON", map[string]any{"pin_password": 987654321012.0}, "pin 987654321012", "pin " + Mask},
		{"json.Number", map[string]any{"pin_password": json.Number("987654321012")}, "pin 987654321012", "pin " + Mask},
		{"array items", map[string]any{"deploy_token": []any{"arritem-one-secret", "arritem-two-secret"}},
			"arritem-one-secret arritem-two-secret", Mask + " " + Mask},
		{"named list", map[string]any{"deploy_token": list{"arritem-one-secret"}}, "a arritem-one-secret", "a " + Mask},
		{"object in array", map[string]any{"deploy_token": []any{map[string]any{"inner": "objval-deep-secret"}}},
			`{"inner":"objval-deep-secret"}`, `{"inner":"` + Mask + `"}`},
		{"not secret-named", map[string]any{"count": int64(987654321012)}, "n 987654321012", "n 987654321012"},
		{"boolean and short", map[string]any{"api_key": true, "db_password": int64(42)}, "true 42", "true 42"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := New(nil)
			r.AddInputs(tt.inputs)
			if got := r.String(tt.text); got != tt.want {
				t.Errorf("String(%q) = %q, want %q", tt.text, got, tt.want)
			}
		})
	}
}

// The raw text given for a secret-named input is masked before it is checked, so an error that
// quotes it shows the mask.
func TestAddGiven(t *testing.T) {
	r := New(nil)
	r.AddGiven(map[string][]string{"pin_password": {" not-a-number-value "}, "who": {"visible-value"}})
	got := r.String(`input "pin_password" must be an integer: "not-a-number-value" is not a whole number; who visible-value`)
	if strings.Contains(got, "not-a-number") || !strings.Contains(got, "visible-value") {
		t.Errorf("got %q", got)
	}
}

// What a run's redactor masks in a text, kept (Found) and added to a redactor built without the
// variable (AddMasks), masks that text again: a run's mask set outlives its variables.
func TestFoundThenAddMasksMasksWithoutTheVariable(t *testing.T) {
	const tok = "envtok-Zq81-secret-value"
	texts := []string{
		"printed " + tok + " once",
		"cut " + tok[3:17] + " short",                    // a run of the value, as an excerpt cut it
		`{"out":"a \"` + tok + `\" b"}`,                  // inside JSON
		"shape ghp_Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56Qr78", // a token shape
		"clone https://u:urlpw-Rs66-secret@example.com/x",
	}
	run := New([]string{"MASKTEST_SERVICE_TOKEN=" + tok})
	var kept []string
	for _, s := range texts {
		kept = append(kept, run.Found(s)...)
	}
	if slices.Contains(kept, tok+"-") || len(kept) < 4 {
		t.Fatalf("Found kept %q", kept)
	}
	later := New(nil) // the variable is unset now
	later.AddMasks(kept...)
	for _, s := range texts {
		if got, want := later.String(s), run.String(s); got != want && strings.Contains(got, "secret") {
			t.Errorf("later String(%q) = %q, the run showed %q", s, got, want)
		}
	}
	if got := New(nil).String(texts[0]); got != texts[0] {
		t.Fatalf("a redactor without the variable masked %q", got)
	}
	var nilRed *Redactor
	nilRed.AddMasks("whatever-long-value")
	if nilRed.Found("x") != nil {
		t.Error("a nil redactor found something")
	}
}

// FoundIn walks a decoded JSON value: strings, keys and numbers inside maps and lists.
func TestFoundIn(t *testing.T) {
	r := New([]string{"SOME_TOKEN=tree-secret-value"})
	v := map[string]any{"a": []any{"x tree-secret-value y", map[string]any{"tree-secret-value": 1.0}}}
	if got := r.FoundIn(v, nil); len(got) != 2 || got[0] != "tree-secret-value" || got[1] != "tree-secret-value" {
		t.Errorf("FoundIn = %q", got)
	}
}

// A password in a URL is masked as written and after a path cleaning turned `//` into `/`
// (the error of a Read given the URL as a path); `C:/x` and plain paths are left alone.
func TestURLPasswordAlsoCleaned(t *testing.T) {
	r := New(nil)
	tests := []struct{ in, want string }{
		{"https://deploy:urlpw-Rs66@example.com/r", "https://deploy:[REDACTED:url-password]@example.com/r"},
		{"open /w/https:/deploy:urlpw-Rs66@example.com: no such file", "open /w/https:/deploy:[REDACTED:url-password]@example.com: no such file"},
		{"C:/Users/me and a:b@c", "C:/Users/me and a:b@c"},
		{"see /usr/local/bin", "see /usr/local/bin"},
	}
	for _, tt := range tests {
		if got := r.String(tt.in); got != tt.want {
			t.Errorf("String(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// encoding/json escapes <, > and & by default (awf's --format json documents): a secret holding
// them is masked in that form too.
func TestHTMLSafeJSONForm(t *testing.T) {
	const v = "pw<wi>th&se<cr>et" // no 8 bytes of it stand together once escaped
	r := New([]string{"DB_PASSWORD=" + v})
	b, _ := json.Marshal(map[string]string{"out": "x " + v})
	if got := r.String(string(b)); got != `{"out":"x `+Mask+`"}` {
		t.Errorf("String(%s) = %s", b, got)
	}
}
