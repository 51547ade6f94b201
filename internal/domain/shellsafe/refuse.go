package shellsafe

import (
	"errors"
	"strings"
)

// Places where a shell, or a program the command starts, reads a variable's text as code: a
// reference there would hand the value to a parser, so no value may go there. Each message says
// how to write the command instead.
var (
	ErrArithmetic = errors.New(`bash evaluates a value here as an arithmetic expression ($((…)), ((…)), let, an array index, ${x:offset}, declare -i), and a[$(cmd)] in it runs cmd; ` +
		`check it is a number first (n={{…}}; case $n in ''|*[!0-9]*) exit 2;; esac) and use $n, or write {{raw …}} for a value only the workflow's author controls`)
	ErrTestArithmetic = errors.New(`bash evaluates both sides of [[ … -eq … ]] (and the name after -v) as arithmetic, and a[$(cmd)] in them runs cmd; ` +
		`compare numbers with [ … -eq … ], which does not evaluate them, or write {{raw …}} on purpose`)
	ErrReparsed = errors.New(`this text is parsed again as code (eval, trap, sh -c '…', python3 -c '…', node -e '…', ssh host '…', watch '…'), so the value would run; ` +
		`pass it as an argument and read it there, e.g. sh -c 'echo "$1"' sh {{…}}, or write {{raw …}} on purpose`)
	ErrPipedToShell = errors.New(`a shell or interpreter reads this as its script (… | sh, sh <<EOF), so the value would run; ` +
		`give the value to it as an argument or an environment variable (V={{…}} sh script.sh reads "$V"), or write {{raw …}} on purpose`)
	ErrQuotedHeredoc = errors.New(`a here-document with a quoted delimiter (<<'EOF') expands nothing, so the value cannot reach it; unquote the delimiter (<<EOF), ` +
		`or, when the document is another program's code, set a variable for that program (V={{…}} python3 - <<'EOF' … os.environ["V"])`)
	ErrAnsiC    = errors.New(`bash reads backslash escapes inside $'…', so a value cannot be placed there; use '…' or "…"`)
	ErrParamKey = errors.New(`a value cannot name a variable, an array index or an offset inside ${…}; assign it to a variable first and use that`)
)

// kindRefusal is why no value may go in a place of kind k, if none may.
func kindRefusal(k Kind) error {
	switch k {
	case Arithmetic:
		return ErrArithmetic
	case HeredocLiteral:
		return ErrQuotedHeredoc
	case AnsiC:
		return ErrAnsiC
	}
	return nil
}

// refusal is why the command around this point would read a value here as code, if it would:
// any enclosing command, not just the innermost, may parse its argument again
// (eval "$(printf %s {{v}})").
func (l *Lexer) refusal() error {
	for i := range l.stack {
		f := &l.stack[i]
		var err error
		switch f.kind {
		case fTop, fCmdSubst, fBacktick:
			err = f.sc.role()
		case fParam:
			err = paramRole(f.param)
		case fHeredoc:
			if f.doc.code {
				err = ErrPipedToShell
			}
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// paramRole refuses a value in the name part of ${…}: a name, an array index or a substring
// offset, which bash evaluates as arithmetic. After an operator (:- # % / …) the value is a word.
func paramRole(p string) error {
	p = strings.TrimLeft(p, "#!")
	n := 0
	for n < len(p) && (isName(p[:n+1]) || p[n] >= '0' && p[n] <= '9') {
		n++
	}
	if n == 0 && p != "" && strings.IndexByte("@*?$-", p[0]) >= 0 {
		n = 1
	}
	if n == 0 {
		return ErrParamKey
	}
	rest := p[n:]
	for strings.HasPrefix(rest, "[") {
		var closed bool
		if _, rest, closed = strings.Cut(rest, "]"); !closed {
			return ErrParamKey
		}
	}
	if strings.HasPrefix(rest, ":") && (len(rest) == 1 || strings.IndexByte("-=?+", rest[1]) < 0) {
		return ErrArithmetic
	}
	return nil
}
