package strictyaml

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"

	"github.com/awf-dev/awf/internal/domain/fault"
)

var (
	yamlLineRE    = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)
	yamlAnchorRE  = regexp.MustCompile(`^yaml: unknown anchor '(.*)' referenced$`)
	yamlErrPrefix = "yaml: "
)

// Syntax turns a yaml.v3 parse error into a diagnostic. yaml.v3 reports a line but no column,
// so the column is 1; when it reports no line the problem is on the first one. An unknown
// anchor is located in the text, since yaml.v3 does not say where the alias is.
func (r *Reader) Syntax(err error, data []byte) {
	msg := err.Error()
	pos := fault.Position{File: r.File, Line: 1, Column: 1}
	if m := yamlLineRE.FindStringSubmatch(msg); m != nil {
		pos.Line, _ = strconv.Atoi(m[1])
		msg = m[2]
	} else if m := yamlAnchorRE.FindStringSubmatch(msg); m != nil {
		if i := bytes.Index(data, []byte("*"+m[1])); i >= 0 {
			pos.Line = 1 + bytes.Count(data[:i], []byte("\n"))
			pos.Column = 1 + i - (bytes.LastIndexByte(data[:i], '\n') + 1)
		}
		msg = strings.TrimPrefix(msg, yamlErrPrefix)
	} else {
		msg = strings.TrimPrefix(msg, yamlErrPrefix)
	}
	r.Diags.Errorf(pos, fault.UserYAMLSyntax, syntaxHint(msg), "invalid YAML: %s", msg)
}

// syntaxHint gives the usual fix for the commonest YAML mistakes.
func syntaxHint(msg string) string {
	switch {
	case strings.Contains(msg, "tab character"):
		return "indent with spaces, not tabs"
	case strings.Contains(msg, "cannot start any token"):
		return "indent with spaces, not tabs, and quote values that start with @ or `"
	case strings.Contains(msg, "mapping values are not allowed"):
		return "quote values that contain `: `, and check the indentation of this line"
	case strings.Contains(msg, "did not find expected key"):
		return "check the indentation: keys of one mapping must start in the same column"
	case strings.Contains(msg, "unknown anchor"):
		return "define the anchor (&name) before using the alias (*name)"
	}
	return "check the indentation and quoting around this line"
}
