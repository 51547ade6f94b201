package search

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
	"sync/atomic"
)

// render builds the final text: files newest first, or content and counts sorted by path;
// head_limit and the size cap applied with a note.
func (g *grepPlan) render(results []fileResult, errs []string) string {
	var b strings.Builder
	switch g.mode {
	case modeFiles:
		sort.Slice(results, func(i, j int) bool {
			if results[i].mtime != results[j].mtime {
				return results[i].mtime > results[j].mtime
			}
			return results[i].path < results[j].path
		})
		if len(results) == 0 {
			b.WriteString("No files found\n")
			break
		}
		fmt.Fprintf(&b, "Found %d file%s\n", len(results), plural(len(results)))
		for i, r := range results {
			if g.headLimit > 0 && i == g.headLimit {
				fmt.Fprintf(&b, "[head_limit %d: %d more files not shown]\n", g.headLimit, len(results)-i)
				break
			}
			b.WriteString(r.path)
			b.WriteByte('\n')
		}
	case modeCount:
		sortByPath(results)
		if len(results) == 0 {
			b.WriteString("No matches found\n")
			break
		}
		total := 0
		for i, r := range results {
			total += r.count
			if g.headLimit > 0 && i >= g.headLimit {
				continue
			}
			fmt.Fprintf(&b, "%s:%d\n", r.path, r.count)
		}
		if g.headLimit > 0 && len(results) > g.headLimit {
			fmt.Fprintf(&b, "[head_limit %d: %d more files not shown]\n", g.headLimit, len(results)-g.headLimit)
		}
		fmt.Fprintf(&b, "[%d matching line%s in %d file%s]\n", total, plural(total), len(results), plural(len(results)))
	case modeContent:
		g.renderContent(&b, results)
	}
	out := b.String()
	if len(errs) > 0 {
		out += fmt.Sprintf("[%d file%s could not be searched, e.g. %s]\n", len(errs), plural(len(errs)), errs[0])
	}
	return CapText(strings.ToValidUTF8(out, "\uFFFD"), g.maxOut)
}

func (g *grepPlan) renderContent(b *strings.Builder, results []fileResult) {
	sortByPath(results)
	if len(results) == 0 {
		b.WriteString("No matches found\n")
		return
	}
	lines, printed, limited := 0, false, false
	var r fileReader
	m := g.m.clone()
	for _, res := range results {
		if b.Len() >= g.maxOut {
			break
		}
		if g.headLimit > 0 && lines >= g.headLimit {
			limited = true
			break
		}
		if !res.stored {
			var none atomic.Int64
			again, err := g.searchFile(&r, m, walkFile{abs: res.path}, &none)
			if err != nil || again.count == 0 {
				continue // changed since the first pass
			}
			res = again
		}
		out := res.out
		if printed && (g.before > 0 || g.after > 0) {
			b.WriteString("--\n")
			lines++
		}
		printed = true
		for len(out) > 0 {
			if g.headLimit > 0 && lines >= g.headLimit {
				limited = true
				break
			}
			line, rest, _ := bytes.Cut(out, []byte{'\n'})
			b.Write(line)
			b.WriteByte('\n')
			out = rest
			lines++
		}
		if res.more && g.headLimit > 0 && lines >= g.headLimit {
			limited = true
		}
	}
	if limited {
		fmt.Fprintf(b, "[head_limit %d reached]\n", g.headLimit)
	}
}

func sortByPath(rs []fileResult) {
	sort.Slice(rs, func(i, j int) bool { return rs[i].path < rs[j].path })
}
