package plugins

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"sync/atomic"
	"time"

	"github.com/hashicorp/go-hclog"
	goplugin "github.com/hashicorp/go-plugin"
	"github.com/hashicorp/go-plugin/runner"
	"go.uber.org/zap"

	"github.com/awf-dev/awf/internal/infrastructure/pluginsock"
	"github.com/awf-dev/awf/pkg/plugin"
	"github.com/awf-dev/awf/proto/pluginv1"
)

// socketConfig puts go-plugin's socket directory under pluginsock.Dir, which every Bash sandbox
// hides: a plugin's socket takes any of its operations, whatever a step exposes. nil (go-plugin's
// default, the temp directory) when that directory cannot be made private.
func socketConfig() *goplugin.UnixSocketConfig {
	dir, err := pluginsock.Ensure()
	if err != nil {
		return nil
	}
	return &goplugin.UnixSocketConfig{TempDir: dir}
}

// start starts the process and runs Info, Init and ListOperations, all within StartTimeout.
// Close (h.done) and ctx abort it at once, killing what was started.
func (i *instance) start(parent context.Context) (*conn, error) {
	path, err := resolveCommand(i.h.opts.Root, i.h.manifestFile(), i.spec)
	if err != nil {
		return nil, err
	}
	env, err := pluginEnv(i.spec, i.h.manifestFile(), os.Environ())
	if err != nil {
		return nil, err
	}
	begin := time.Now()
	ctx, cancel := context.WithTimeout(parent, i.h.opts.StartTimeout)
	defer cancel()
	go func() {
		select {
		case <-i.h.done:
			cancel()
		case <-ctx.Done():
		}
	}()

	var (
		started atomic.Pointer[procRunner]
		aborted atomic.Bool
		tail    = &tailBuffer{max: 4096}
	)
	client := goplugin.NewClient(&goplugin.ClientConfig{
		HandshakeConfig:  plugin.Handshake,
		Plugins:          goplugin.PluginSet{plugin.PluginKey: &plugin.GRPCPlugin{}},
		AllowedProtocols: []goplugin.Protocol{goplugin.ProtocolGRPC},
		StartTimeout:     i.h.opts.StartTimeout,
		SkipHostEnv:      true, // the runner sets the environment, so plugins.yaml env wins over awf's
		UnixSocketConfig: socketConfig(),
		// Each start gets a fresh client certificate and the plugin answers only to it: a
		// process that reaches the socket (another user's, a sandbox's) cannot speak to the
		// plugin, even if the socket directory is found.
		AutoMTLS:   true,
		Logger:     newHCLog(i.log, "", hclog.Debug),
		Stderr:     tail,
		SyncStdout: newLineLogger(i.log, "stdout"),
		SyncStderr: newLineLogger(i.log, "stderr"),
		RunnerFunc: func(l hclog.Logger, proto *exec.Cmd, _ string) (runner.Runner, error) {
			cmd := exec.Command(path, i.spec.Args...)
			cmd.Dir = i.h.opts.Root
			// A scrubbed base, then plugins.yaml's env, then go-plugin's handshake variables.
			cmd.Env = append(slices.Clip(env), proto.Env...)
			r, err := newProcRunner(l, cmd)
			if err == nil {
				err = i.h.isolateNetwork(cmd)
			}
			if err != nil {
				return nil, err
			}
			started.Store(r)
			if aborted.Load() {
				return nil, errors.New("start aborted")
			}
			return r, nil
		},
	})
	type result struct {
		rpc goplugin.ClientProtocol
		err error
	}
	ch := make(chan result, 1)
	go func() {
		rpc, err := client.Client()
		ch <- result{rpc, err}
	}()
	var res result
	select {
	case res = <-ch:
	case <-ctx.Done():
		// go-plugin's Start cannot be interrupted; killing the process makes it return now.
		aborted.Store(true)
		if r := started.Load(); r != nil {
			_ = r.Kill(context.Background())
		}
		res = <-ch
		if res.err == nil {
			res.err = ctx.Err()
		}
	}
	if res.err != nil {
		client.Kill()
		return nil, i.startError(parent, ctx, res.err, tail)
	}
	fail := func(err error) (*conn, error) {
		client.Kill()
		return nil, i.startError(parent, ctx, err, tail)
	}
	raw, err := res.rpc.Dispense(plugin.PluginKey)
	if err != nil {
		return fail(err)
	}
	rpc, ok := raw.(*plugin.Client)
	if !ok {
		return fail(fmt.Errorf("go-plugin dispensed %T, not an awf plugin client", raw))
	}
	c := &conn{client: client, rpc: rpc, runner: started.Load()}
	if c.info, err = rpc.Info(ctx, &pluginv1.InfoRequest{}); err != nil {
		return fail(fmt.Errorf("calling Info: %w", err))
	}
	if _, err := rpc.Init(ctx, &pluginv1.InitRequest{ConfigJson: string(i.spec.Config)}); err != nil {
		if initRejected(err) {
			client.Kill()
			return nil, initError(i.spec, i.h.manifestFile(), err)
		}
		return fail(fmt.Errorf("calling Init: %w", err))
	}
	list, err := rpc.ListOperations(ctx, &pluginv1.ListOperationsRequest{})
	if err != nil {
		return fail(fmt.Errorf("calling ListOperations: %w", err))
	}
	c.ops = fromProtoOperations(list.GetOperations())
	i.log.Info("plugin started",
		zap.Int("pid", c.runner.PID()),
		zap.String("version", c.info.GetVersion()),
		zap.Int("operations", len(c.ops)),
		zap.Duration("duration", time.Since(begin)))
	return c, nil
}
