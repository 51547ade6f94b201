package plugins

import (
	"context"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
)

// TestPluginAnswersOnlyItsHost: a process that finds a plugin's socket (a sandboxed Bash that
// escaped the hiding, another process of the user) cannot call it: go-plugin's AutoMTLS makes
// the plugin accept only the client certificate of the host that started it. The host's own
// calls go through; a plain gRPC client on the same socket gets no answer.
func TestPluginAnswersOnlyItsHost(t *testing.T) {
	f := newFixture(t, "", Options{})
	if res := f.exec(t, "notes", "put", `{"key":"k","text":"by the host"}`); res.IsError {
		t.Fatalf("the host's own call failed: %s", res.JoinedText())
	}
	i, err := f.host.instance("notes")
	if err != nil {
		t.Fatal(err)
	}
	c := i.live()
	if c == nil {
		t.Fatal("no live connection after a call")
	}
	addr := c.client.ReattachConfig().Addr
	conn, err := grpc.NewClient("unix://"+addr.String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	if _, err := healthpb.NewHealthClient(conn).Check(ctx, &healthpb.HealthCheckRequest{Service: "plugin"}); err == nil {
		t.Fatalf("a client without the host's certificate was answered on %s", addr)
	}
}
