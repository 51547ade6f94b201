// Package search is the search engine under the Grep and Glob tools: a parallel walk of a tree
// read through a confined root (rootfs), .gitignore rules, glob matching, and a ripgrep-like
// matcher and renderer whose counts and output match rg's. It knows nothing of tool arguments
// or of MCP (package builtins decodes and checks those), and nothing of the process it runs in:
// how many workers walk a tree is an input of every search (GrepOptions.Workers, Glob's
// workers), sized by the caller, never read from the runtime here.
package search
