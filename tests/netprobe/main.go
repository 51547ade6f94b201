// Command netprobe is a test plugin for awf's mcp_proxy.sandbox.network: false (docs/decisions/0012-kernel-sandbox.md): its
// one operation, dial, opens a TCP connection and sends a UDP datagram to the addresses it is
// given and says what happened, so a test can tell a plugin with network from one without.
package main

import (
	"context"
	"encoding/json"
	"net"
	"time"

	"github.com/awf-dev/awf/pkg/plugin"
)

type dialArgs struct {
	TCP string `json:"tcp"`
	UDP string `json:"udp"`
}

// dial reports "tcp: ok" or "tcp: <error>", then the same for udp.
func dial(ctx context.Context, raw json.RawMessage) (plugin.Result, error) {
	var in dialArgs
	if err := plugin.DecodeArgs(raw, &in); err != nil {
		return plugin.Result{}, err
	}
	out := "tcp: " + outcome(func() error {
		d := net.Dialer{Timeout: 2 * time.Second}
		c, err := d.DialContext(ctx, "tcp", in.TCP)
		if err == nil {
			c.Close()
		}
		return err
	})
	out += "\nudp: " + outcome(func() error {
		c, err := net.Dial("udp", in.UDP)
		if err != nil {
			return err
		}
		defer c.Close()
		_, err = c.Write([]byte("netprobe"))
		return err
	})
	return plugin.Text(out), nil
}

func outcome(f func() error) string {
	if err := f(); err != nil {
		return err.Error()
	}
	return "ok"
}

func main() {
	plugin.Serve(&plugin.Plugin{
		Name:        "netprobe",
		Version:     "1.0.0",
		Description: "Tries the network: a test plugin for steps without network.",
		Operations: []plugin.Operation{{
			Name:        "dial",
			Description: "Connect over TCP and send one UDP datagram; say what happened.",
			InputSchema: `{"type":"object","properties":{"tcp":{"type":"string"},"udp":{"type":"string"}},"required":["tcp","udp"],"additionalProperties":false}`,
			Annotations: plugin.Annotations{ReadOnly: plugin.Bool(true), OpenWorld: plugin.Bool(true)},
			Handler:     dial,
		}},
	})
}
