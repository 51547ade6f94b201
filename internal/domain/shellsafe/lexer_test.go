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
		// afterBackslash: no context, the place follows a backslash.
		afterBackslash bool
	}{
		{``, Context{Kind: Word}, false},
		{`echo `, Context{Kind: Word}, false},
		{`echo '`, Context{Kind: SingleQuoted}, false},
		{`echo 'a' `, Context{Kind: Word}, false},
		{`echo "`, Context{Kind: DoubleQuoted}, false},
		{`echo "a\"`, Context{Kind: DoubleQuoted}, false},
		{`echo "it's `, Context{Kind: DoubleQuoted}, false},
		{`echo 'say "`, Context{Kind: SingleQuoted}, false},
		{`echo \' `, Context{Kind: Word}, false},
		{`echo $(`, Context{Kind: Word}, false},
		{`echo "$(`, Context{Kind: Word}, false},
		{`echo "$(echo '`, Context{Kind: SingleQuoted}, false},
		{`echo $( (cd x; ls) ; echo "`, Context{Kind: DoubleQuoted}, false},
		{`echo $( (cd x) ) "`, Context{Kind: DoubleQuoted}, false},
		{`echo $(echo a) '`, Context{Kind: SingleQuoted}, false},
		{"echo `", Context{Kind: Word, Backticks: 1}, false},
		{"echo \"`echo '", Context{Kind: SingleQuoted, Backticks: 1}, false},
		{"echo `a` '", Context{Kind: SingleQuoted}, false},
		{`echo ${x:-`, Context{Kind: Word, InParam: true}, false},
		{`echo "${x:-`, Context{Kind: DoubleQuoted, InParam: true}, false},
		{`echo "${x:-'`, Context{Kind: DoubleQuoted, InParam: true}, false},
		{`echo ${x:-'`, Context{Kind: SingleQuoted}, false},
		{`echo ${x:-a} '`, Context{Kind: SingleQuoted}, false},
		{`echo ${#x} #`, Context{Kind: Comment}, false},
		{`echo ${x#y} '`, Context{Kind: SingleQuoted}, false},
		{`echo $((`, Context{Kind: Arithmetic}, false},
		{`echo $(( (1+2) * `, Context{Kind: Arithmetic}, false},
		{`echo $(( (1+2) )) '`, Context{Kind: SingleQuoted}, false},
		{`echo $((1)) `, Context{Kind: Word}, false},
		{`echo $'`, Context{Kind: SingleQuoted}, false},
		{`echo "$'`, Context{Kind: DoubleQuoted}, false},
		{`echo a#b `, Context{Kind: Word}, false},
		{`echo a # `, Context{Kind: Comment}, false},
		{"echo a # x\n", Context{Kind: Word}, false},
		{`echo a;#`, Context{Kind: Comment}, false},
		{`echo a|#`, Context{Kind: Comment}, false},
		{`echo a&#`, Context{Kind: Comment}, false},
		{`echo $(#`, Context{Kind: Comment}, false},
		{"cat <<EOF\n", Context{Kind: Heredoc, Delimiter: "EOF"}, false},
		{"cat <<EOF\nline ", Context{Kind: Heredoc, Delimiter: "EOF", Line: "line "}, false},
		{"cat <<EOF\nEOF\n", Context{Kind: Word}, false},
		{"cat <<EOF\n EOF\n", Context{Kind: Heredoc, Delimiter: "EOF"}, false},
		{"cat <<-EOF\n\tEOF\n", Context{Kind: Word}, false},
		{"cat <<-  EOF\n", Context{Kind: Heredoc, Delimiter: "EOF", StripTabs: true}, false},
		{"cat << 'EOF'\n", Context{Kind: HeredocLiteral, Delimiter: "EOF"}, false},
		{"cat <<\"EOF\"\n", Context{Kind: HeredocLiteral, Delimiter: "EOF"}, false},
		{"cat <<\\EOF\n", Context{Kind: HeredocLiteral, Delimiter: "EOF"}, false},
		{"cat <<EOF>out\n", Context{Kind: Heredoc, Delimiter: "EOF"}, false},
		{"cat <<EOF # note\n", Context{Kind: Heredoc, Delimiter: "EOF"}, false},
		{"cat <<EOF\n$(", Context{Kind: Word}, false},
		{"cat <<EOF\n${x:-", Context{Kind: DoubleQuoted, InParam: true}, false},
		{"cat <<EOF\n`", Context{Kind: Word, Backticks: 1}, false},
		{"cat <<EOF\n'", Context{Kind: Heredoc, Delimiter: "EOF", Line: "'"}, false},
		{"cat <<'EOF'\n$(", Context{Kind: HeredocLiteral, Delimiter: "EOF", Line: "$("}, false},
		{"cat <<A <<B\nA\n", Context{Kind: Heredoc, Delimiter: "B"}, false},
		{"cat <<<'x' '", Context{Kind: SingleQuoted}, false},
		{"cat <<<x ", Context{Kind: Word}, false},
		{"echo \"a\nb", Context{Kind: DoubleQuoted}, false},
		{"echo a \\\n", Context{Kind: Word}, false},
		{"cat <<EOF\n\\", Context{}, true},
		{`echo "$( (a) ) `, Context{Kind: DoubleQuoted}, false},
		{`echo "$( (a) `, Context{Kind: Word}, false},
		{`echo "$( ((a)) `, Context{Kind: Word}, false},
		{`echo "$( ((a)) ) `, Context{Kind: DoubleQuoted}, false},
		{`echo "$(a) `, Context{Kind: DoubleQuoted}, false},
		{`echo "$(( (1) )) `, Context{Kind: DoubleQuoted}, false},
		{`echo "$(( (1) `, Context{Kind: Arithmetic}, false},
		{`echo "$(( ((1)) `, Context{Kind: Arithmetic}, false},
		{`echo "$(( 1 ) `, Context{Kind: DoubleQuoted}, false},
		{`echo ${#`, Context{Kind: Word, InParam: true}, false},
		{`echo ${x #`, Context{Kind: Word, InParam: true}, false},
		{`echo a<`, Context{Kind: Word}, false},
		{`echo a< '`, Context{Kind: SingleQuoted}, false},
		{"cat <<EOF;echo '", Context{Kind: SingleQuoted}, false},
		{"cat <<EOF|tr a b\n", Context{Kind: Heredoc, Delimiter: "EOF"}, false},
		{"cat <<E'O'F\n", Context{Kind: HeredocLiteral, Delimiter: "EOF"}, false},
		{"cat <<\tEOF\n", Context{Kind: Heredoc, Delimiter: "EOF"}, false},
		{"cat <<EOF\nline\n", Context{Kind: Heredoc, Delimiter: "EOF"}, false},
		{"cat <<EOF\n$'", Context{Kind: Heredoc, Delimiter: "EOF", Line: "$'"}, false},
		{`echo "${x:-$'`, Context{Kind: DoubleQuoted, InParam: true}, false},
		{"echo ${x:-${y:-", Context{Kind: Word, InParam: true}, false},
		{"echo \"${x:-${y:-", Context{Kind: DoubleQuoted, InParam: true}, false},
		{"cat <<EOF\na\\\nb\nEOF\n", Context{Kind: Word}, false},
	}
	for _, tt := range tests {
		l := NewLexer()
		l.Text(tt.before)
		got, err := l.Context()
		if tt.afterBackslash {
			if !errors.Is(err, ErrAfterBackslash) {
				t.Errorf("%q: err = %v, want ErrAfterBackslash", tt.before, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tt.before, err)
			continue
		}
		if got != tt.want {
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
