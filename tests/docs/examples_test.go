package docs

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/awf-dev/awf/tests/testkit"
)

// TestExamples runs every ```yaml and ```sh example of README.md and docs/, so a wrong example
// fails `make test`. What is done with a block is said by the markers above its fence
// (docs/reference/docs-tests.md):
//
//   - a yaml block is a workflow: `awf validate` must accept it; `<!-- run: ARGS -->` also runs
//     it (`awf run FILE ARGS`, ARGS may hold exit=N for the expected exit code);
//     `<!-- invalid: CODE, … -->` expects validate to refuse it with each code;
//     `<!-- file: PATH -->` writes it to PATH in the document's project first (a workflow under
//     .awf/workflows/ is validated, .awf/plugins.yaml is read by `awf plugins list --no-start`);
//     `<!-- wrap: state|agent|header -->` completes a fragment into a workflow first;
//   - a sh block runs with bash -e -o pipefail in the document's project, `awf` on PATH;
//     `<!-- exit: N -->` expects exit N;
//   - `<!-- not-run: REASON -->` runs nothing and says so (a SKIP line in `make test`).
//
// Each document gets its own project: a temp directory holding bin/awf, bin/awf-serve,
// bin/plugins/, bin/demo-model, the repository's .awf/plugins.yaml, examples/workflows/ and
// README.md, with HOME, TMPDIR and the XDG directories inside it; agent steps talk to the
// scripted demo model through OPENAI_BASE_URL.
func TestExamples(t *testing.T) {
	root := repoRoot()
	env := setup(t)
	for _, rel := range markdownFiles(t, root) {
		bs := blocks(t, root, rel)
		t.Run(rel, func(t *testing.T) {
			p := newProject(t, root, env)
			for _, b := range bs {
				t.Run("L"+strconv.Itoa(b.line), func(t *testing.T) { p.example(t, b) })
			}
		})
	}
}

// shared is what every document's project links to: the binaries and the model's URL.
type shared struct {
	bins     *testkit.Bins
	model    string // demo-model binary
	modelURL string
}

var (
	setupOnce sync.Once
	setupEnv  *shared
	setupErr  error
	cleanups  []func()
)

func TestMain(m *testing.M) {
	code := m.Run()
	for _, f := range cleanups {
		f()
	}
	os.Exit(code)
}

// setup builds awf, awf-serve, the example plugins and the demo model once, and starts the
// model.
func setup(t *testing.T) *shared {
	t.Helper()
	setupOnce.Do(func() {
		bins, err := testkit.Build(true)
		if err != nil {
			setupErr = err
			return
		}
		cleanups = append(cleanups, bins.Close)
		s := &shared{bins: bins, model: filepath.Join(bins.Dir, "demo-model")}
		if err := testkit.GoBuild(s.model, "./examples/demo-model"); err != nil {
			setupErr = err
			return
		}
		s.modelURL, err = startModel(s.model)
		if err != nil {
			setupErr = err
			return
		}
		setupEnv = s
	})
	if setupErr != nil {
		t.Fatal(setupErr)
	}
	return setupEnv
}

// startModel starts the scripted demo model on a free loopback port and returns its URL.
func startModel(bin string) (string, error) {
	cmd := exec.Command(bin, "--quiet", "--addr", "127.0.0.1:0")
	out, err := cmd.StdoutPipe()
	if err != nil {
		return "", err
	}
	if err := cmd.Start(); err != nil {
		return "", err
	}
	cleanups = append(cleanups, func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		return "", fmt.Errorf("demo-model printed no URL: %v", err)
	}
	go func() { _, _ = io.Copy(io.Discard, out) }()
	return strings.TrimSpace(strings.TrimPrefix(line, "listening on ")), nil
}

// project is one document's working directory.
type project struct {
	dir string
	env []string
}

