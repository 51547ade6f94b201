// Command demo-model is a scripted stand-in for a language model: a small OpenAI-compatible
// chat-completions server that lets `make demo` run an agent step offline. It is not a model and
// does not pretend to be one: it decides its next message from the conversation with a fixed
// script, and its final answer opens by saying so.
//
// The script (see next in script.go): read README.md and grep for "awf" in parallel; ask for a
// destructive Bash call (so a step with `allow: [read, write]` shows the router refusing it);
// write and read back a note through the notes plugin when its tools are offered; then answer
// with what each call returned. It works with tools by name and with the intent split
// (call_tool_read / call_tool_write / call_tool_destructive, retrieve_tools).
//
// It serves POST /v1/chat/completions (server-sent events when stream is true, one JSON answer
// otherwise, usage when stream_options.include_usage is set — token counts are estimates, four
// bytes a token) and GET /v1/models. The first line on stdout is the URL to use as base_url:
//
//	$ go run ./examples/demo-model --addr 127.0.0.1:0
//	listening on http://127.0.0.1:41234/v1
//
// Point the same workflow at a real OpenAI-compatible server (Ollama, vLLM, llama.cpp, OpenAI)
// to run it against a real model.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"
)

func main() {
	if err := run(context.Background(), os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "demo-model:", err)
		os.Exit(1)
	}
}

// run serves until ctx ends or SIGINT/SIGTERM arrives, then shuts down gracefully.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("demo-model", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:0", "address to listen on; port 0 picks a free port")
	quiet := fs.Bool("quiet", false, "do not log each request to stderr")
	if err := fs.Parse(args); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fmt.Errorf("cannot listen on %s: %w", *addr, err)
	}
	logOut := stderr
	if *quiet {
		logOut = io.Discard
	}
	srv := &http.Server{
		Handler:           newHandler(log.New(logOut, "demo-model: ", log.LstdFlags)),
		ReadHeaderTimeout: 10 * time.Second,
	}
	if _, err := fmt.Fprintf(stdout, "listening on http://%s/v1\n", ln.Addr()); err != nil {
		_ = ln.Close()
		return err
	}

	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
