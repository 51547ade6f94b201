package pathprobe

import (
	"os"
	"path/filepath"
	"testing"
)

func TestExists(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f.txt")
	if err := os.WriteFile(file, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "gone"), filepath.Join(dir, "dangling")); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path    string
		want    bool
		wantErr bool
	}{
		{file, true, false},
		{dir, true, false},
		{filepath.Join(dir, "missing"), false, false},
		{filepath.Join(dir, "dangling"), false, false},
		{filepath.Join(file, "below"), false, false},
		{filepath.Join(dir, "nul\x00byte"), false, true},
	}
	for _, tc := range tests {
		got, err := Probe{}.Exists(tc.path)
		if got != tc.want || (err != nil) != tc.wantErr {
			t.Errorf("Exists(%q) = %v, %v; want %v, error %v", tc.path, got, err, tc.want, tc.wantErr)
		}
	}
}