func newProject(t *testing.T, root string, s *shared) *project {
	t.Helper()
	// A short base: plugins listen on unix sockets under $TMPDIR, whose paths may not pass 107
	// bytes, and t.TempDir's names grow with the test's name.
	base, err := os.MkdirTemp("", "awfdoc")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(base) })
	dir := filepath.Join(base, "project")
	for _, d := range []string{"bin", ".awf/workflows", "examples", "../home", "../tmp", "../xdg/cache", "../xdg/config", "../xdg/data"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	links := map[string]string{
		"bin/awf": s.bins.AWF, "bin/awf-serve": s.bins.Serve, "bin/demo-model": s.model,
		"bin/plugins": strings.TrimSuffix(s.bins.Plugins, "/"),
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	copyFile(t, filepath.Join(root, ".awf/plugins.yaml"), filepath.Join(dir, ".awf/plugins.yaml"))
	copyFile(t, filepath.Join(root, "README.md"), filepath.Join(dir, "README.md"))
	copyDir(t, filepath.Join(root, "examples/workflows"), filepath.Join(dir, "examples/workflows"))
	env := []string{
		"PATH=" + filepath.Join(dir, "bin") + ":" + os.Getenv("PATH"),
		"HOME=" + filepath.Join(base, "home"),
		"TMPDIR=" + filepath.Join(base, "tmp"),
		"XDG_CACHE_HOME=" + filepath.Join(base, "xdg/cache"),
		"XDG_CONFIG_HOME=" + filepath.Join(base, "xdg/config"),
		"XDG_DATA_HOME=" + filepath.Join(base, "xdg/data"),
		"LANG=C.UTF-8", "TERM=dumb",
		"OPENAI_BASE_URL=" + s.modelURL, "OPENAI_MODEL=awf-demo",
	}
	return &project{dir: dir, env: env}
}

// example runs one block.
func (p *project) example(t *testing.T, b block) {
	if reason, ok := b.has("not-run"); ok {
		if strings.TrimSpace(reason) == "" {
			t.Fatalf("%s: a not-run marker needs a reason", b)
		}
		testkit.Skipf(t, "not-run (%s): %s", b, reason)
		return
	}
	if path, ok := b.has("file"); ok && b.lang != "yaml" && b.lang != "yml" {
		p.write(t, path, b.text) // a script or data file for the blocks that follow
		return
	}
	switch b.lang {
	case "yaml", "yml":
		p.yamlExample(t, b)
	case "sh", "bash", "shell", "console":
		p.shellExample(t, b)
	case "json":
		checkJSON(t, b)
	default:
		if len(b.markers) > 0 {
			t.Errorf("%s: markers on a %q block, which nothing runs", b, b.lang)
		}
	}
}

// yamlExample writes a workflow (or another project file) and checks it with awf.
func (p *project) yamlExample(t *testing.T, b block) {
	text := b.text
	if kind, ok := b.has("wrap"); ok {
		var err error
		if text, err = wrap(kind, text); err != nil {
			t.Fatalf("%s: %v", b, err)
		}
	}
	path, isFile := b.has("file")
	if !isFile {
		path = fmt.Sprintf("doc-L%d.yaml", b.line)
	}
	full := p.write(t, path, text)
	_, run := b.has("run")
	_, invalid := b.has("invalid")
	switch {
	case path == ".awf/plugins.yaml":
		p.expect(t, b, 0, nil, "awf", "plugins", "list", "--no-start")
		return
	case isFile && !strings.HasPrefix(path, ".awf/workflows/") && !run && !invalid:
		return // a script or data file for the blocks that follow
	}
	if codes, ok := b.has("invalid"); ok {
		out := p.expect(t, b, 1, nil, "awf", "validate", full)
		for _, c := range strings.Split(codes, ",") {
			if c = strings.TrimSpace(c); !strings.Contains(out, c) {
				t.Errorf("%s: awf validate did not report %s:\n%s\nworkflow:\n%s", b, c, out, text)
			}
		}
		return
	}
	p.expect(t, b, 0, nil, "awf", "validate", full)
	if args, ok := b.has("run"); ok {
		want, rest := exitOf(args)
		p.expect(t, b, want, nil, append([]string{"awf", "run", full}, rest...)...)
	}
}

// write writes a file of the document's project and returns its path.
func (p *project) write(t *testing.T, rel, text string) string {
	t.Helper()
	full := filepath.Join(p.dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		t.Fatal(err)
	}
	mode := os.FileMode(0o644)
	if strings.HasPrefix(text, "#!") {
		mode = 0o755
	}
	if err := os.WriteFile(full, []byte(text), mode); err != nil {
		t.Fatal(err)
	}
	return full
}

// shellExample runs a sh block (or the `$ ` lines of a console block) with bash.
func (p *project) shellExample(t *testing.T, b block) {
	script := b.text
	if b.lang == "console" {
		var cmds []string
		for _, l := range strings.Split(b.text, "\n") {
			if c, ok := strings.CutPrefix(l, "$ "); ok {
				cmds = append(cmds, c)
			}
		}
		script = strings.Join(cmds, "\n") + "\n"
	}
	want := 0
	if v, ok := b.has("exit"); ok {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil {
			t.Fatalf("%s: exit marker %q is not a number", b, v)
		}
		want = n
	}
	p.expect(t, b, want, []byte(script), "bash", "-e", "-o", "pipefail", "-s")
}

// expect runs argv in the project (awf from its bin/) and fails t unless it exits with want.
func (p *project) expect(t *testing.T, b block, want int, stdin []byte, argv ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	name := argv[0]
	if name == "awf" {
		name = filepath.Join(p.dir, "bin", "awf")
	}
	cmd := exec.CommandContext(ctx, name, argv[1:]...)
	cmd.Dir, cmd.Env = p.dir, p.env
	cmd.Stdin = bytes.NewReader(stdin)
	out, err := cmd.CombinedOutput()
	code := 0
	if err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			t.Fatalf("%s: %s: %v", b, strings.Join(argv, " "), err)
		}
		code = ee.ExitCode()
	}
	if code != want {
		t.Errorf("%s: `%s` exited %d, want %d\n--- example:\n%s--- output:\n%s", b, strings.Join(argv, " "), code, want, b.text, out)
	}
	return string(out)
}

