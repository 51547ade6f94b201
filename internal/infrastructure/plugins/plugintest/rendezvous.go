package plugintest

import (
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
)

// EchoWaiting is the debug line the echo example plugin logs when a call with delay_ms starts
// waiting (examples/plugins/echo waitingMessage): the sign that the call is inside the plugin's
// handler, so a test can kill the plugin mid-call without guessing with a sleep.
const EchoWaiting = "echo is waiting"

// OnLog returns a zap option that signals on the returned channel each time the logger writes
// an entry whose message is msg. Give the option to the zap.Logger of the plugin host: plugins'
// own log lines reach it. The logger's core must be enabled at debug level (zap runs hooks only
// for entries it writes). Signals beyond the channel's buffer are dropped.
func OnLog(msg string) (zap.Option, <-chan struct{}) {
	ch := make(chan struct{}, 64)
	return zap.Hooks(func(e zapcore.Entry) error {
		if e.Message == msg {
			select {
			case ch <- struct{}{}:
			default:
			}
		}
		return nil
	}), ch
}

// Await waits for one signal on ch, failing the test after within.
func Await(tb testing.TB, ch <-chan struct{}, within time.Duration, what string) {
	tb.Helper()
	select {
	case <-ch:
	case <-time.After(within):
		tb.Fatalf("timed out after %s waiting for %s", within, what)
	}
}
