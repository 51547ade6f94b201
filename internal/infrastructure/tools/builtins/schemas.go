package builtins

import (
	"encoding/json"

	"github.com/awf-dev/awf/internal/domain/tool"
)

// Limits the tools apply; the descriptions below state them to the model.
const (
	readDefaultLimit     = 2000      // lines Read returns when no limit is given
	bashDefaultTimeoutMs = 120_000   // Bash timeout when none is given
	bashMaxTimeoutMs     = 600_000   // larger timeouts are refused, not clamped
	globMaxResults       = 100       // paths Glob returns
	editMaxFileBytes     = 128 << 20 // Edit loads the whole file; larger files are refused
)

// definitions returns the six tool definitions. The schemas are written by hand so that they say
// exactly what decodeArgs enforces: additionalProperties false, required fields, integer types
// with minimums. A test checks that each schema's properties match the argument struct.
func definitions() []tool.Definition {
	return []tool.Definition{
		def("Read", "Read file", readDesc, readSchema, true, false, true, false),
		def("Write", "Write file", writeDesc, writeSchema, false, false, true, false),
		def("Edit", "Edit file", editDesc, editSchema, false, false, false, false),
		def("Bash", "Run shell command", bashDesc, bashSchema, false, true, false, true),
		fansOut(def("Glob", "Find files by pattern", globDesc, globSchema, true, false, true, false)),
		fansOut(def("Grep", "Search file contents", grepDesc, grepSchema, true, false, true, false)),
	}
}

// fansOut marks a tool that walks a tree with every worker it is given (Options.Workers).
func fansOut(d tool.Definition) tool.Definition {
	d.FansOut = true
	return d
}

func def(name, title, desc, schema string, readOnly, destructive, idempotent, openWorld bool) tool.Definition {
	a := tool.Annotations{
		Title:           title,
		ReadOnlyHint:    tool.Bool(readOnly),
		DestructiveHint: tool.Bool(destructive),
		OpenWorldHint:   tool.Bool(openWorld),
	}
	if idempotent {
		a.IdempotentHint = tool.Bool(true)
	} else {
		a.IdempotentHint = tool.Bool(false)
	}
	return tool.Definition{
		Name:        name,
		Description: desc,
		InputSchema: json.RawMessage(schema),
		Annotations: a,
		Source:      tool.BuiltinSource,
	}
}

const readDesc = `Reads a text file and returns its lines numbered like "cat -n" (line number, a tab, the text).
- file_path: absolute, or relative to the root directory; it must resolve (symlinks included) inside the root.
- By default returns up to 2000 lines from the start. For large files page with offset (1-based first line) and limit (number of lines); any line of any file can be reached this way.
- Lines longer than 2000 characters are cut with a marker. The whole result is capped (a note says where to continue).
- Only regular text files: directories, named pipes, devices, sockets and binary files (a NUL byte in the first 8 KiB) are refused. Invalid UTF-8 bytes are shown as U+FFFD.`

const readSchema = `{
  "type": "object",
  "properties": {
    "file_path": {"type": "string", "description": "Path of the file to read: absolute, or relative to the root directory."},
    "offset": {"type": "integer", "minimum": 0, "description": "1-based number of the first line to return. Default 1 (0 also means the first line)."},
    "limit": {"type": "integer", "minimum": 1, "description": "Number of lines to return. Default 2000."}
  },
  "required": ["file_path"],
  "additionalProperties": false
}`

const writeDesc = `Writes a file, replacing its content completely, or creating it (and any missing parent directories).
- file_path: absolute, or relative to the root directory; it must resolve (symlinks included) inside the root.
- The write is atomic: the content goes to a temporary file in the same directory, is flushed to disk, then renamed over the target, so readers never see a half-written file.
- An existing file keeps its permission bits; a new file gets mode 0644. A directory target is refused.
- Prefer Edit for changing part of an existing file.`

const writeSchema = `{
  "type": "object",
  "properties": {
    "file_path": {"type": "string", "description": "Path of the file to write: absolute, or relative to the root directory."},
    "content": {"type": "string", "description": "The complete new content of the file."}
  },
  "required": ["file_path", "content"],
  "additionalProperties": false
}`

const editDesc = `Replaces exact text in an existing file.
- old_string must occur in the file exactly as given (whitespace and indentation included) and must not be empty; new_string must differ from it.
- Without replace_all, old_string must occur exactly once: a text that occurs several times is refused (add surrounding lines to make it unique, or set replace_all to true).
- replace_all: true replaces every occurrence. The result says how many replacements were made.
- The write is atomic and keeps the file's permission bits. Files over 128 MiB are refused.
- file_path: absolute, or relative to the root directory; it must resolve inside the root.`

const editSchema = `{
  "type": "object",
  "properties": {
    "file_path": {"type": "string", "description": "Path of the file to edit: absolute, or relative to the root directory."},
    "old_string": {"type": "string", "minLength": 1, "description": "The exact text to replace; must not be empty and must be unique unless replace_all is true."},
    "new_string": {"type": "string", "description": "The replacement text; must differ from old_string."},
    "replace_all": {"type": "boolean", "description": "Replace every occurrence of old_string. Default false."}
  },
  "required": ["file_path", "old_string", "new_string"],
  "additionalProperties": false
}`

