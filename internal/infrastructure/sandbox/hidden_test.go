package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// stores are credential files planted in the test's HOME and root, each holding its marker.
var stores = []string{
	".ssh/id_ed25519", ".aws/credentials", ".config/gh/hosts.yml", ".npmrc", ".netrc",
	".git-credentials", ".docker/config.json", ".kube/config", ".gnupg/private-keys-v1.d/k.key",
	".pypirc", ".azure/msal_token_cache.json", ".config/gcloud/credentials.db",
}

func marker(rel string) string {
	return "SECRET-" + strings.NewReplacer("/", "-", ".", "").Replace(rel)
}

// plantStores writes every store under w.home and an earlier run's state under .awf/runs.
func plantStores(t *testing.T, w world) []string {
	t.Helper()
	var files []string
	for _, s := range stores {
		f := filepath.Join(w.home, s)
		os.MkdirAll(filepath.Dir(f), 0o700)
		if err := os.WriteFile(f, []byte(marker(s)+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	os.WriteFile(filepath.Join(w.home, ".ssh", "known_hosts"), []byte("KNOWN-HOSTS\n"), 0o644)
	run := filepath.Join(w.root, ".awf", "runs", "r1", "state.json")
	os.MkdirAll(filepath.Dir(run), 0o700)
	os.WriteFile(run, []byte(`{"inputs":{"token":"SECRET-state"}}`), 0o600)
	return append(files, run)
}

// readAll is a script printing every file given, and everything grep finds under HOME and .awf.
func readAll(files []string) string {
	return "cat " + strings.Join(files, " ") + " 2>&1; grep -r SECRET \"$HOME\" .awf 2>&1; echo done"
}

// runReadable runs script under the read policy with the given sandbox.readable list.
func (w world) runReadable(t *testing.T, readable []string, script string) string {
	t.Helper()
	self, _ := os.Executable()
	pol := Policy{Policy: PolicyRead, Root: w.root, TmpDir: w.tmp, Network: true, Readable: readable,
		Protected: ProtectedPaths(w.root, nil)}
	out, err := runSpare(self, w.root, pol, []string{"/bin/bash", "-c", script}, TempEnv(os.Environ(), w.tmp))
	if err != nil && !isExit(err) {
		t.Fatal(err)
	}
	return out
}

// TestCredentialStoresHidden: by default a read-only call reads none of the stores nor an
// earlier run's state, and cannot write where they are; the files stay as they were.
func TestCredentialStoresHidden(t *testing.T) {
	w := newWorld(t)
	files := plantStores(t, w)
	out := w.runReadable(t, nil, readAll(files)+"; ls -A ~/.ssh | wc -l")
	if !strings.Contains(out, "done") {
		t.Fatalf("the script did not run: %s", out)
	}
	if strings.Contains(out, "SECRET") {
		t.Errorf("a credential was read in the sandbox: %s", out)
	}
	w.mustFail(t, PolicyWrite, `echo x > "$HOME/.ssh/authorized_keys"`)
	w.mustFail(t, PolicyWrite, "echo x > .awf/runs/r1/state.json")
	for i, f := range files[:len(stores)] {
		if b, err := os.ReadFile(f); err != nil || !strings.Contains(string(b), marker(stores[i])) {
			t.Errorf("%s changed: %q %v", f, b, err)
		}
	}
	// The control: unsandboxed, the same script reads them all.
	plain, _ := exec.Command("/bin/bash", "-c", "cd "+w.root+" && "+readAll(files)).CombinedOutput()
	for _, s := range stores {
		if !strings.Contains(string(plain), marker(s)) {
			t.Fatalf("control: %s not read unsandboxed: %s", s, plain)
		}
	}
}

// TestReadableOpensOneStore: readable names a store (or a file inside one) on purpose; the
// others stay hidden.
func TestReadableOpensOneStore(t *testing.T) {
	w := newWorld(t)
	files := plantStores(t, w)
	out := w.runReadable(t, []string{"~/.npmrc", "$HOME/.ssh/known_hosts"}, readAll(files)+"; cat ~/.ssh/known_hosts")
	if !strings.Contains(out, marker(".npmrc")) || !strings.Contains(out, "KNOWN-HOSTS") {
		t.Errorf("the readable paths were not read: %s", out)
	}
	for _, s := range stores {
		if s != ".npmrc" && strings.Contains(out, marker(s)) {
			t.Errorf("%s was read though only ~/.npmrc and known_hosts are readable: %s", s, out)
		}
	}
}

func TestHiddenPathsKeepRootAndReadable(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	os.MkdirAll(filepath.Join(home, ".ssh", "sub"), 0o700)
	os.WriteFile(filepath.Join(home, ".ssh", "id_rsa"), nil, 0o600)
	os.WriteFile(filepath.Join(home, ".ssh", "config"), nil, 0o600)
	root := filepath.Join(home, ".kube", "project") // a root inside a store: the store's other entries hide
	os.MkdirAll(root, 0o755)
	os.WriteFile(filepath.Join(home, ".kube", "config"), nil, 0o600)
	got := HiddenPaths(root, nil, []string{"~/.ssh/config"})
	for _, want := range []string{filepath.Join(home, ".ssh", "id_rsa"), filepath.Join(home, ".ssh", "sub"),
		filepath.Join(home, ".kube", "config"), filepath.Join(home, ".npmrc"), filepath.Join(root, ".awf", "runs")} {
		if !slices.Contains(got, want) {
			t.Errorf("HiddenPaths lacks %s: %v", want, got)
		}
	}
	for _, no := range []string{filepath.Join(home, ".ssh"), filepath.Join(home, ".ssh", "config"), filepath.Join(home, ".kube"), root} {
		if slices.Contains(got, no) {
			t.Errorf("HiddenPaths hides %s: %v", no, got)
		}
	}
	if !Protects(got, filepath.Join(root, ".awf", "runs", "r1", "state.json")) || Protects(got, filepath.Join(root, "main.go")) {
		t.Error("Protects over HiddenPaths: wrong answer for .awf/runs or the root's files")
	}
}
