package main

import (
	"net"
	"strconv"

	domact "github.com/awf-dev/awf/internal/domain/activity"
	"github.com/awf-dev/awf/internal/domain/fault"
)

// checkKind checks `awf activity list --kind`: call (tool calls) or network (connections
// through a step's egress proxy, docs/decisions/0028-egress-proxy.md).
func checkKind(kind string) error {
	if kind == "" || kind == domact.KindCall || kind == domact.KindNetwork {
		return nil
	}
	return fault.New(fault.UserCLIInvalidArgs, "unknown record kind %q", kind).WithHint("use call or network")
}

// toolCell is the tool of a call, or for a connection what it reached and how much moved:
// "network http GET 127.0.0.1:8080/x (in 120 B, out 80 B)".
func toolCell(r domact.Record) string {
	n := r.Network
	if n == nil {
		return short(printable(r.Tool), 60)
	}
	s := "network " + n.Protocol + " "
	if n.Method != "" {
		s += n.Method + " "
	}
	s += net.JoinHostPort(n.Host, strconv.Itoa(n.Port)) + n.Path
	s += " (in " + strconv.FormatInt(n.BytesIn, 10) + " B, out " + strconv.FormatInt(n.BytesOut, 10) + " B)"
	return short(printable(s), 120)
}

// decisionCell is the intent decision of a call, or a connection's decision and its rule.
func decisionCell(r domact.Record) string {
	if n := r.Network; n != nil {
		return printable(n.Decision + ": " + n.Rule)
	}
	return printable(r.Intent.Decision)
}
