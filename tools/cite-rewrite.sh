#!/usr/bin/env bash
# cite-rewrite.sh: rewrite the citations of documents that are not in the repository into the
# docs/ paths that replace them, in Go comments (the part of a line after `//`) and in the `#`
# comments of the Makefile and .go-arch-lint.yml:
#
#   DESIGN §2            → docs/design.md#tool-call-paths
#   DESIGN §4, §5        → docs/design.md#the-mcp-proxy, docs/design.md#the-intent-rule
#   issue 12 / Issue 12  → docs/decisions/0012-kernel-sandbox.md
#
# Usage: tools/cite-rewrite.sh [-n] [ROOT]   (ROOT defaults to the repository holding this script)
#   -n  dry run: print the lines that would change (old, then new), write nothing
# It exits 1 when a citation has no mapping (a new issue number or section): add its decision
# record under docs/decisions/ and a line to the tables below, then run it again. Afterwards
# `go test ./tests/docs -run Citations` must pass.
set -euo pipefail

dry=0
if [ "${1:-}" = "-n" ]; then dry=1; shift; fi
root="${1:-$(cd "$(dirname "$0")/.." && pwd)}"
cd "$root"

# Sections of the original design → anchors of docs/design.md.
design_map='1=layers 2=tool-call-paths 3=workflow-schema 4=the-mcp-proxy 5=the-intent-rule 6=plugins 7=observability-and-records 8=processes-and-files 9=exit-codes 10=pitfalls 11=growing-the-engine'

# Issues → decision records (docs/decisions/NNNN-title.md): every file there is mapped by its
# number, so a new record needs no edit here.
issue_map=""
for f in docs/decisions/[0-9][0-9][0-9][0-9]-*.md; do
  [ -e "$f" ] || continue
  n="$(basename "$f" | cut -c1-4 | sed 's/^0*//')"
  issue_map="$issue_map $n=$f"
done

files="$(find . \( -name .git -o -name bin -o -name node_modules \) -prune -o -name '*.go' -print | sort)"
extra=""
for f in Makefile .go-arch-lint.yml; do [ -f "$f" ] && extra="$extra ./$f"; done

DESIGN_MAP="$design_map" ISSUE_MAP="$issue_map" DRY="$dry" perl -e '
  use strict; use warnings;
  my %design = map { split /=/ } split " ", $ENV{DESIGN_MAP};
  my %issue  = map { split /=/ } split " ", $ENV{ISSUE_MAP};
  my $dry = $ENV{DRY}; my $missing = 0; my $changed = 0;
  sub design { my ($n, $where) = @_;
    return "docs/design.md#$design{$n}" if exists $design{$n};
    print STDERR "$where: DESIGN §$n has no section in docs/design.md\n"; $missing++; return "DESIGN §$n" }
  sub issue { my ($word, $n, $where) = @_;
    return $issue{$n} if exists $issue{$n};
    print STDERR "$where: issue $n has no decision record in docs/decisions\n"; $missing++; return "$word $n" }
  sub rewrite { my ($text, $where) = @_;
    # A possessive reads better before a path as "the <path>": "issue 15\x27s cold start"
    # becomes "the docs/decisions/0015-….md cold start".
    $text =~ s{DESIGN\s*§\s*(\d+)\x27s\b}{ "the " . design($1, $where) }ge;
    $text =~ s{\b[Ii]ssue\s+#?(\d+)\x27s\b}{ "the " . issue("issue", $1, $where) }ge;
    # "DESIGN §4, §5" and "DESIGN §9" (a trailing period stays).
    $text =~ s{DESIGN\s*§\s*(\d+)((?:\s*,\s*§\s*\d+)*)}{
      my ($first, $more) = ($1, $2); my @n = ($first, ($more =~ /(\d+)/g));
      join(", ", map { design($_, $where) } @n) }ge;
    $text =~ s{\b([Ii]ssue)\s+#?(\d+)\b}{ issue($1, $2, $where) }ge;
    return $text }
  for my $file (@ARGV) {
    open(my $in, "<", $file) or die "$file: $!"; my @lines = <$in>; close $in;
    my $go = $file =~ /\.go$/; my $dirty = 0;
    for my $i (0 .. $#lines) {
      my $line = $lines[$i];
      # Only the comment part: after // in Go (not inside a string: the // must not follow an
      # odd number of double quotes), after # in the Makefile and YAML.
      my ($code, $comment);
      if ($go) { ($code, $comment) = $line =~ m{^((?:[^"/]|"(?:[^"\\]|\\.)*"|/(?!/))*)(//.*)$}s or next }
      else     { ($code, $comment) = $line =~ m{^([^#]*)(#.*)$}s or next }
      next unless $comment =~ /DESIGN\s*§|\b[Ii]ssue\s+#?\d/;
      my $new = $code . rewrite($comment, "$file:" . ($i + 1));
      next if $new eq $line;
      if ($dry) { print "$file:", $i + 1, ":\n  - $line  + $new" } else { $lines[$i] = $new; $dirty = 1 }
      $changed++;
    }
    if ($dirty) { open(my $out, ">", $file) or die "$file: $!"; print $out @lines; close $out }
  }
  print STDERR "cite-rewrite: ", ($dry ? "would change" : "changed"), " $changed line(s)\n";
  exit($missing ? 1 : 0);
' $files $extra
