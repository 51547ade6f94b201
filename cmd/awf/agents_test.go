package main

import (
	"slices"
	"testing"

	"github.com/awf-dev/awf/internal/domain/workflow"
)

// TestEveryProviderIsWired: the names a workflow may write (workflow.Providers) and the
// providers awf runs are the same set, each keyed by its own Name, each with an option check.
func TestEveryProviderIsWired(t *testing.T) {
	providers := agentProviders(nil)
	var names []string
	for key, p := range providers {
		if p.Name() != key {
			t.Errorf("provider %q is keyed %q", p.Name(), key)
		}
		names = append(names, key)
	}
	if want := slices.Sorted(slices.Values(workflow.Providers)); !slices.Equal(slices.Sorted(slices.Values(names)), want) {
		t.Errorf("providers %v, want exactly %v", slices.Sorted(slices.Values(names)), want)
	}
	if len(providerChecks()) != len(workflow.Providers) {
		t.Errorf("%d option checks for %d providers", len(providerChecks()), len(workflow.Providers))
	}
	for name := range inProcessProviders() {
		if providers[name] == nil {
			t.Errorf("in-process provider %q is not a provider", name)
		}
	}
}
