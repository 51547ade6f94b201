package shellsafe

import (
	"errors"
	"testing"
)

// TestRefusedWhereCode: each place where sh or bash (or a program the command starts) would
// read a variable's text as code is refused by Check (awf validate) and by Prepare (awf run).
func TestRefusedWhereCode(t *testing.T) {
	tests := []struct {
		tmpl string
		want error
	}{
		{`echo $(( {{.v}} + 1 ))`, ErrArithmetic},
		{`echo "$(( {{.v}} ))"`, ErrArithmetic},
		{`(( {{.v}} > 3 )) && echo big`, ErrArithmetic},
		{`if (( {{.v}} )); then :; fi`, ErrArithmetic},
		{`for (( i={{.v}}; i<3; i++ )); do :; done`, ErrArithmetic},
		{`echo $[ {{.v}} + 1 ]`, ErrArithmetic},
		{`let x={{.v}}`, ErrArithmetic},
		{`let "x = {{.v}}"`, ErrArithmetic},
		{`a[{{.v}}]=1`, ErrArithmetic},
		{`echo ${a[{{.v}}]}`, ErrParamKey},
		{`echo "${x:{{.v}}:2}"`, ErrArithmetic},
		{`declare -i n={{.v}}`, ErrArithmetic},
		{`local {{.v}}=1`, ErrArithmetic},
		{`unset {{.v}}`, ErrArithmetic},
		{`printf -v {{.v}} x`, ErrArithmetic},
		{`[ -v {{.v}} ]`, ErrArithmetic},
		{`[[ {{.v}} -eq 3 ]] && echo three`, ErrTestArithmetic},
		{`[[ "{{.v}}" -gt 3 || -n x ]]`, ErrTestArithmetic},
		{`[[ -v {{.v}} ]]`, ErrTestArithmetic},
		{"cat <<'EOF'\n{{.v}}\nEOF", ErrQuotedHeredoc},
		{"cat <<\\EOF\n{{.v}}\nEOF", ErrQuotedHeredoc},
		{`eval "echo {{.v}}"`, ErrReparsed},
		{`eval echo {{.v}}`, ErrReparsed},
		{`command eval 'echo {{.v}}'`, ErrReparsed},
		{`eval "$(printf '%s' {{.v}})"`, ErrReparsed},
		{`trap 'echo {{.v}}' EXIT`, ErrReparsed},
		{`sh -c 'echo {{.v}}'`, ErrReparsed},
		{`bash -ec "echo {{.v}}"`, ErrReparsed},
		{`/bin/dash -c 'echo "{{.v}}"'`, ErrReparsed},
		{`sudo -n sh -c 'echo {{.v}}'`, ErrReparsed},
		{`env X=1 bash -x -c 'echo {{.v}}'`, ErrReparsed},
		{`find . -exec sh -c 'echo {{.v}}' \;`, ErrReparsed},
		{`python3 -c 'print("{{.v}}")'`, ErrReparsed},
		{`python3.12 -c "print('{{.v}}')"`, ErrReparsed},
		{`node -e 'console.log("{{.v}}")'`, ErrReparsed},
		{`perl -ne 'print "{{.v}}"'`, ErrReparsed},
		{`echo $'{{.v}}'`, ErrAnsiC},
		{`echo $'a\'{{.v}}'`, ErrAnsiC},
		{`echo {{.v}} | sh`, ErrPipedToShell},
		{`printf '%s' "{{.v}}" | bash -s`, ErrPipedToShell},
		{`echo {{.v}} | tr a b | python3`, ErrPipedToShell},
		{"sh <<EOF\necho {{.v}}\nEOF", ErrPipedToShell},
		{"python3 - <<EOF\nprint('{{.v}}')\nEOF", ErrPipedToShell},
		{"bash <<EOF\necho $(echo {{.v}})\nEOF", ErrPipedToShell},
		{`ssh host "deploy {{.v}}"`, ErrReparsed},
		{`ssh -p 22 -o BatchMode=yes host deploy {{.v}}`, ErrReparsed},
		{`ssh -- host ls {{.v}}`, ErrReparsed},
		{"ssh -i key host <<EOF\n{{.v}}\nEOF", ErrPipedToShell},
		{`echo {{.v}} | ssh host`, ErrPipedToShell},
		{`watch -n 5 "ls {{.v}}"`, ErrReparsed},
		{`flock /tmp/l -c "make {{.v}}"`, ErrReparsed},
		{`bash <<< "echo {{.v}}"`, ErrPipedToShell},
		{`python3 - <<<{{.v}}`, ErrPipedToShell},
	}
	for _, tt := range tests {
		_, places, err := Check(tt.tmpl)
		if err != nil || len(places) != 1 || !errors.Is(places[0], tt.want) {
			t.Errorf("Check(%q) = %v, %v; want one %v", tt.tmpl, places, err, tt.want)
		}
		if _, _, err := render(tt.tmpl, "x"); !errors.Is(err, tt.want) {
			t.Errorf("render(%q): err = %v, want %v", tt.tmpl, err, tt.want)
		}
	}
}

