package egress

import "net/netip"

// Address classes a name entry never reaches (Decide).
const (
	ClassLoopback    = "loopback"
	ClassPrivate     = "private"
	ClassLinkLocal   = "link-local"
	ClassMetadata    = "cloud metadata"
	ClassUnspecified = "unspecified"
	ClassMulticast   = "multicast"
	ClassShared      = "shared (carrier-grade NAT)"
)

var (
	metadataV4 = netip.MustParseAddr("169.254.169.254")
	metadataV6 = netip.MustParseAddr("fd00:ec2::254")
	sharedV4   = netip.MustParsePrefix("100.64.0.0/10")
)

// Classify names the class of a special address (IPv4-mapped IPv6 read as IPv4), "" for an
// ordinary public one. Metadata is checked before link-local and private, which contain it.
func Classify(a netip.Addr) string {
	a = a.Unmap()
	switch {
	case !a.IsValid():
		return ClassUnspecified
	case a == metadataV4 || a == metadataV6:
		return ClassMetadata
	case a.IsLoopback():
		return ClassLoopback
	case a.IsUnspecified():
		return ClassUnspecified
	case a.IsLinkLocalUnicast():
		return ClassLinkLocal
	case a.IsPrivate():
		return ClassPrivate
	case sharedV4.Contains(a):
		return ClassShared
	case a.IsMulticast() || a.IsLinkLocalMulticast() || a.IsInterfaceLocalMulticast():
		return ClassMulticast
	}
	return ""
}
