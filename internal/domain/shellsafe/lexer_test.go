package shellsafe

import (
	"errors"
	"testing"
)

// TestContextAfter reads a script up to a placeholder and checks the context the lexer gives it.
func TestContextAfter(t *testing.T) {
	tests := []struct {
		before string
		want   Context
		// err: no value may go there, for this reason.
		err error
	}{
		{``, Context{Kind: Word}, nil},
		{`echo `, Context{Kind: Word}, nil},
		{`echo '`, Context{Kind: SingleQuoted}, nil},
		{`echo 'a' `, Context{Kind: Word}, nil},
		{`echo "`, Context{Kind: DoubleQuoted}, nil},
		{`echo "a\"`, Context{Kind: DoubleQuoted}, nil},
		{`echo "it's `, Context{Kind: DoubleQuoted}, nil},
		{`echo 'say "`, Context{Kind: SingleQuoted}, nil},
		{`echo \' `, Context{Kind: Word}, nil},
		{`echo $(`, Context{Kind: Word}, nil},
		{`echo "$(`, Context{Kind: Word}, nil},
		{`echo "$(echo '`, Context{Kind: SingleQuoted}, nil},
		{`echo $( (cd x; ls) ; echo "`, Context{Kind: DoubleQuoted}, nil},
		{`echo $( (cd x) ) "`, Context{Kind: DoubleQuoted}, nil},
		{`echo $(echo a) '`, Context{Kind: SingleQuoted}, nil},
		{"echo `", Context{Kind: Word, Backticks: 1}, nil},
		{"echo \"`echo '", Context{Kind: SingleQuoted, Backticks: 1}, nil},
		{"echo `a` '", Context{Kind: SingleQuoted}, nil},
		{`echo ${x:-`, Context{Kind: Word, InParam: true}, nil},
		{`echo "${x:-`, Context{Kind: DoubleQuoted, InParam: true}, nil},
		{`echo "${x:-'`, Context{Kind: DoubleQuoted, InParam: true}, nil},
		{`echo ${x:-'`, Context{Kind: SingleQuoted}, nil},
		{`echo ${x:-a} '`, Context{Kind: SingleQuoted}, nil},
		{`echo ${#x} #`, Context{Kind: Comment}, nil},
		{`echo ${x#y} '`, Context{Kind: SingleQuoted}, nil},
		{`echo $((`, Context{Kind: Arithmetic}, ErrArithmetic},
		{`echo $(( (1+2) * `, Context{Kind: Arithmetic}, ErrArithmetic},
		{`echo $(( (1+2) )) '`, Context{Kind: SingleQuoted}, nil},
		{`echo $((1)) `, Context{Kind: Word}, nil},
		{`echo $'`, Context{Kind: AnsiC}, ErrAnsiC},
		{`echo "$'`, Context{Kind: DoubleQuoted}, nil},
		{`echo a#b `, Context{Kind: Word}, nil},
		{`echo a # `, Context{Kind: Comment}, nil},
		{"echo a # x\n", Context{Kind: Word}, nil},
		{`echo a;#`, Context{Kind: Comment}, nil},
		{`echo a|#`, Context{Kind: Comment}, nil},
		{`echo a&#`, Context{Kind: Comment}, nil},
		{`echo $(#`, Context{Kind: Comment}, nil},
		{"cat <<EOF\n", Context{Kind: Heredoc, Delimiter: "EOF"}, nil},
		{"cat <<EOF\nline ", Context{Kind: Heredoc, Delimiter: "EOF", Line: "line "}, nil},
		{"cat <<EOF\nEOF\n", Context{Kind: Word}, nil},
		{"cat <<EOF\n EOF\n", Context{Kind: Heredoc, Delimiter: "EOF"}, nil},
		{"cat <<-EOF\n\tEOF\n", Context{Kind: Word}, nil},
		{"cat <<-  EOF\n", Context{Kind: Heredoc, Delimiter: "EOF", StripTabs: true}, nil},
		{"cat << 'EOF'\n", Context{Kind: HeredocLiteral, Delimiter: "EOF"}, ErrQuotedHeredoc},
		{"cat <<\"EOF\"\n", Context{Kind: HeredocLiteral, Delimiter: "EOF"}, ErrQuotedHeredoc},
		{"cat <<\\EOF\n", Context{Kind: HeredocLiteral, Delimiter: "EOF"}, ErrQuotedHeredoc},
		{"cat <<EOF>out\n", Context{Kind: Heredoc, Delimiter: "EOF"}, nil},
		{"cat <<EOF # note\n", Context{Kind: Heredoc, Delimiter: "EOF"}, nil},
		{"cat <<EOF\n$(", Context{Kind: Word}, nil},
		{"cat <<EOF\n${x:-", Context{Kind: DoubleQuoted, InParam: true}, nil},
		{"cat <<EOF\n`", Context{Kind: Word, Backticks: 1}, nil},
		{"cat <<EOF\n'", Context{Kind: Heredoc, Delimiter: "EOF", Line: "'"}, nil},
		{"cat <<'EOF'\n$(", Context{Kind: HeredocLiteral, Delimiter: "EOF", Line: "$("}, ErrQuotedHeredoc},
		{"cat <<A <<B\nA\n", Context{Kind: Heredoc, Delimiter: "B"}, nil},
		{"cat <<<'x' '", Context{Kind: SingleQuoted}, nil},
		{"cat <<<x ", Context{Kind: Word}, nil},
		{"echo \"a\nb", Context{Kind: DoubleQuoted}, nil},
		{"echo a \\\n", Context{Kind: Word}, nil},
		{"cat <<EOF\n\\", Context{}, ErrAfterBackslash},
		{`echo "$( (a) ) `, Context{Kind: DoubleQuoted}, nil},
		{`echo "$( (a) `, Context{Kind: Word}, nil},
		{`echo "$( ((a)) `, Context{Kind: Word}, nil},
		{`echo "$( ((a)) ) `, Context{Kind: DoubleQuoted}, nil},
		{`echo "$(a) `, Context{Kind: DoubleQuoted}, nil},
		{`echo "$(( (1) )) `, Context{Kind: DoubleQuoted}, nil},
		{`echo "$(( (1) `, Context{Kind: Arithmetic}, ErrArithmetic},
		{`echo "$(( ((1)) `, Context{Kind: Arithmetic}, ErrArithmetic},
		{`echo "$(( 1 ) `, Context{Kind: DoubleQuoted}, nil},
		{`echo ${#`, Context{Kind: Word, InParam: true}, ErrParamKey},
		{`echo ${x #`, Context{Kind: Word, InParam: true}, nil},
		{`echo a<`, Context{Kind: Word}, nil},
		{`echo a< '`, Context{Kind: SingleQuoted}, nil},
		{"cat <<EOF;echo '", Context{Kind: SingleQuoted}, nil},
		{"cat <<EOF|tr a b\n", Context{Kind: Heredoc, Delimiter: "EOF"}, nil},
		{"cat <<E'O'F\n", Context{Kind: HeredocLiteral, Delimiter: "EOF"}, ErrQuotedHeredoc},
		{"cat <<\tEOF\n", Context{Kind: Heredoc, Delimiter: "EOF"}, nil},
		{"cat <<EOF\nline\n", Context{Kind: Heredoc, Delimiter: "EOF"}, nil},
		{"cat <<EOF\n$'", Context{Kind: Heredoc, Delimiter: "EOF", Line: "$'"}, nil},
		{`echo "${x:-$'`, Context{Kind: DoubleQuoted, InParam: true}, nil},
		{"echo ${x:-${y:-", Context{Kind: Word, InParam: true}, nil},
		{"echo \"${x:-${y:-", Context{Kind: DoubleQuoted, InParam: true}, nil},
		{"cat <<EOF\na\\\nb\nEOF\n", Context{Kind: Word}, nil},
	}
	for _, tt := range tests {
		l := NewLexer()
		l.Text(tt.before)
		got, err := l.Context()
		if !errors.Is(err, tt.err) {
			t.Errorf("%q: err = %v, want %v", tt.before, err, tt.err)
			continue
		}
		if tt.err != ErrAfterBackslash && got != tt.want {
			t.Errorf("%q:\n got %+v\nwant %+v", tt.before, got, tt.want)
		}
	}
}

