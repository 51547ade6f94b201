package expr

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/ports"
)

func vars() map[string]any {
	return map[string]any{
		"inputs": map[string]any{"n": 5, "name": "api", "dry": true},
		"states": map[string]any{
			"build": map[string]any{"Output": "ok: contains(", "ExitCode": 0, "Status": "success"},
			"test":  map[string]any{"Output": "FAIL x", "ExitCode": 2, "Status": "failure"},
		},
		"env":  map[string]any{"CI": "true"},
		"loop": map[string]any{"Index": 3, "Item": "b.go", "Length": 4},
	}
}

func TestBool(t *testing.T) {
	tests := []struct {
		src  string
		want bool
	}{
		{`states.build.ExitCode == 0`, true},
		{`states.test.ExitCode == 0`, false},
		{`states.build.ExitCode == 0 && inputs.n > 3`, true},
		{`inputs.n >= 6 || inputs.dry`, true},
		{`states.test.Output contains "FAIL"`, true},
		{`contains(states.test.Output, "FAIL")`, true},
		{`contains(states.test.Output, "PASS")`, false},
		{`not contains(states.test.Output, "PASS")`, true},
		{`inputs.dry and contains(states.test.Output, "x")`, true},
		{`states.build.Output contains ("contains(")`, true},
		{`states.build.Output contains "contains("`, true},
		{`has_prefix(loop.Item, "b")`, true},
		{`has_suffix(loop.Item, ".rs")`, false},
		{`states["test"].Status == "failure"`, true},
		{`loop.Index + 1 == loop.Length`, true},
		{`env.CI == "true"`, true},
		{`contains(states.test.ExitCode, 2)`, true},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			e, err := Compiler{}.Compile(tt.src, ports.ExprBool)
			if err != nil {
				t.Fatalf("compile: %v", err)
			}
			got, err := e.Bool(vars())
			if err != nil {
				t.Fatalf("eval: %v", err)
			}
			if got != tt.want {
				t.Errorf("got %v, want %v", got, tt.want)
			}
			if e.Source() != tt.src {
				t.Errorf("Source() = %q", e.Source())
			}
		})
	}
}

func TestInt(t *testing.T) {
	tests := []struct {
		src     string
		want    int
		wantErr string
	}{
		{`inputs.n * 2`, 10, ""},
		{`loop.Length`, 4, ""},
		{`inputs.n / 2`, 0, "not a whole number"},
		{`inputs.n / 0`, 0, "not a whole number"},
		{`inputs.name`, 0, "not a number"},
		{`inputs.dry`, 0, "not a number"},
		{`10000000000`, 0, "out of range"},
		{`2147483647`, 2147483647, ""},
		{`2147483648`, 0, "out of range"},
		{`-2147483648`, -2147483648, ""},
		{`-2147483649`, 0, "out of range"},
		{`inputs.n / 1`, 5, ""},
		{`2147483648.0 * 1`, 0, "not a whole number"},
		{`-2147483647.0 * 1`, -2147483647, ""},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			e, err := Compiler{}.Compile(tt.src, ports.ExprInt)
			if err != nil {
				t.Fatalf("compile: %v", err)
			}
			got, err := e.Int(vars())
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("got %d, %v; want %d", got, err, tt.want)
			}
		})
	}
}

func TestCompileErrorsHavePositions(t *testing.T) {
	tests := []struct {
		src       string
		kind      ports.ExprKind
		line, col int
		msg       string
	}{
		{`input.x == 1`, ports.ExprBool, 1, 1, "unknown name input"},
		{`states.a.Output ==`, ports.ExprBool, 1, 18, "unexpected token"},
		{"inputs.n > 1 &&\n  (", ports.ExprBool, 2, 3, "unexpected token"},
		{`1 + 2`, ports.ExprBool, 0, 0, "bool"},
		{`contains(states.a.Output, "x") && nope.y`, ports.ExprBool, 1, 35, "unknown name nope"},
		{``, ports.ExprBool, 0, 0, "empty"},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			_, err := Compiler{}.Compile(tt.src, tt.kind)
			var ee *ports.ExprError
			if !errors.As(err, &ee) {
				t.Fatalf("err = %v (%T), want *ports.ExprError", err, err)
			}
			if !strings.Contains(ee.Message, tt.msg) {
				t.Errorf("message %q lacks %q", ee.Message, tt.msg)
			}
			if tt.line != 0 && (ee.Line != tt.line || ee.Column != tt.col) {
				t.Errorf("at %d:%d, want %d:%d", ee.Line, ee.Column, tt.line, tt.col)
			}
		})
	}
}

func TestRefs(t *testing.T) {
	e, err := Compiler{}.Compile(`states.build.ExitCode == 0 && contains(states["test"].Output, inputs.name) && has_prefix(loop.Item, "x")`, ports.ExprBool)
	if err != nil {
		t.Fatal(err)
	}
	want := []ports.ExprRef{
		{Path: []string{"states", "build", "ExitCode"}, Offset: 0},
		{Path: []string{"states", "test", "Output"}, Offset: 39},
		{Path: []string{"inputs", "name"}, Offset: 62},
		{Path: []string{"loop", "Item"}, Offset: 89},
	}
	if got := e.Refs(); !reflect.DeepEqual(got, want) {
		t.Errorf("refs:\n got %v\nwant %v", got, want)
	}
}

func TestMissingStateIsAnError(t *testing.T) {
	e, err := Compiler{}.Compile(`states.deploy.ExitCode == 0`, ports.ExprBool)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Bool(vars()); err == nil {
		t.Fatal("reading a state that has not run must be an error the engine decides about")
	}
}

func TestNonBoolResultAtRunTime(t *testing.T) {
	// The type checker cannot know inputs.name is a string, so the refusal comes at run time.
	e, err := Compiler{}.Compile(`inputs.name`, ports.ExprBool)
	if err != nil {
		t.Fatalf("compile: %v", err)
	}
	if _, err := e.Bool(vars()); err == nil {
		t.Fatal("a string is not a condition")
	}
}

func TestRewriteCalls(t *testing.T) {
	tests := map[string]string{
		`contains(a, b)`:              `Contains(a, b)`,
		`x contains (b)`:              `x contains (b)`,
		`x and contains (a, b)`:       `x and Contains (a, b)`,
		`"contains(" + contains(a,b)`: `"contains(" + Contains(a,b)`,
		`mycontains(a)`:               `mycontains(a)`,
		`a.contains(b)`:               `a.contains(b)`,
		`'it\'s contains(' == x`:      `'it\'s contains(' == x`,
	}
	for in, want := range tests {
		if got := rewriteCalls(in); got != want {
			t.Errorf("rewriteCalls(%q) = %q, want %q", in, got, want)
		}
		if len(rewriteCalls(in)) != len(in) {
			t.Errorf("rewrite changed the length of %q", in)
		}
	}
}

func TestHugeExpressionRefused(t *testing.T) {
	src := strings.Repeat("inputs.n + ", 20000) + "1 > 0"
	if _, err := (Compiler{}).Compile(src, ports.ExprBool); err == nil {
		t.Fatal("an expression of 40000 nodes must be refused")
	}
}

func BenchmarkEvalBool(b *testing.B) {
	e, err := Compiler{}.Compile(`states.build.ExitCode == 0 && contains(states.test.Output, "FAIL")`, ports.ExprBool)
	if err != nil {
		b.Fatal(err)
	}
	v := vars()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := e.Bool(v); err != nil {
			b.Fatal(err)
		}
	}
}
