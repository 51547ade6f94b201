package plugin

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime/debug"
	"sort"
	"strings"

	"github.com/hashicorp/go-hclog"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/awf-dev/awf/proto/pluginv1"
)

// server is the gRPC face of a Plugin: it turns protocol messages into handler calls and back.
type server struct {
	pluginv1.UnimplementedPluginServiceServer
	p      *Plugin
	ops    map[string]*Operation
	logger hclog.Logger
}

func newServer(p *Plugin, logger hclog.Logger) *server {
	s := &server{p: p, ops: make(map[string]*Operation, len(p.Operations)), logger: logger}
	for i := range p.Operations {
		s.ops[p.Operations[i].Name] = &p.Operations[i]
	}
	return s
}

// Info names the plugin.
func (s *server) Info(context.Context, *pluginv1.InfoRequest) (*pluginv1.InfoResponse, error) {
	return &pluginv1.InfoResponse{Name: s.p.Name, Version: s.p.Version, Description: s.p.Description}, nil
}

// Init hands the config to Plugin.Init; its error becomes InvalidArgument so the host can tell
// "bad config" from "plugin broken".
func (s *server) Init(ctx context.Context, req *pluginv1.InitRequest) (*pluginv1.InitResponse, error) {
	raw := json.RawMessage(strings.TrimSpace(req.GetConfigJson()))
	if len(raw) == 0 {
		raw = json.RawMessage("{}")
	}
	if !json.Valid(raw) {
		return nil, status.Error(codes.InvalidArgument, "config is not valid JSON")
	}
	if s.p.Init == nil {
		return &pluginv1.InitResponse{}, nil
	}
	if err := safeCall(func() error { return s.p.Init(ctx, raw) }); err != nil {
		return nil, status.Error(codes.InvalidArgument, err.Error())
	}
	return &pluginv1.InitResponse{}, nil
}

// Shutdown runs Plugin.Shutdown.
func (s *server) Shutdown(ctx context.Context, _ *pluginv1.ShutdownRequest) (*pluginv1.ShutdownResponse, error) {
	if s.p.Shutdown == nil {
		return &pluginv1.ShutdownResponse{}, nil
	}
	if err := safeCall(func() error { return s.p.Shutdown(ctx) }); err != nil {
		return nil, status.Error(codes.Internal, err.Error())
	}
	return &pluginv1.ShutdownResponse{}, nil
}

// ListOperations lists the operations in declaration order.
func (s *server) ListOperations(context.Context, *pluginv1.ListOperationsRequest) (*pluginv1.ListOperationsResponse, error) {
	out := &pluginv1.ListOperationsResponse{Operations: make([]*pluginv1.Operation, 0, len(s.p.Operations))}
	for _, op := range s.p.Operations {
		out.Operations = append(out.Operations, &pluginv1.Operation{
			Name:              op.Name,
			Description:       op.Description,
			InputSchemaJson:   op.InputSchema,
			OutputDescription: op.OutputDescription,
			Annotations: &pluginv1.Annotations{
				Title:       op.Annotations.Title,
				ReadOnly:    op.Annotations.ReadOnly,
				Destructive: op.Annotations.Destructive,
				Idempotent:  op.Annotations.Idempotent,
				OpenWorld:   op.Annotations.OpenWorld,
			},
		})
	}
	return out, nil
}

// Execute runs one operation. Handler errors and panics become error results the model reads;
// only an unknown operation or unreadable arguments are protocol errors.
func (s *server) Execute(ctx context.Context, req *pluginv1.ExecuteRequest) (*pluginv1.ExecuteResponse, error) {
	op, ok := s.ops[req.GetOperation()]
	if !ok {
		return nil, status.Errorf(codes.NotFound, "plugin %q has no operation %q; it has: %s", s.p.Name, req.GetOperation(), strings.Join(s.names(), ", "))
	}
	args := json.RawMessage(strings.TrimSpace(req.GetArgumentsJson()))
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	if !json.Valid(args) {
		return nil, status.Errorf(codes.InvalidArgument, "arguments of %s are not valid JSON", op.Name)
	}
	res, err := s.run(ctx, op, args)
	if err != nil {
		return &pluginv1.ExecuteResponse{IsError: true, ErrorMessage: err.Error()}, nil
	}
	return toResponse(op.Name, res), nil
}

// run calls the handler, turning a panic into an error so the plugin keeps serving.
func (s *server) run(ctx context.Context, op *Operation, args json.RawMessage) (res Result, err error) {
	defer func() {
		if p := recover(); p != nil {
			s.logger.Error("operation panicked", "operation", op.Name, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			err = fmt.Errorf("operation %s failed with an internal error in the plugin (%v); this is a bug in the plugin, not in your call", op.Name, p)
		}
	}()
	return op.Handler(ctx, args)
}

func toResponse(name string, res Result) *pluginv1.ExecuteResponse {
	out := &pluginv1.ExecuteResponse{IsError: res.IsError, ErrorMessage: res.ErrorMessage}
	for i, c := range res.Content {
		switch {
		case c.JSON != nil:
			if !json.Valid(c.JSON) {
				return &pluginv1.ExecuteResponse{IsError: true, ErrorMessage: fmt.Sprintf(
					"operation %s returned content block #%d that is not valid JSON; this is a bug in the plugin", name, i+1)}
			}
			out.Content = append(out.Content, &pluginv1.Content{Kind: &pluginv1.Content_Json{Json: string(c.JSON)}})
		default:
			out.Content = append(out.Content, &pluginv1.Content{Kind: &pluginv1.Content_Text{Text: c.Text}})
		}
	}
	return out
}

func (s *server) names() []string {
	names := make([]string, 0, len(s.ops))
	for n := range s.ops {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// safeCall runs f, turning a panic into an error.
func safeCall(f func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	return f()
}
