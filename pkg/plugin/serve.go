package plugin

import (
	"context"
	"fmt"
	"os"
	"sync"

	"github.com/hashicorp/go-hclog"
	goplugin "github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"

	"github.com/awf-dev/awf/proto/pluginv1"
)

// ProtocolVersion is the go-plugin protocol version of awf.plugin.v1. awf refuses a plugin that
// speaks another one, with a message telling to rebuild it against a matching SDK.
const ProtocolVersion = 1

// PluginKey is the name the service is dispensed under in go-plugin's plugin set.
const PluginKey = "awf"

// Handshake is shared by awf and its plugins. The cookie is not security: it stops a plugin
// binary started by hand from waiting forever for a host, and prints a helpful message instead.
var Handshake = goplugin.HandshakeConfig{
	ProtocolVersion:  ProtocolVersion,
	MagicCookieKey:   "AWF_PLUGIN_MAGIC_COOKIE",
	MagicCookieValue: "f3c6e1a0-awf-plugin-v1",
}

// realStderr is the process's stderr as it was before go-plugin redirected os.Stderr. Lines
// written here reach awf's log; lines written to the redirected os.Stderr are dropped.
var realStderr = os.Stderr

var (
	loggerOnce sync.Once
	logger     hclog.Logger
)

// Logger returns the plugin's logger. Its JSON lines go to the process's original stderr, which
// awf reads and forwards into its own log under the plugin's name, with the level kept.
func Logger() hclog.Logger {
	loggerOnce.Do(func() {
		logger = hclog.New(&hclog.LoggerOptions{
			Output:     realStderr,
			Level:      hclog.Debug,
			JSONFormat: true,
		})
	})
	return logger
}

// Serve serves p until awf stops the plugin. It is meant to be the last call of main. A
// declaration that fails Validate is printed to stderr and the process exits with status 1;
// started by hand (not by awf), it says so and exits 1 too.
func Serve(p *Plugin) {
	if err := p.Validate(); err != nil {
		fmt.Fprintln(realStderr, err)
		os.Exit(1)
	}
	goplugin.Serve(&goplugin.ServeConfig{
		HandshakeConfig: Handshake,
		Plugins:         goplugin.PluginSet{PluginKey: &GRPCPlugin{Impl: p}},
		GRPCServer:      goplugin.DefaultGRPCServer,
		Logger:          Logger(),
	})
}

// GRPCPlugin binds awf.plugin.v1 to go-plugin on both sides: served by a plugin around Impl,
// dispensed by awf's host as a *Client. Plugin authors only need Serve.
type GRPCPlugin struct {
	goplugin.NetRPCUnsupportedPlugin
	// Impl is the plugin being served; nil on the host side.
	Impl *Plugin
}

// GRPCServer registers the plugin's service.
func (g *GRPCPlugin) GRPCServer(_ *goplugin.GRPCBroker, s *grpc.Server) error {
	if g.Impl == nil {
		return fmt.Errorf("plugin: GRPCPlugin.Impl is nil")
	}
	if err := g.Impl.Validate(); err != nil {
		return err
	}
	pluginv1.RegisterPluginServiceServer(s, newServer(g.Impl, Logger()))
	return nil
}

// GRPCClient returns the host's view of the plugin. ctx is cancelled by go-plugin when the
// plugin process exits; Client.Done exposes it so that calls in flight can fail at once.
func (g *GRPCPlugin) GRPCClient(ctx context.Context, _ *goplugin.GRPCBroker, c *grpc.ClientConn) (any, error) {
	return &Client{PluginServiceClient: pluginv1.NewPluginServiceClient(c), done: ctx}, nil
}

// Client is a connection to a running plugin, as dispensed to the host.
type Client struct {
	pluginv1.PluginServiceClient
	done context.Context
}

// Done is closed when the plugin process has exited.
func (c *Client) Done() <-chan struct{} { return c.done.Done() }
