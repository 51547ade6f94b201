package promptfile

import (
	"context"
	"errors"
	"path/filepath"
	"strings"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
)

// Files reads other small text files awf runs or pastes (script_file, readFile) with the
// Reader's rules: regular files only, bounded, cancellable. Its errors name the file by Noun and
// carry Code instead of the prompt file's.
type Files struct {
	Reader
	// Noun names the file in messages ("script file"); Code is the errors' code.
	Noun string
	Code string
}

var (
	_ ports.PromptSource  = Files{}
	_ ports.ConfinedFiles = Files{}
)

// ReadPrompt implements ports.PromptSource for script files: the file at path.
func (f Files) ReadPrompt(ctx context.Context, path string) (string, error) {
	s, err := f.Reader.ReadPrompt(ctx, path)
	return s, f.rename(err)
}

// ReadConfined implements ports.ConfinedFiles: path, relative to root, must resolve (symlinks
// included) to a file inside root; anything else is refused before it is opened.
func (f Files) ReadConfined(ctx context.Context, root, path string) (string, error) {
	full := path
	if !filepath.IsAbs(full) {
		full = filepath.Join(root, path)
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return "", fault.Wrap(err, f.code(), "cannot resolve the project root %s", root)
	}
	real, err := filepath.EvalSymlinks(full)
	if err != nil {
		return "", f.rename(openError(full, err))
	}
	if rel, err := filepath.Rel(realRoot, real); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", fault.New(f.code(), "%s %s is outside the project root %s", f.noun(), path, root).
			WithHint("name a file inside the project, relative to its root")
	}
	return f.ReadPrompt(ctx, real)
}

func (f Files) noun() string {
	if f.Noun == "" {
		return "file"
	}
	return f.Noun
}

func (f Files) code() string {
	if f.Code == "" {
		return fault.UserAgentPromptFile
	}
	return f.Code
}

// rename turns the Reader's prompt-file error into one about this kind of file.
func (f Files) rename(err error) error {
	var fe *fault.Error
	if err == nil || !errors.As(err, &fe) || fe.Code != fault.UserAgentPromptFile {
		return err
	}
	out := *fe
	out.Code = f.code()
	out.Message = strings.Replace(fe.Message, "prompt file", f.noun(), 1)
	if strings.Contains(out.Hint, "prompt") {
		out.Hint = "check the path names a readable regular text file"
	}
	return &out
}
