package confine

import (
	"syscall"
	"unsafe"
)

// startEgress brings the namespace's loopback up and starts the forwarders: each connection to
// 127.0.0.1:ProxyHTTPPort or :ProxySOCKSPort is joined to a new connection to the host's proxy
// socket, bytes moved with splice(2). It runs before the capabilities are dropped (the loopback
// needs CAP_NET_ADMIN in the namespace). The forwarders run on goroutines, never on the locked
// thread, so the Landlock domain and the seccomp filter of that thread (which refuses unix
// sockets to the command) do not reach them; the runtime starts their threads from its template
// thread, created before any of that was applied. Only raw system calls are used: package net
// would put the CLI's initialisation back on every call (TestImports).
func startEgress(proxy string) error {
	if err := loopbackUp(); err != nil {
		return wrap("cannot bring the sandbox's loopback up", err)
	}
	for _, port := range []int{ProxyHTTPPort, ProxySOCKSPort} {
		fd, err := listenLoopback(port)
		if err != nil {
			return wrap("cannot listen on 127.0.0.1:"+itoa(port)+" in the sandbox", err)
		}
		go acceptLoop(fd, proxy)
	}
	return nil
}

// ifreq is struct ifreq with the flags member of its union.
type ifreq struct {
	name  [16]byte
	flags uint16
	_     [22]byte
}

func loopbackUp() error {
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_DGRAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer syscall.Close(fd)
	var r ifreq
	copy(r.name[:], "lo")
	r.flags = syscall.IFF_UP | syscall.IFF_RUNNING
	if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, uintptr(fd), syscall.SIOCSIFFLAGS, uintptr(unsafe.Pointer(&r))); errno != 0 {
		return errno
	}
	return nil
}

func listenLoopback(port int) (int, error) {
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return -1, err
	}
	_ = syscall.SetsockoptInt(fd, syscall.SOL_SOCKET, syscall.SO_REUSEADDR, 1)
	if err := syscall.Bind(fd, &syscall.SockaddrInet4{Port: port, Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		syscall.Close(fd)
		return -1, err
	}
	if err := syscall.Listen(fd, 256); err != nil {
		syscall.Close(fd)
		return -1, err
	}
	return fd, nil
}

func acceptLoop(lfd int, proxy string) {
	for {
		fd, _, err := syscall.Accept4(lfd, syscall.SOCK_CLOEXEC)
		if err == syscall.EINTR || err == syscall.ECONNABORTED {
			continue
		}
		if err != nil {
			return
		}
		go forward(fd, proxy)
	}
}

// forward joins a command's connection to a new one to the proxy socket, both ways; each
// direction's end is passed on as a half-close.
func forward(a int, proxy string) {
	defer syscall.Close(a)
	b, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return
	}
	defer syscall.Close(b)
	for {
		err = syscall.Connect(b, &syscall.SockaddrUnix{Name: proxy})
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		move(a, b)
		_ = syscall.Shutdown(a, syscall.SHUT_WR)
	}()
	move(b, a)
	_ = syscall.Shutdown(b, syscall.SHUT_WR)
	<-done
}

// move copies src to dst until src ends or either fails, through a pipe with splice(2).
func move(dst, src int) {
	var p [2]int
	if err := syscall.Pipe2(p[:], syscall.O_CLOEXEC); err != nil {
		return
	}
	defer syscall.Close(p[0])
	defer syscall.Close(p[1])
	const spliceMove, max = 1, 1 << 20
	for {
		n, err := syscall.Splice(src, nil, p[1], nil, max, spliceMove)
		if err == syscall.EINTR {
			continue
		}
		if err != nil || n <= 0 {
			return
		}
		for n > 0 {
			m, err := syscall.Splice(p[0], nil, dst, nil, int(n), spliceMove)
			if err == syscall.EINTR {
				continue
			}
			if err != nil || m <= 0 {
				return
			}
			n -= m
		}
	}
}
