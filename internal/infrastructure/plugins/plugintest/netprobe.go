package plugintest

import (
	"net"
	"testing"
)

// Netprobe builds tests/netprobe, the plugin that dials the addresses it is given and says
// what got through, into dir and returns its path: what the no-network tests run as a plugin.
func Netprobe(tb testing.TB, dir string) string {
	tb.Helper()
	return buildTestProgram(tb, dir, "netprobe")
}

// Loopback listens on 127.0.0.1 for netprobe to dial: a TCP listener that accepts and closes
// every connection (its address is returned), and a UDP socket the caller may read the
// datagram from. Both close when the test ends; the test is skipped where it cannot listen.
func Loopback(tb testing.TB) (tcpAddr string, udp net.PacketConn) {
	tb.Helper()
	tcp, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Skip(err)
	}
	tb.Cleanup(func() { _ = tcp.Close() })
	go func() {
		for {
			c, err := tcp.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	udp, err = net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		tb.Skip(err)
	}
	tb.Cleanup(func() { _ = udp.Close() })
	return tcp.Addr().String(), udp
}
