package usecase

import (
	"context"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/runrecord"
)

// TestResumeNoticesFiles: a resume compares the prompt_file and plugins.yaml the run read with
// the same files now, refuses a change naming each file, and records them under --force; a
// record from before files were kept is not refused.
func TestResumeNoticesFiles(t *testing.T) {
	const prompt, plugins = "/proj/p.md", "/proj/.awf/plugins.yaml"
	tests := []struct {
		name      string
		files     map[string]string // the record's; nil: an old record
		edit      map[string]string // the files now
		force     bool
		wantNames []string // named in the refusal
	}{
		{name: "unchanged", files: map[string]string{prompt: runrecord.Hash([]byte("v1")), plugins: runrecord.Hash([]byte("p1"))}},
		{name: "prompt edited", files: map[string]string{prompt: runrecord.Hash([]byte("v1")), plugins: runrecord.Hash([]byte("p1"))},
			edit: map[string]string{prompt: "v2"}, wantNames: []string{prompt + " (edited)"}},
		{name: "plugins.yaml edited and prompt deleted", files: map[string]string{prompt: runrecord.Hash([]byte("v1")), plugins: runrecord.Hash([]byte("p1"))},
			edit: map[string]string{plugins: "p2", prompt: ""}, wantNames: []string{plugins + " (edited)", prompt + " (no longer read"}},
		{name: "a file read now, not by the run", files: map[string]string{prompt: runrecord.Hash([]byte("v1"))},
			wantNames: []string{plugins + " (read now, not by the run)"}},
		{name: "forced", files: map[string]string{prompt: runrecord.Hash([]byte("v1"))}, edit: map[string]string{prompt: "v2"}, force: true},
		{name: "an old record", files: nil, edit: map[string]string{prompt: "v2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fx, store := resumeFixture(runrecord.Failed, 0)
			fx.v.rep.Workflow.States["ask"].Agent().PromptFile = "p.md"
			store.source[prompt], store.source[plugins] = "v1", "p1"
			for f, body := range tt.edit {
				if body == "" {
					delete(store.source, f)
				} else {
					store.source[f] = body
				}
			}
			rec := store.recs["r0"]
			rec.Files = tt.files
			store.recs["r0"] = rec
			err := fx.uc.Resume(context.Background(), ResumeRequest{ID: "r0", Force: tt.force})
			if tt.wantNames == nil {
				if fault.CodeOf(err) == fault.UserRunWorkflowChanged {
					t.Fatalf("refused: %v", err)
				}
				if tt.force && store.recs["r0"].Files[prompt] != runrecord.Hash([]byte("v2")) {
					t.Fatalf("forced resume did not record the file as it is now: %v", store.recs["r0"].Files)
				}
				return
			}
			if fault.CodeOf(err) != fault.UserRunWorkflowChanged || len(fx.logs) != 0 {
				t.Fatalf("err %v (logs %v), want the change refused before anything started", err, fx.logs)
			}
			for _, n := range tt.wantNames {
				if !strings.Contains(err.Error(), n) {
					t.Errorf("the refusal does not name %q: %v", n, err)
				}
			}
		})
	}
}