// exitOf takes an exit=N token out of a run marker's arguments.
func exitOf(args string) (int, []string) {
	want, rest := 0, []string{}
	for _, f := range splitArgs(args) {
		if v, ok := strings.CutPrefix(f, "exit="); ok {
			want, _ = strconv.Atoi(v)
			continue
		}
		rest = append(rest, f)
	}
	return want, rest
}

// splitArgs splits on spaces, keeping single-quoted parts together (quotes removed).
func splitArgs(s string) []string {
	var out []string
	var cur strings.Builder
	quoted, have := false, false
	for _, r := range s {
		switch {
		case r == '\'':
			quoted, have = !quoted, true
		case r == ' ' && !quoted:
			if have {
				out = append(out, cur.String())
			}
			cur.Reset()
			have = false
		default:
			cur.WriteRune(r)
			have = true
		}
	}
	if have {
		out = append(out, cur.String())
	}
	return out
}

// checkJSON fails on a json block that is neither one JSON value nor JSON lines.
func checkJSON(t *testing.T, b block) {
	if json.Valid([]byte(b.text)) {
		return
	}
	for i, l := range strings.Split(strings.TrimSpace(b.text), "\n") {
		if !json.Valid([]byte(l)) {
			t.Errorf("%s: line %d of a json block is not JSON: %s", b, i+1, l)
		}
	}
}

var inputRefRe = regexp.MustCompile(`\binputs\.([A-Za-z_][A-Za-z0-9_]*)`)

// wrap completes a fragment into a workflow. state: the block is states (the first one is
// initial); a state it names but does not define becomes a stub (a command `true` for a loop
// body or parallel branch, else a success terminal). agent: the block is keys of an
// openai_compatible agent step. header: the block is top-level keys other than name and states.
// Inputs the block reads are declared as strings.
func wrap(kind, text string) (string, error) {
	var b strings.Builder
	b.WriteString("name: fragment\n")
	switch kind {
	case "header":
		b.WriteString(text)
		b.WriteString("states:\n  initial: done\n  done: {type: terminal, status: success}\n")
		return b.String(), nil
	case "state":
		writeInputs(&b, text)
		var states yaml.Node
		if err := yaml.Unmarshal([]byte(text), &states); err != nil || len(states.Content) == 0 || states.Content[0].Kind != yaml.MappingNode {
			return "", fmt.Errorf("a wrap: state block must be a mapping of states (%v)", err)
		}
		m := states.Content[0]
		b.WriteString("states:\n  initial: " + m.Content[0].Value + "\n")
		b.WriteString(indent(text, "  "))
		for _, s := range stubs(m) {
			b.WriteString("  " + s + "\n")
		}
		return b.String(), nil
	case "agent":
		writeInputs(&b, text)
		b.WriteString("states:\n  initial: step\n  step:\n    type: agent\n    provider: openai_compatible\n    prompt: Read README.md.\n")
		b.WriteString(indent(text, "    "))
		b.WriteString("    on_success: done\n  done: {type: terminal, status: success}\n")
		return b.String(), nil
	}
	return "", fmt.Errorf("unknown wrap kind %q (state, agent, header)", kind)
}

func writeInputs(b *strings.Builder, text string) {
	seen := map[string]bool{}
	var names []string
	for _, m := range inputRefRe.FindAllStringSubmatch(text, -1) {
		if !seen[m[1]] {
			seen[m[1]] = true
			names = append(names, m[1])
		}
	}
	if len(names) == 0 {
		return
	}
	b.WriteString("inputs:\n")
	for _, n := range names {
		b.WriteString("  - {name: " + n + ", type: string, default: x}\n")
	}
}

// stubs returns the states m refers to without defining them.
func stubs(m *yaml.Node) []string {
	defined := map[string]bool{}
	for i := 0; i < len(m.Content); i += 2 {
		defined[m.Content[i].Value] = true
	}
	want := map[string]string{}
	terminal := "{type: terminal, status: success}"
	add := func(name, stub string) {
		if name != "" && !defined[name] && want[name] == "" {
			want[name] = stub
		}
	}
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if n.Kind != yaml.MappingNode {
			for _, c := range n.Content {
				walk(c)
			}
			return
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i].Value, n.Content[i+1]
			switch {
			case (k == "on_success" || k == "on_failure" || k == "on_complete" || k == "goto") && v.Kind == yaml.ScalarNode:
				add(v.Value, terminal)
			case (k == "body" || k == "parallel") && v.Kind == yaml.SequenceNode:
				for _, c := range v.Content {
					add(c.Value, `{type: command, command: "true"}`)
				}
			default:
				walk(v)
			}
		}
	}
	for i := 1; i < len(m.Content); i += 2 {
		walk(m.Content[i])
	}
	names := make([]string, 0, len(want))
	for n := range want {
		names = append(names, n)
	}
	sort.Strings(names)
	out := make([]string, 0, len(names))
	for _, n := range names {
		out = append(out, n+": "+want[n])
	}
	return out
}

func indent(text, prefix string) string {
	var b strings.Builder
	for _, l := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		if l != "" {
			b.WriteString(prefix)
		}
		b.WriteString(l + "\n")
	}
	return b.String()
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func copyDir(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(to, rel), 0o755)
		}
		copyFile(t, p, filepath.Join(to, rel))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
