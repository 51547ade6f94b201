// Package yamlrepo reads workflow files. It parses YAML with the yaml.v3 node API so that every
// problem can be reported at its file:line:col, reports all problems of a file in one pass, and
// finds workflows by name under .awf/workflows.
package yamlrepo

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"

	"gopkg.in/yaml.v3"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/workflow"

	"github.com/awf-dev/awf/internal/infrastructure/strictyaml"
)

// MaxFileSize bounds what Load reads. Workflows are hand-written; anything larger is a mistake
// (a wrong path, a log file) and reading it whole would only waste memory.
const MaxFileSize = 4 << 20

// Load reads the workflow file at path and returns it with every diagnostic about it: YAML
// syntax, schema (unknown keys, wrong kinds, bad durations) and the semantic rules of
// workflow.Validate, sorted by position. Positions carry path as given.
//
// The error is only for a file that cannot be read (missing: USER.WORKFLOW.NOT_FOUND). A
// workflow is returned even when diagnostics hold errors, filled as far as the file allowed, so
// callers can still show what they understood; run it only when !ds.HasErrors().
func Load(path string) (*workflow.Workflow, fault.Diagnostics, error) {
	data, err := readFile(path)
	if err != nil {
		return nil, nil, err
	}
	w, ds := Parse(path, data)
	return w, ds, nil
}

// readFile reads a regular file of bounded size. Anything else (a directory, a FIFO that would
// block forever, a device) is refused before it is opened for reading.
func readFile(path string) ([]byte, error) {
	info, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fault.Wrap(err, fault.UserWorkflowNotFound, "workflow file %q does not exist", path).
			WithHint("check the path, or give a workflow name to look it up in .awf/workflows (awf list shows them)")
	case err != nil:
		return nil, fault.Wrap(err, fault.UserWorkflowUnreadable, "cannot read workflow file %q", path).
			WithHint("check that the file and its directories are readable")
	case info.IsDir():
		return nil, fault.New(fault.UserWorkflowUnreadable, "%q is a directory, not a workflow file", path).
			WithHint("give the path of a .yaml file, or a workflow name")
	case !info.Mode().IsRegular():
		return nil, fault.New(fault.UserWorkflowUnreadable, "%q is not a regular file", path).
			WithHint("give the path of a .yaml file; pipes and devices are not read")
	case info.Size() > MaxFileSize:
		return nil, fault.New(fault.UserWorkflowTooLarge, "workflow file %q is %d bytes, more than the %d allowed", path, info.Size(), MaxFileSize).
			WithHint("check that the path names a workflow, not a data or log file")
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fault.Wrap(err, fault.UserWorkflowUnreadable, "cannot read workflow file %q", path).
			WithHint("check the file's permissions")
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, fault.Wrap(err, fault.UserWorkflowUnreadable, "cannot read workflow file %q", path).
			WithHint("check the file's permissions")
	}
	if len(data) > MaxFileSize {
		return nil, fault.New(fault.UserWorkflowTooLarge, "workflow file %q is larger than the %d bytes allowed", path, MaxFileSize).
			WithHint("check that the path names a workflow, not a data or log file")
	}
	return data, nil
}

// Parse decodes workflow YAML held in memory, as Load does for a file; file is used only in
// positions. It never fails: every problem is a diagnostic, and the workflow is never nil.
func Parse(file string, data []byte) (*workflow.Workflow, fault.Diagnostics) {
	l := &loader{Reader: strictyaml.Reader{File: file, Code: fault.UserWorkflowInvalidValue}}
	root, ok := l.document(data)
	if !ok {
		return &workflow.Workflow{File: file, States: map[string]*workflow.State{}}, finish(l.Diags, nil, nil)
	}
	w := l.workflow(root)
	return w, finish(l.Diags, workflow.Validate(w), l.hushed)
}

// document parses data and returns the root mapping of its single document. It reports why
// there is none (syntax, empty file, not a mapping) and returns false then, because semantic
// rules run on nothing would only add noise.
func (l *loader) document(data []byte) (*yaml.Node, bool) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			l.Diags.Errorf(fault.Position{File: l.File, Line: 1, Column: 1}, fault.UserWorkflowEmpty,
				"start with `name: <workflow>` and a `states:` map", "workflow file is empty")
		} else {
			l.Syntax(err, data)
		}
		return nil, false
	}
	var next yaml.Node
	switch err := dec.Decode(&next); {
	case err == nil:
		l.Diags.Errorf(l.Pos(&next), fault.UserWorkflowInvalidValue, "keep one workflow per file and remove the `---` separator",
			"the file holds more than one YAML document")
	case !errors.Is(err, io.EOF):
		l.Syntax(err, data)
	}
	if len(doc.Content) == 0 {
		return nil, false
	}
	root := doc.Content[0]
	l.Duplicates(root)
	if r := l.Resolve(root); r == nil || r.Kind != yaml.MappingNode {
		l.Invalid(root, "start with `name: <workflow>` and a `states:` map",
			"a workflow file must be a mapping of keys, got %s", strictyaml.KindName(r))
		return nil, false
	}
	return root, true
}

// finish merges structural and semantic diagnostics. A semantic diagnostic at the exact place
// of a structural error, or at a place the loader hushed, is the same problem seen twice (an
// `on_success: [a]` is both the wrong kind and an empty target), so only the structural one,
// which says what to fix, is kept.
func finish(structural, semantic fault.Diagnostics, hushed map[fault.Position]bool) fault.Diagnostics {
	type key struct {
		code, msg string
		pos       fault.Position
	}
	taken := map[fault.Position]bool{}
	for p := range hushed {
		taken[p] = true
	}
	for _, d := range structural {
		if d.Severity == fault.SeverityError {
			taken[d.Position] = true
		}
	}
	seen := map[key]bool{}
	var out fault.Diagnostics
	add := func(d fault.Diagnostic) {
		k := key{d.Code, d.Message, d.Position}
		if !seen[k] {
			seen[k] = true
			out = append(out, d)
		}
	}
	for _, d := range structural {
		add(d)
	}
	for _, d := range semantic {
		if !taken[d.Position] {
			add(d)
		}
	}
	out.Sort()
	return out
}
