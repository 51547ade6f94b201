package fakemodel

import (
	"fmt"
	"net/http"
	"sort"
)

// sse writes server-sent events and flushes after each, as the CLIs read them incrementally.
type sse struct {
	w http.ResponseWriter
}

func startSSE(w http.ResponseWriter) sse {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	return sse{w: w}
}

// event writes one event; name may be empty (Gemini and Chat Completions send data lines only).
func (s sse) event(name string, v any) {
	data, err := marshalCompact(v)
	if err != nil {
		data = []byte(`{}`)
	}
	s.raw(name, string(data))
}

func (s sse) raw(name, data string) {
	if name != "" {
		fmt.Fprintf(s.w, "event: %s\n", name)
	}
	fmt.Fprintf(s.w, "data: %s\n\n", data)
	if fl, ok := s.w.(http.Flusher); ok {
		fl.Flush()
	}
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
