package shellsafe

import (
	"errors"
	"strings"
	"testing"
)

// FuzzDifferential renders random templates (up to four places of contexts, chosen by shape)
// with random values, runs each under dash and bash, and checks that the code is the same for
// any values and holds none of them, and that every value reaches its place intact.
func FuzzDifferential(f *testing.F) {
	for i, v := range hostile {
		f.Add([]byte{byte(i), byte(i * 7), byte(i * 13)}, v, hostile[(i+1)%len(hostile)], hostile[(i+5)%len(hostile)])
	}
	shells := testShells(f)
	f.Fuzz(func(t *testing.T, shape []byte, a, b, c string) {
		values := map[string]any{"a": a, "b": b, "c": c}
		tmpl, want := fuzzTemplate(shape, values)
		cmd, _, err := renderValues(tmpl, values)
		if strings.ContainsRune(a+b+c, 0) {
			if err != nil && !errors.Is(err, ErrNUL) {
				t.Fatalf("a NUL byte: err = %v", err)
			}
			return
		}
		if err != nil {
			t.Fatalf("%q: %v", tmpl, err)
		}
		empty, _, err := renderValues(tmpl, map[string]any{"a": "", "b": "", "c": ""})
		if err != nil || empty.Text != cmd.Text {
			t.Fatalf("the code depends on the values:\n%q\n%q (%v)", cmd.Text, empty.Text, err)
		}
		for _, v := range []string{a, b, c} {
			if len(v) >= 3 && !strings.Contains(tmpl, v) && strings.Contains(cmd.Text, v) {
				t.Fatalf("the code holds the value %q: %q", v, cmd.Text)
			}
		}
		box := sandbox{dir: t.TempDir()}
		for _, sh := range shells {
			if got := box.run(t, sh, cmd); got != want {
				t.Fatalf("%s: %q with %q %q %q:\n   got %q\n  want %q", sh, cmd.Text, a, b, c, got, want)
			}
		}
	})
}

// fuzzTemplate joins up to four of the contexts, each on its own lines with its own value, and
// says what the script prints.
func fuzzTemplate(shape []byte, values map[string]any) (string, string) {
	if len(shape) == 0 {
		shape = []byte{0}
	}
	var tmpl, want []string
	names := []string{"a", "b", "c"}
	for i, s := range shape[:min(len(shape), 4)] {
		ctx := contexts[int(s)%len(contexts)]
		name := names[i%len(names)]
		tmpl = append(tmpl, strings.ReplaceAll(ctx.tmpl, ".v}}", "."+name+"}}"))
		want = append(want, ctx.want(values[name].(string)))
	}
	return strings.Join(tmpl, "\nprintf '|'\n"), strings.Join(want, "|")
}
