// Package docs holds the tests that keep awf's documentation true:
//
//   - every command and YAML example of README.md and docs/ runs (examples_test.go), as the
//     HTML comments above its fence say (docs/reference/docs-tests.md lists them);
//   - the layout table of docs/design.md names every package of cmd/, internal/ and pkg/
//     (layout_test.go);
//   - every error code and every activity-record field is in the reference (codes_test.go,
//     record_test.go);
//   - every document a Go comment cites is in the repository (cite_test.go).
package docs
