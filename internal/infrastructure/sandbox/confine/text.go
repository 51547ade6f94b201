package confine

import "errors"

// wrap is fmt's "%s: %v" without fmt, whose initialisation this package must not wait for.
func wrap(what string, err error) error { return errors.New(what + ": " + err.Error()) }

// itoa is strconv.Itoa for the non-negative numbers of the helper's messages.
func itoa(n int) string {
	var b [20]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
		if n == 0 {
			return string(b[i:])
		}
	}
}

// The ports the forwarders listen on, on the sandbox's own loopback: the sandbox has its own
// network namespace, so any port is free; fixed ones let the caller set the proxy variables.
const (
	ProxyHTTPPort  = 3128 // HTTP_PROXY, HTTPS_PROXY
	ProxySOCKSPort = 1080 // ALL_PROXY (socks5h)
)
