package confine

import (
	"slices"
	"strings"
	"testing"
)

func TestRequestRoundTrip(t *testing.T) {
	for _, c := range []struct {
		args, env []string
	}{
		{[]string{"-policy", "read", "--", "bash", "-c", "echo 'a b' \"$X\""}, []string{"X=1", "EMPTY="}},
		{[]string{"--", ""}, nil},
		{nil, []string{"ONLY=env"}},
		{nil, nil},
	} {
		args, env, err := DecodeRequest(EncodeRequest(c.args, c.env))
		if err != nil || !slices.Equal(args, c.args) || !slices.Equal(env, c.env) {
			t.Errorf("%q %q came back as %q %q (%v)", c.args, c.env, args, env, err)
		}
	}
}

func TestRequestRefusals(t *testing.T) {
	for _, c := range []struct {
		in, want string
	}{
		{"", "empty request"},
		{"2\x00a\x00", "bad argument count"},
		{"x\x00a\x00", "bad argument count"},
		{"-1\x00", "bad argument count"},
		{"1234567890\x00", "bad argument count"},
		{"1\x00a", "does not end with a NUL"},
	} {
		if _, _, err := DecodeRequest([]byte(c.in)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want %q", c.in, err, c.want)
		}
	}
}
