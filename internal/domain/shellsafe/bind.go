package shellsafe

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"text/template"
)

// EnvPrefix starts the name of each variable that carries a value into a command. A workflow
// may not name its own variables so, and a runner drops inherited ones before adding a
// command's, so a reference always reads the value awf set for it.
const EnvPrefix = "AWF_V_"

// Command is rendered shell code and the values it refers to.
type Command struct {
	// Text is the code. It holds a reference ("${AWF_V_1}") where each value goes and no byte of
	// any value, so the shell's parse of it does not depend on the values.
	Text string
	// Env sets each referenced variable (NAME=value) for this command only.
	Env  []string
	refs []ref
}

// ref is one reference in a Command's text.
type ref struct {
	at     int // offset in Text
	text   string
	ctx    Context
	quoted bool // the author wrote {{quote …}}: the value is one word even when empty
	value  string
}

// Shown is the command as a person should read it (logs, --dry-run): each reference replaced by
// its value, escaped for its place as a shell would need it, or left as the reference when no
// escaping could show it. It is for display only; the shell runs Text with Env.
func (c Command) Shown() string {
	if len(c.refs) == 0 {
		return c.Text
	}
	var b strings.Builder
	prev := 0
	for _, r := range c.refs {
		b.WriteString(c.Text[prev:r.at])
		b.WriteString(r.shown())
		prev = r.at + len(r.text)
	}
	b.WriteString(c.Text[prev:])
	return b.String()
}

func (r ref) shown() string {
	if r.quoted {
		return "'" + strings.ReplaceAll(r.value, "'", `'\''`) + "'"
	}
	if s, err := Escape(r.ctx, r.value); err == nil {
		return s
	}
	return r.text
}

// ErrNUL refuses a value no environment variable (nor any program argument) can carry.
var ErrNUL = errors.New("the value holds a NUL byte, which no environment variable or program argument can carry")

// Binding executes a template Prepare rewrote: each value becomes a reference in the text and
// an entry of the command's environment. It serves one execution at a time.
type Binding struct {
	buf  bytes.Buffer
	refs []ref
}

// Execute runs t (prepared with this binding) on data.
func (b *Binding) Execute(t *template.Template, data any) (Command, error) {
	b.buf.Reset()
	b.refs = nil
	if err := t.Execute(&b.buf, data); err != nil {
		return Command{}, err
	}
	env := make([]string, len(b.refs))
	for i, r := range b.refs {
		env[i] = EnvPrefix + strconv.Itoa(i+1) + "=" + r.value
	}
	return Command{Text: b.buf.String(), Env: env, refs: b.refs}, nil
}

// reference is called by the template for each value it prints in place c: it records the
// value and returns the reference. The template writes the returned text at once, so the
// buffer's length now is the reference's offset.
func (b *Binding) reference(c *Context, quoted bool, v any) (string, error) {
	s, ok := v.(string)
	if !ok {
		s = fmt.Sprint(v)
	}
	if strings.IndexByte(s, 0) >= 0 {
		return "", ErrNUL
	}
	name := EnvPrefix + strconv.Itoa(len(b.refs)+1)
	text, err := Reference(*c, name)
	if err != nil {
		return "", err
	}
	if quoted && c.Kind == Word {
		text = `"${` + name + `}"`
	}
	b.refs = append(b.refs, ref{at: b.buf.Len(), text: text, ctx: *c, quoted: quoted, value: s})
	return text, nil
}

// Reference is how code in place c reads the variable name as one piece of data:
//
//   - a bare word: ${N:+"${N}"}, one word, or none when empty (as pasting an empty value did);
//   - inside "…", ${…} or an expanding here-document: ${N};
//   - inside '…': close the quotes, "${N}", reopen.
//
// Every form closes what it opens and holds no backslash, so in any other place than the one
// judged it is still balanced: a misjudged place changes at worst how the value is split, or
// shows the reference as text, never what runs.
func Reference(c Context, name string) (string, error) {
	if err := kindRefusal(c.Kind); err != nil {
		return "", err
	}
	switch c.Kind {
	case Word, Comment:
		if c.InParam {
			return `"${` + name + `}"`, nil
		}
		return `${` + name + `:+"${` + name + `}"}`, nil
	case DoubleQuoted, Heredoc:
		return `${` + name + `}`, nil
	case SingleQuoted:
		return `'"${` + name + `}"'`, nil
	}
	return "", fmt.Errorf("unknown shell context %v", c.Kind)
}
