// Package docs carries the reference pages awf prints itself: `awf error` reads its catalog
// from the error-code page, so the page and the command cannot disagree (tests/docs checks that
// the page lists exactly the codes the code has).
package docs

import _ "embed"

// ErrorCodes is docs/reference/error-codes.md: one table row per code, `| `CODE` | meaning |`.
//
//go:embed reference/error-codes.md
var ErrorCodes string
