package shellsafe

import (
	"strings"
)

// codeOptions are the programs that run one of their arguments as code, with the option
// letters that name it (sh -c, python3 -c, node -e, perl -e, …): a value inside that argument
// would be parsed again, by that program.
var codeOptions = map[string]string{
	"sh": "c", "bash": "c", "dash": "c", "ash": "c", "ksh": "c", "mksh": "c", "zsh": "c", "yash": "c",
	"su": "c", "runuser": "c", "pwsh": "c", "python": "c", "pypy": "c", "node": "ep", "nodejs": "ep",
	"perl": "eE", "ruby": "e", "php": "r", "lua": "e", "Rscript": "e", "osascript": "e", "flock": "c", "script": "c",
}

// sshArgOptions are ssh's options that take the next word as their argument.
const sshArgOptions = "BbcDEeFIiJLlmOopQRSWw"

// joinsCommand reports whether the program at words[prog] joins its operands into a command
// line for a shell (ssh after its destination, watch), so that a value at hole would be code.
func joinsCommand(words []string, prog, hole int) bool {
	switch programName(words[prog]) {
	case "watch":
		return true
	case "ssh":
		return hole > sshDestination(words, prog)
	}
	return false
}

// sshDestination is the index of ssh's destination: its first operand, len(words) when not yet
// read.
func sshDestination(words []string, prog int) int {
	for k := prog + 1; k < len(words); k++ {
		w := words[k]
		switch {
		case w == "--":
			return k + 1
		case len(w) == 2 && w[0] == '-' && strings.IndexByte(sshArgOptions, w[1]) >= 0:
			k++
		case strings.HasPrefix(w, "-"):
		default:
			return k
		}
	}
	return len(words)
}

// posixShells are the POSIX-like shells among them, which also take -s to read their script from stdin.
var posixShells = map[string]bool{"sh": true, "bash": true, "dash": true, "ash": true, "ksh": true, "mksh": true, "zsh": true, "yash": true}

// programName is a command word's program: its base name without a version (python3.12 is python).
func programName(w string) string {
	w = unquote(w)
	if i := strings.LastIndexByte(w, '/'); i >= 0 {
		w = w[i+1:]
	}
	if t := strings.TrimRight(w, "0123456789.-"); t != "" {
		w = t
	}
	return w
}

// interpreter reports whether word names a program of codeOptions, and its code options.
func interpreter(word string) (string, bool) {
	flags, ok := codeOptions[programName(word)]
	return flags, ok
}

// IsShell reports whether a program (a path or a #! line's interpreter) is a POSIX-like shell,
// which reads "${NAME}" as a variable's value.
func IsShell(program string) bool { return posixShells[programName(program)] }

// scriptWord reports whether, after the program at words[prog], the word at hole is the code
// that program runs: the first operand after a code option, or the rest of that option's word.
// The word at hole is the text before the value.
func scriptWord(words []string, prog, hole int, flags string) bool {
	for k := prog + 1; k < hole; k++ {
		if codeOption(words[k], flags) {
			for k++; k < hole && strings.HasPrefix(words[k], "-"); k++ {
			}
			return k == hole
		}
	}
	return codeOption(words[hole], flags) // the code written in the option's own word: -c'…'
}

// codeOption reports whether w is an option cluster holding one of the code letters.
func codeOption(w, flags string) bool {
	if w == "--eval" || w == "--command" {
		return true
	}
	if len(w) < 2 || w[0] != '-' || w[1] == '-' {
		return false
	}
	return strings.ContainsAny(w[1:], flags)
}

// readsCode reports whether a simple command runs what it reads on stdin: a shell or an
// interpreter given no script (or "-", or a shell's -s).
func readsCode(words []string) bool {
	ci := commandIndex(words)
	if ci >= len(words) {
		return false
	}
	if programName(words[ci]) == "ssh" {
		return sshDestination(words, ci) == len(words)-1 // no command: the remote shell reads stdin
	}
	flags, ok := interpreter(words[ci])
	if !ok {
		return false
	}
	shell := posixShells[programName(words[ci])]
	for _, w := range words[ci+1:] {
		switch {
		case codeOption(w, flags):
			return false
		case shell && strings.HasPrefix(w, "-") && !strings.HasPrefix(w, "--") && strings.Contains(w, "s"):
			return true
		case w == "-" || w == "--":
			return true
		case !strings.HasPrefix(w, "-"):
			return false
		}
	}
	return true
}

// ShebangProgram is the program a script's #! line runs, looking through env and its options
// (#!/usr/bin/env -S python3 -u runs python3); "" when the script has no #! line.
func ShebangProgram(script string) string {
	if !strings.HasPrefix(script, "#!") {
		return ""
	}
	line, _, _ := strings.Cut(script[2:], "\n")
	fields := strings.Fields(line)
	if len(fields) == 0 {
		return ""
	}
	if programName(fields[0]) != "env" {
		return fields[0]
	}
	for _, f := range fields[1:] {
		if !strings.HasPrefix(f, "-") && !strings.Contains(f, "=") {
			return f
		}
	}
	return fields[0]
}
