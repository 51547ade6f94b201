package report

import (
	"bytes"
	_ "embed"
	"fmt"
	"html/template"
	"strings"
	"time"

	appdiagram "github.com/awf-dev/awf/internal/application/diagram"
	apprep "github.com/awf-dev/awf/internal/application/report"
	"github.com/awf-dev/awf/internal/infrastructure/diagram"
)

//go:embed report.html.tmpl
var pageSource string

//go:embed report.css
var pageCSS string

//go:embed report.js
var pageJS string

var page = template.Must(template.New("report").Funcs(template.FuncMap{
	"dur":     fmtDuration,
	"pct":     func(f float64) string { return fmt.Sprintf("%.3f%%", f) },
	"stamp":   func(t time.Time) string { return stamp(t) },
	"cost":    func(f float64) string { return fmt.Sprintf("$%.4f", f) },
	"call":    func(v apprep.View, i int) apprep.Call { return v.Calls[i] },
	"variant": variantClass,
}).Parse(pageSource))

// Page is what the template draws: the view, and the workflow's drawing.
type Page struct {
	View apprep.View
	// SVG is the workflow drawn by Graphviz, "" when dot is not installed; Mermaid is its text
	// form, always there when the run's workflow is known.
	SVG     template.HTML
	Mermaid string
	CSS     template.CSS
	JS      template.JS
	// Generated is when the report was made.
	Generated time.Time
}

// Render draws the report of v. svg is Graphviz's drawing of v.Graph (trusted: dot escapes the
// labels it draws), or "" to show the path as a list and the Mermaid text instead.
func Render(v apprep.View, svg []byte, now time.Time) ([]byte, error) {
	p := Page{View: v, SVG: template.HTML(stripXMLProlog(svg)), CSS: template.CSS(pageCSS), JS: template.JS(pageJS), Generated: now}
	if v.Graph != nil {
		p.Mermaid = diagram.Mermaid(v.Graph)
	}
	var b bytes.Buffer
	b.Grow(16<<10 + len(v.Calls)*600)
	if err := page.Execute(&b, p); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// DOT is the graph of v for Graphviz, "" without one.
func DOT(g *appdiagram.Graph) string {
	if g == nil {
		return ""
	}
	return diagram.DOT(g)
}

// stripXMLProlog drops what precedes <svg (the XML declaration and doctype), which HTML does
// not take inline.
func stripXMLProlog(svg []byte) string {
	s := string(svg)
	if i := strings.Index(s, "<svg"); i >= 0 {
		return s[i:]
	}
	return ""
}

func fmtDuration(d time.Duration) string {
	switch {
	case d <= 0:
		return "0"
	case d < time.Millisecond:
		return fmt.Sprintf("%dµs", d.Microseconds())
	case d < time.Second:
		return fmt.Sprintf("%.1fms", float64(d)/float64(time.Millisecond))
	case d < time.Minute:
		return fmt.Sprintf("%.2fs", d.Seconds())
	}
	return d.Round(time.Second).String()
}

func stamp(t time.Time) string {
	if t.IsZero() {
		return "—"
	}
	return t.UTC().Format("2006-01-02 15:04:05.000 UTC")
}

// variantClass is the CSS class of a variant; an unknown one gets none.
func variantClass(v string) string {
	switch v {
	case "read", "write", "destructive":
		return "v-" + v
	}
	return "v-other"
}
