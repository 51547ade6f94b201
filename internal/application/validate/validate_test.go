package validate

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// fakeRepo resolves every name to "<name>.yaml" and loads a fixed result.
type fakeRepo struct {
	resolveErr error
	wf         *workflow.Workflow
	ds         fault.Diagnostics
	loadErr    error
	loaded     string
}

func (r *fakeRepo) Resolve(name string) (string, error) {
	if r.resolveErr != nil {
		return "", r.resolveErr
	}
	return name + ".yaml", nil
}

func (r *fakeRepo) Load(path string) (*workflow.Workflow, fault.Diagnostics, error) {
	r.loaded = path
	return r.wf, r.ds, r.loadErr
}

func diag(file string, line int, code string, sev fault.Severity) fault.Diagnostic {
	return fault.Diagnostic{Code: code, Message: code, Severity: sev, Position: fault.Position{File: file, Line: line}}
}

func TestValidate(t *testing.T) {
	ctx := context.Background()
	checkRan := 0
	check := func(_ context.Context, wf *workflow.Workflow) fault.Diagnostics {
		checkRan++
		return fault.Diagnostics{diag("w.yaml", 1, "CHECK.FIRST_LINE", fault.SeverityWarning)}
	}

	t.Run("resolve error", func(t *testing.T) {
		boom := errors.New("no such workflow")
		rep, err := Service{Repo: &fakeRepo{resolveErr: boom}}.Validate(ctx, "nope")
		if !errors.Is(err, boom) || rep.Name != "nope" || rep.File != "" {
			t.Fatalf("Validate = %+v, %v", rep, err)
		}
	})
	t.Run("load error", func(t *testing.T) {
		boom := errors.New("unreadable")
		rep, err := Service{Repo: &fakeRepo{loadErr: boom}}.Validate(ctx, "w")
		if !errors.Is(err, boom) || rep.Name != "w" || rep.File != "w.yaml" {
			t.Fatalf("Validate = %+v, %v", rep, err)
		}
	})
	t.Run("checks run, diagnostics sorted, workflow name wins", func(t *testing.T) {
		checkRan = 0
		repo := &fakeRepo{
			wf: &workflow.Workflow{Name: "pretty"},
			ds: fault.Diagnostics{diag("w.yaml", 9, "LOAD.LATE", fault.SeverityError), diag("w.yaml", 3, "LOAD.EARLY", fault.SeverityWarning)},
		}
		rep, err := Service{Repo: repo, Checks: []Check{check, check}}.Validate(ctx, "path/w")
		if err != nil {
			t.Fatal(err)
		}
		var codes []string
		for _, d := range rep.Diagnostics {
			codes = append(codes, d.Code)
		}
		if got := strings.Join(codes, " "); got != "CHECK.FIRST_LINE CHECK.FIRST_LINE LOAD.EARLY LOAD.LATE" {
			t.Errorf("diagnostics = %s", got)
		}
		if checkRan != 2 || rep.Name != "pretty" || rep.File != "path/w.yaml" || repo.loaded != "path/w.yaml" || rep.Workflow != repo.wf {
			t.Errorf("report = %+v (checks ran %d times)", rep, checkRan)
		}
		if rep.Valid() {
			t.Error("a report with an error is valid")
		}
	})
	t.Run("unnamed workflow keeps the given name; warnings only is valid", func(t *testing.T) {
		rep, err := Service{Repo: &fakeRepo{wf: &workflow.Workflow{}}, Checks: []Check{check}}.Validate(ctx, "given")
		if err != nil || rep.Name != "given" || !rep.Valid() || len(rep.Diagnostics) != 1 {
			t.Fatalf("Validate = %+v, %v", rep, err)
		}
	})
	t.Run("no workflow: checks are skipped", func(t *testing.T) {
		checkRan = 0
		rep, err := Service{Repo: &fakeRepo{ds: fault.Diagnostics{diag("w.yaml", 1, "LOAD.BROKEN", fault.SeverityError)}}, Checks: []Check{check}}.Validate(ctx, "w")
		if err != nil || checkRan != 0 || len(rep.Diagnostics) != 1 || rep.Name != "w" {
			t.Fatalf("Validate = %+v, %v (checks ran %d times)", rep, err, checkRan)
		}
	})
}