const bashDesc = `Runs a shell command with bash -c (sh if bash is missing) in the root directory and returns its combined stdout and stderr.
- timeout is in milliseconds: default 120000 (2 minutes), maximum 600000 (10 minutes); a larger value is refused, not clamped. On timeout the command and every process it started are killed.
- stdin is empty (/dev/null): interactive commands fail instead of hanging. Processes left running in the background are killed when the command ends.
- Output is capped (default 256 KiB); a longer output keeps its beginning and end, with a note giving the total size. Redirect large output to a file and read it with Read or Grep.
- A non-zero exit code is reported as an error together with the output.
- The environment does not contain the agent's own API keys or tokens.
- Prefer Read, Write, Edit, Glob and Grep over cat, sed, find and grep.`

const bashSchema = `{
  "type": "object",
  "properties": {
    "command": {"type": "string", "minLength": 1, "description": "The command line to run with bash -c."},
    "timeout": {"type": "integer", "minimum": 1, "maximum": 600000, "description": "Timeout in milliseconds. Default 120000, maximum 600000."},
    "description": {"type": "string", "description": "A short description of what the command does, in 5-10 words (for logs; it does not change the command)."}
  },
  "required": ["command"],
  "additionalProperties": false
}`

const globDesc = `Finds files whose path matches a glob pattern, newest first.
- Patterns: * matches within one path segment, ** matches any number of directories ("**/*.go", "src/**/*.{ts,tsx}"), ? one character, [abc] a class, {a,b} alternatives.
- The pattern is relative to path (default: the root directory); an absolute pattern must lie inside the root.
- Returns absolute paths of files (not directories), sorted by modification time, newest first; at most 100 (a note says when there are more).
- The .git directory is skipped; symlinked directories are not followed. .gitignore is not applied.`

const globSchema = `{
  "type": "object",
  "properties": {
    "pattern": {"type": "string", "minLength": 1, "description": "Glob pattern, e.g. \"**/*.go\" or \"src/**/*.{ts,tsx}\"."},
    "path": {"type": "string", "description": "Directory to search in: absolute, or relative to the root directory. Default: the root directory."}
  },
  "required": ["pattern"],
  "additionalProperties": false
}`

const grepDesc = `Searches file contents with a regular expression, like ripgrep.
- pattern uses Go RE2 syntax (like ripgrep's default engine without look-around or back-references); escape literal braces and dots (\{, \.) to match them literally.
- path: a file or directory (default: the root directory). Directories are searched recursively; .git is skipped, .gitignore files (at every level) are honoured, hidden files are searched, binary files (containing NUL bytes) are skipped, symlinks are not followed.
- glob filters files ("*.go", "*.{ts,tsx}", "src/**/*.py"; a leading ! excludes); type filters by language (go, js, ts, py, rust, java, c, cpp, md, json, yaml, sh, html, css, ...).
- output_mode: "files_with_matches" (default) lists matching files, newest first; "content" shows matching lines as path:line:text (context lines as path-line-text, "--" between groups); "count" shows path:count of matching lines. content and count are sorted by path.
- -i: case insensitive. -n: line numbers in content mode (default true). -A/-B/-C: lines of context after/before/around each match (content mode).
- multiline: let the pattern span lines ("." then also matches newlines). Without it, a match never spans lines.
- head_limit: keep only the first N lines/entries of the output. The output is also capped in size, with a note.`

const grepSchema = `{
  "type": "object",
  "properties": {
    "pattern": {"type": "string", "description": "Regular expression (Go RE2 syntax) to search for."},
    "path": {"type": "string", "description": "File or directory to search: absolute, or relative to the root directory. Default: the root directory."},
    "glob": {"type": "string", "description": "Only search files matching this glob, e.g. \"*.js\", \"*.{ts,tsx}\"; a leading ! excludes matching files."},
    "type": {"type": "string", "description": "Only search files of this type: go, js, ts, py, rust, java, c, cpp, md, json, yaml, toml, sh, html, css, ruby, php, swift, kotlin, scala, csharp, sql, proto, xml, txt, make, docker."},
    "output_mode": {"type": "string", "enum": ["content", "files_with_matches", "count"], "description": "What to return. Default files_with_matches."},
    "-i": {"type": "boolean", "description": "Case insensitive search. Default false."},
    "-n": {"type": "boolean", "description": "Show line numbers (content mode). Default true."},
    "-A": {"type": "integer", "minimum": 0, "description": "Lines of context after each match (content mode)."},
    "-B": {"type": "integer", "minimum": 0, "description": "Lines of context before each match (content mode)."},
    "-C": {"type": "integer", "minimum": 0, "description": "Lines of context before and after each match (content mode)."},
    "head_limit": {"type": "integer", "minimum": 0, "description": "Keep only the first N lines or entries of the output. 0 or absent: no limit (the size cap still applies)."},
    "multiline": {"type": "boolean", "description": "Let matches span lines; . also matches newline. Default false."}
  },
  "required": ["pattern"],
  "additionalProperties": false
}`
