package plugin

import (
	"context"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
	goplugin "github.com/hashicorp/go-plugin"

	"github.com/awf-dev/awf/proto/pluginv1"
)

// TestGoPluginRoundTrip serves a plugin in-process through go-plugin's test mode and talks to it
// through the client side of GRPCPlugin, as awf's host does with a real process.
func TestGoPluginRoundTrip(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	reattach := make(chan *goplugin.ReattachConfig, 1)
	closed := make(chan struct{})
	p := testServer().p
	go goplugin.Serve(&goplugin.ServeConfig{
		HandshakeConfig: Handshake,
		Plugins:         goplugin.PluginSet{PluginKey: &GRPCPlugin{Impl: p}},
		GRPCServer:      goplugin.DefaultGRPCServer,
		Logger:          hclog.NewNullLogger(),
		Test:            &goplugin.ServeTestConfig{Context: ctx, ReattachConfigCh: reattach, CloseCh: closed},
	})
	var cfg *goplugin.ReattachConfig
	select {
	case cfg = <-reattach:
	case <-time.After(10 * time.Second):
		t.Fatal("plugin did not start serving")
	}
	client := goplugin.NewClient(&goplugin.ClientConfig{
		HandshakeConfig:  Handshake,
		Plugins:          goplugin.PluginSet{PluginKey: &GRPCPlugin{}},
		Reattach:         cfg,
		AllowedProtocols: []goplugin.Protocol{goplugin.ProtocolGRPC},
		Logger:           hclog.NewNullLogger(),
	})
	defer client.Kill()
	rpc, err := client.Client()
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	raw, err := rpc.Dispense(PluginKey)
	if err != nil {
		t.Fatalf("dispense: %v", err)
	}
	c, ok := raw.(*Client)
	if !ok {
		t.Fatalf("dispensed %T, want *Client", raw)
	}
	res, err := c.Execute(ctx, &pluginv1.ExecuteRequest{Operation: "json"})
	if err != nil || res.Content[0].GetJson() != "[1,2]" {
		t.Fatalf("Execute over gRPC = %v, %v", res, err)
	}
	select {
	case <-c.Done():
		t.Fatal("Done is closed while the plugin runs")
	default:
	}
	cancel()
	select {
	case <-closed:
	case <-time.After(10 * time.Second):
		t.Fatal("plugin did not stop")
	}
}

func TestGRPCServerRefusesNilOrInvalidImpl(t *testing.T) {
	if err := (&GRPCPlugin{}).GRPCServer(nil, nil); err == nil {
		t.Error("nil Impl accepted")
	}
	bad := &GRPCPlugin{Impl: &Plugin{Operations: []Operation{{Name: "x"}}}}
	if err := bad.GRPCServer(nil, nil); err == nil {
		t.Error("invalid Impl accepted")
	}
}
