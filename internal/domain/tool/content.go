package tool

import (
	"encoding/json"
	"fmt"
	"strings"
)

// ContentSummary is what awf keeps of a non-text block of a tool result in its records: the
// kind and the size, never the payload (an image or a file's bytes have no place in a log).
type ContentSummary struct {
	// Type is the MCP block type (image, audio, resource_link, resource), or "structured"
	// for a result's structuredContent.
	Type     string `json:"type"`
	MIMEType string `json:"mime_type,omitempty"`
	// URI names the resource of a resource_link or an embedded resource.
	URI string `json:"uri,omitempty"`
	// Bytes is the size of the payload: decoded data or blob, a resource's text, the
	// structuredContent's JSON, or a resource_link's declared size (0 when it says none).
	Bytes int `json:"bytes"`
}

// wireBlock is the part of an MCP content block a summary reads.
type wireBlock struct {
	Type     string `json:"type"`
	MIMEType string `json:"mimeType"`
	Data     string `json:"data"`
	URI      string `json:"uri"`
	Text     string `json:"text"`
	Size     int    `json:"size"`
	Resource *struct {
		URI      string `json:"uri"`
		MIMEType string `json:"mimeType"`
		Text     string `json:"text"`
		Blob     string `json:"blob"`
	} `json:"resource"`
}

// Summary returns the kind and size of c, read from its Raw form when it has one.
func (c Content) Summary() ContentSummary {
	if len(c.Raw) == 0 {
		return ContentSummary{Type: c.Type, Bytes: len(c.Text)}
	}
	var w wireBlock
	if err := json.Unmarshal(c.Raw, &w); err != nil {
		return ContentSummary{Type: c.Type, Bytes: len(c.Raw)}
	}
	s := ContentSummary{Type: w.Type, MIMEType: w.MIMEType, URI: w.URI}
	switch {
	case w.Resource != nil:
		s.URI, s.MIMEType = w.Resource.URI, w.Resource.MIMEType
		s.Bytes = len(w.Resource.Text) + base64Len(w.Resource.Blob)
	case w.Data != "":
		s.Bytes = base64Len(w.Data)
	case w.Type == "resource_link":
		s.Bytes = w.Size
	default:
		s.Bytes = len(w.Text)
	}
	return s
}

// base64Len is the decoded length of standard base64 text, padding and all.
func base64Len(s string) int {
	n := len(s) / 4 * 3
	if rem := len(s) % 4; rem > 1 {
		n += rem - 1 // unpadded tail
	}
	return n - strings.Count(s[max(0, len(s)-2):], "=")
}

// SummaryText is the one-line description of a block that stands in for its payload wherever
// text is all that fits (logs, error texts, `awf call`): "[image image/png, 68 bytes]".
func SummaryText(s ContentSummary) string {
	var b strings.Builder
	b.WriteString("[" + s.Type)
	if s.URI != "" {
		b.WriteString(" " + s.URI)
	}
	if s.MIMEType != "" {
		b.WriteString(" " + s.MIMEType)
	}
	fmt.Fprintf(&b, ", %d bytes]", s.Bytes)
	return b.String()
}

// Summaries describes the non-text blocks of r and its structuredContent, for the activity
// record; nil when r is text only, which is every result of awf's own tools.
func (r Result) Summaries() []ContentSummary {
	var out []ContentSummary
	for _, c := range r.Content {
		if len(c.Raw) > 0 && c.Type != "text" {
			out = append(out, c.Summary())
		}
	}
	if len(r.Structured) > 0 {
		out = append(out, ContentSummary{Type: "structured", Bytes: len(r.Structured)})
	}
	return out
}

// ModelText is r as one text for a model API that takes only text in a tool message (the
// openai_compatible path): text blocks as they are, every other block as its MCP JSON (so an
// image arrives as its mimeType and base64 data, a resource with its uri and text), and the
// structuredContent's JSON when no block carries text (a server should mirror it in a text
// block; when it does not, the model still sees it).
func (r Result) ModelText() string {
	var b strings.Builder
	hasText := false
	for i, c := range r.Content {
		if i > 0 {
			b.WriteString("\n")
		}
		if len(c.Raw) > 0 && c.Type != "text" {
			b.Write(c.Raw)
			continue
		}
		hasText = true
		b.WriteString(c.Text)
	}
	if len(r.Structured) > 0 && !hasText {
		if len(r.Content) > 0 {
			b.WriteString("\n")
		}
		b.Write(r.Structured)
	}
	return b.String()
}