// TestNotRefused: values beside those constructs, as data, are fine; the fixes the refusals
// suggest pass.
func TestNotRefused(t *testing.T) {
	for _, tmpl := range []string{
		`n={{.v}}; case $n in ''|*[!0-9]*) exit 2;; esac; echo $((n + 1))`,
		`sh -c 'echo "$1"' sh {{.v}}`,
		`bash -c 'echo "$1"' bash "{{.v}}"`,
		`python3 -c 'import sys; print(sys.argv[1])' {{.v}}`,
		`V={{.v}} python3 - <<'EOF'` + "\nimport os\nEOF",
		`[ {{.v}} -eq 3 ] && echo three`,
		`[[ {{.v}} == x* ]] && echo x`,
		`[[ -n {{.v}} ]] && echo "{{.v}}"`,
		`echo {{.v}} | grep -c x`,
		`echo {{.v}} | sh script.sh`,
		`echo {{.v}}; echo x | sh`,
		"cat <<EOF | sh script.sh\n{{.v}}\nEOF",
		`export X={{.v}} && local Y="{{.v}}"`,
		`echo ${x:-{{.v}}} ${x#{{.v}}} ${x/a/{{.v}}} ${a[0]:-{{.v}}}`,
		`echo {{.v}} # eval {{.v}}`,
		`ls -la {{.v}} 2>&1 | tee out`,
		`evaluate {{.v}}; shell -c {{.v}}`,
		"echo `echo {{.v}}` $(echo {{.v}}) \"$(echo {{.v}})\"",
		"sh -c 'echo hi' && echo {{.v}}",
		"if [ -n {{.v}} ]; then (echo {{.v}}); fi",
		"cat <<EOF\n((x))\neval {{.v}}\nEOF",
		`ssh {{.v}} uptime`, `ssh -i key -p 22 {{.v}} uptime`, `echo x | ssh host cat > {{.v}}`,
		`sh -c 'cat' < {{.v}} 2>&1 >{{.v}}`, `grep x <<< {{.v}}`, "cat <<EOF >{{.v}}\n{{.v}}\nEOF", `eval "$x" > {{.v}}`,
	} {
		if _, places, err := Check(tmpl); err != nil || len(places) != 0 {
			t.Errorf("Check(%q) = %v, %v; want no refusal", tmpl, places, err)
		}
	}
}

func TestParamRole(t *testing.T) {
	for p, want := range map[string]error{
		"": ErrParamKey, "#": ErrParamKey, "!": ErrParamKey, "x": nil, "x:-": nil, "x:=": nil, "x:?": nil, "x:+": nil,
		"x-": nil, "x#": nil, "x%%": nil, "x/a/": nil, "x:": ErrArithmetic, "x: -": ErrArithmetic, "x:1:": ErrArithmetic,
		"a[": ErrParamKey, "a[0]:-": nil, "a[0]:": ErrArithmetic, "@:": ErrArithmetic, "1:-": nil, "10:-": nil,
	} {
		if got := paramRole(p); !errors.Is(got, want) {
			t.Errorf("paramRole(%q) = %v, want %v", p, got, want)
		}
	}
}

// TestRefusedAfterAComment: a line after a comment (a script's #! line) starts a command.
func TestRefusedAfterAComment(t *testing.T) {
	for _, tmpl := range []string{"#!/bin/bash\n(( {{.v}} > 1 ))", "echo a # c\n(( {{.v}} ))", "# c\neval {{.v}}"} {
		if _, places, _ := Check(tmpl); len(places) != 1 {
			t.Errorf("Check(%q) = %v, want one refusal", tmpl, places)
		}
	}
}

// TestRiskierBranchDecides: when {{if}} branches leave different commands, a later value is
// judged under the one that would parse it again.
func TestRiskierBranchDecides(t *testing.T) {
	for _, tmpl := range []string{
		"{{if .a}}echo{{else}}eval{{end}} {{.v}}",
		"{{if .a}}eval{{else}}echo{{end}} {{.v}}",
		"{{if .a}}echo{{else}}sh{{end}} -c '{{.v}}'",
		"{{if .a}}printf x{{else}}bash -c{{end}} '{{.v}}'",
	} {
		if _, places, _ := Check(tmpl); len(places) != 1 || !errors.Is(places[0], ErrReparsed) {
			t.Errorf("Check(%q) = %v, want ErrReparsed", tmpl, places)
		}
	}
	if _, places, _ := Check("cmd {{if .a}}-v{{end}} {{.v}}"); len(places) != 0 {
		t.Errorf("an optional flag is fine: %v", places)
	}
}
