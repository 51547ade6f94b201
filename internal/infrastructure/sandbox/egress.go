package sandbox

import (
	"strconv"
	"strings"

	"github.com/awf-dev/awf/internal/infrastructure/sandbox/confine"
)

// Egress is a step's `mcp_proxy.sandbox.network: {allow, deny}` (docs/decisions/0028-egress-proxy.md).
type Egress struct {
	Allow []string `json:"allow"`
	Deny  []string `json:"deny,omitempty"`
}

// proxyVars are the variables ProxyEnv sets, both cases, since tools read one or the other.
var proxyVars = []string{"HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY"}

// ProxyEnv sets the proxy variables of a call whose policy has a Proxy: HTTP(S)_PROXY to the
// helper's HTTP forwarder and ALL_PROXY to its SOCKS5 one (socks5h: names resolved by the
// proxy, as the sandbox has no DNS), upper and lower case; NO_PROXY empty, since the
// sandbox's loopback holds nothing but the forwarders and every other address is reached through
// the proxy, loopback ones included. Inherited values are replaced.
func ProxyEnv(env []string) []string {
	httpURL := "http://127.0.0.1:" + strconv.Itoa(confine.ProxyHTTPPort)
	socksURL := "socks5h://127.0.0.1:" + strconv.Itoa(confine.ProxySOCKSPort)
	set := map[string]string{"HTTP_PROXY": httpURL, "HTTPS_PROXY": httpURL, "ALL_PROXY": socksURL, "NO_PROXY": ""}
	out := make([]string, 0, len(env)+2*len(set))
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if _, ok := set[strings.ToUpper(name)]; !ok {
			out = append(out, kv)
		}
	}
	for _, name := range proxyVars {
		out = append(out, name+"="+set[name], strings.ToLower(name)+"="+set[name])
	}
	return out
}