func TestNoContext(t *testing.T) {
	tests := []struct {
		before string
		want   error
	}{
		{`echo \`, ErrAfterBackslash},
		{`echo "\`, ErrAfterBackslash},
		{`echo $`, ErrAfterDollar},
		{`echo "$`, ErrAfterDollar},
		{`echo $((1 + $`, ErrAfterDollar},
		{`cat <<`, ErrInOperator},
		{`cat <<- `, ErrInOperator},
		{`cat <<EO`, ErrInOperator},
	}
	for _, tt := range tests {
		l := NewLexer()
		l.Text(tt.before)
		if _, err := l.Context(); !errors.Is(err, tt.want) {
			t.Errorf("%q: err = %v, want %v", tt.before, err, tt.want)
		}
	}
}

func TestSame(t *testing.T) {
	base := func(s string) *Lexer { l := NewLexer(); l.Text(s); return l }
	if !base(`echo 'a' `).Same(base(`ls `)) {
		t.Error("two scripts at the command level are in the same context")
	}
	for _, pair := range [][2]string{
		{`echo '`, `echo `}, {`echo $(`, `echo $( (`}, {`echo "${x:-`, `echo ${x:-`}, {`echo \`, `echo `},
		{`echo $`, `echo `}, {"cat <<A\n", "cat <<A "}, {`cat <<`, `cat `},
	} {
		if base(pair[0]).Same(base(pair[1])) {
			t.Errorf("%q and %q are not the same context", pair[0], pair[1])
		}
	}
	l := base(`echo "`)
	c := l.Clone()
	c.Text(`"`)
	if l.Same(c) {
		t.Error("a clone must not share state with its origin")
	}
}

func TestKindString(t *testing.T) {
	if Word.String() != "a bare word" || Kind(99).String() != "Kind(99)" {
		t.Errorf("names: %q %q", Word.String(), Kind(99).String())
	}
}
