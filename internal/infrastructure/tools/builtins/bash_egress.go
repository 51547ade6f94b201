package builtins

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/awf-dev/awf/internal/domain/egress"
	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/infrastructure/egressproxy"
	"github.com/awf-dev/awf/internal/infrastructure/sandbox"
)

// bashEgress is a step's egress proxy (docs/decisions/0028-egress-proxy.md): one per step, so
// the connection limit is the step's; each call gets a socket of its own in a private
// directory, so every connection is attributed to the call (and its span) that made it.
type bashEgress struct {
	proxy *egressproxy.Proxy
	dir   string
	n     atomic.Int64
}

// newBashEgress parses the step's lists (an invalid entry is USER.SANDBOX.INVALID, which
// validate reports first) and makes the proxy's private directory.
func newBashEgress(e *sandbox.Egress, o egressproxy.Options) (*bashEgress, error) {
	rules, errs := egress.Parse(e.Allow, e.Deny)
	if len(errs) > 0 {
		return nil, fault.New(fault.UserSandboxInvalid, "mcp_proxy.sandbox.network: %v", errors.Join(errs...)).
			WithHint("fix the entry: a host name, *.domain or an IP address, with an optional :port")
	}
	dir, err := os.MkdirTemp("", "awf-egress-")
	if err != nil {
		return nil, fmt.Errorf("cannot create the egress proxy's directory: %v", err)
	}
	o.Rules = rules
	return &bashEgress{proxy: egressproxy.New(o), dir: dir}, nil
}

// listen serves the proxy for one call on a new socket until the returned stop is called; stop
// closes the call's connections still open and waits for their records.
func (e *bashEgress) listen(ctx context.Context) (string, func(), error) {
	path := filepath.Join(e.dir, "c"+strconv.FormatInt(e.n.Add(1), 10)+".sock")
	l, err := net.Listen("unix", path)
	if err != nil {
		return "", nil, fmt.Errorf("cannot listen for the egress proxy: %v", err)
	}
	sctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = e.proxy.Serve(sctx, l)
	}()
	return path, func() {
		cancel()
		<-done
		_ = os.Remove(path)
	}, nil
}

func (e *bashEgress) close() {
	if e != nil {
		_ = os.RemoveAll(e.dir)
	}
}

// egressNote rewrites a denied note for a step with a network list: it has a network, the one
// its list allows through the proxy, not none.
func (sb *bashSandbox) egressNote(note string) string {
	if sb == nil || sb.egress == nil {
		return note
	}
	return strings.ReplaceAll(note, "this step has no network (mcp_proxy.sandbox.network: false)",
		"this step reaches only what mcp_proxy.sandbox.network.allow lists, through the proxy HTTP_PROXY, HTTPS_PROXY and ALL_PROXY name")
}
