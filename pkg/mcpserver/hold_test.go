package mcpserver

import (
	"io"
	"testing"
	"time"
)

// quiet is how long a test waits to see that the server wrote nothing: a held message
// answered by mistake is written at once, so a short wait tells.
const quiet = 150 * time.Millisecond

// expectNothing fails if the server writes an answer or a notification within quiet.
func (h *harness) expectNothing(what string) {
	h.t.Helper()
	select {
	case m := <-h.raw:
		h.t.Fatalf("%s: the server wrote %v", what, m)
	case <-time.After(quiet):
	}
}

// TestHoldAnswersTheHandshakeAndHoldsTools: while held, a session answers initialize (and
// server/discover, ping) but not tools/list, in order; the tools added meanwhile are listed
// once released, with no list_changed notification.
func TestHoldAnswersTheHandshakeAndHoldsTools(t *testing.T) {
	srv := newSrv(Options{Name: "held"})
	release := srv.Hold()
	h := startHarness(t, srv, false)
	h.initialize("2025-06-18")
	h.send(`{"jsonrpc":"2.0","id":"raw-ping","method":"ping"}`)
	if m := h.expect(); m["id"] != "raw-ping" || m["error"] != nil {
		t.Fatalf("ping while held: %v", m)
	}
	h.send(`{"jsonrpc":"2.0","id":"raw-list","method":"tools/list"}`)
	// After tools/list, a ping waits too. The pipe has no buffer and the reader is held, so the
	// write completes only once it reads again.
	go func() { _, _ = io.WriteString(h.in, `{"jsonrpc":"2.0","id":"raw-ping2","method":"ping"}`+"\n") }()
	h.expectNothing("tools/list and the ping after it while held")
	if err := srv.AddTool(echo()); err != nil {
		t.Fatal(err)
	}
	release()
	release() // a second call does nothing
	// Both held requests are answered now, in either order (the SDK answers concurrently).
	answers := map[any]map[string]any{}
	for range 2 {
		m := h.expect()
		answers[m["id"]] = m
	}
	if answers["raw-ping2"] == nil {
		t.Fatalf("the ping sent after tools/list is not answered after release: %v", answers)
	}
	tools, _ := answers["raw-list"]["result"].(map[string]any)["tools"].([]any)
	if len(tools) != 1 || tools[0].(map[string]any)["name"] != "echo" {
		t.Fatalf("tools/list after release: %v", answers["raw-list"])
	}
	h.expectNothing("after the tools/list (a tool added while held is not announced)")
}

// TestHoldDropsHeldMessagesWhenStopped: a session stopped while held ends without answering
// what it held, and Serve returns.
func TestHoldDropsHeldMessagesWhenStopped(t *testing.T) {
	srv := newSrv(Options{Name: "held"})
	release := srv.Hold()
	defer release()
	h := startHarness(t, srv, false)
	h.initialize("2025-06-18")
	h.send(`{"jsonrpc":"2.0","id":"raw-list","method":"tools/list"}`)
	h.expectNothing("tools/list while held")
	h.cancel()
	if _, ok := h.wait(5 * time.Second); !ok {
		t.Fatal("Serve did not return after its context was cancelled while held")
	}
	for {
		select {
		case m, ok := <-h.raw:
			if ok && m["id"] == "raw-list" {
				t.Fatalf("a held tools/list was answered after the stop: %v", m)
			}
			if !ok {
				return
			}
		case <-time.After(quiet):
			return
		}
	}
}

// TestAddToolAfterReleaseIsAnnounced: release ends the hold for AddTool too: a tool added to a
// running session afterwards is announced, as without Hold.
func TestAddToolAfterReleaseIsAnnounced(t *testing.T) {
	srv := newSrv(Options{Name: "held"})
	release := srv.Hold()
	h := startHarness(t, srv, false)
	h.initialize("2025-06-18")
	release()
	h.send(`{"jsonrpc":"2.0","id":"raw-list","method":"tools/list"}`)
	if m := h.expect(); m["id"] != "raw-list" {
		t.Fatalf("tools/list: %v", m)
	}
	if err := srv.AddTool(echo()); err != nil {
		t.Fatal(err)
	}
	timeout := time.After(5 * time.Second)
	for {
		select {
		case m := <-h.raw:
			if m["method"] == "notifications/tools/list_changed" {
				return
			}
		case <-timeout:
			t.Fatal("a tool added after release was not announced")
		}
	}
}
