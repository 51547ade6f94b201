package confine

import (
	"errors"
	"io"
	"os"
	"syscall"
)

// ArgAwait is the helper's first argument when it is started before its call is known (a
// spare): it then reads the call from file descriptor 3 (EncodeRequest's form) and applies it
// exactly as if it had come as arguments. The namespaces already exist by then, so the only
// option that may follow is argNoNetwork, which must match the request's.
const ArgAwait = "-await"

// maxRequest bounds a request: Linux's own limit on arguments plus environment is about 2 MiB.
const maxRequest = 8 << 20

// EncodeRequest is the request for a spare: the helper's arguments (Policy.Args), then the
// command's environment, as NUL-terminated fields after the number of arguments. Neither an
// argument nor an environment entry can hold a NUL.
func EncodeRequest(args, env []string) []byte {
	n := len(itoa(len(args))) + 1
	for _, s := range args {
		n += len(s) + 1
	}
	for _, s := range env {
		n += len(s) + 1
	}
	b := make([]byte, 0, n)
	b = append(append(b, itoa(len(args))...), 0)
	for _, s := range args {
		b = append(append(b, s...), 0)
	}
	for _, s := range env {
		b = append(append(b, s...), 0)
	}
	return b
}

// DecodeRequest reads what EncodeRequest wrote, strictly.
func DecodeRequest(b []byte) (args, env []string, err error) {
	var fields []string
	start := 0
	for i := 0; i < len(b); i++ {
		if b[i] == 0 {
			fields = append(fields, string(b[start:i]))
			start = i + 1
		}
	}
	if start != len(b) {
		return nil, nil, errors.New("request does not end with a NUL")
	}
	if len(fields) == 0 {
		return nil, nil, errors.New("empty request")
	}
	n, ok := atoi(fields[0])
	if !ok || n > len(fields)-1 {
		return nil, nil, errors.New("request has a bad argument count " + quote(fields[0]))
	}
	return fields[1 : 1+n], fields[1+n:], nil
}

// awaitRequest reads the call of a spare from descriptor 3 and closes it, so the command does
// not inherit it. spawn are the spare's own arguments after ArgAwait.
func awaitRequest(spawn []string) (args, env []string, network bool, err error) {
	network = true
	switch {
	case len(spawn) == 1 && spawn[0] == argNoNetwork:
		network = false
	case len(spawn) != 0:
		return nil, nil, false, errors.New("unknown spare option " + quote(spawn[0]))
	}
	// Descriptor 4 is the binary the spare was started from (sandbox.StartSpare): the command
	// must not inherit it.
	syscall.CloseOnExec(4)
	f := os.NewFile(3, "request")
	if f == nil {
		return nil, nil, false, errors.New("no request descriptor")
	}
	defer f.Close()
	buf, err := io.ReadAll(io.LimitReader(f, maxRequest+1))
	if err != nil {
		return nil, nil, false, wrap("cannot read the request", err)
	}
	if len(buf) > maxRequest {
		return nil, nil, false, errors.New("request over " + itoa(maxRequest) + " bytes")
	}
	args, env, err = DecodeRequest(buf)
	return args, env, network, err
}

// atoi is strconv.Atoi for the non-negative numbers of a request.
func atoi(s string) (int, bool) {
	if s == "" || len(s) > 9 {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		n = n*10 + int(s[i]-'0')
	}
	return n, true
}
