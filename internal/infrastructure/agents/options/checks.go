package options

import (
	"fmt"
	"math"
	"net/url"
	"strings"
)

// The checks below are Option.Check values several providers share. Each returns "" for a
// good value, else what is wrong, written to follow "option X of provider P ".

// NonEmpty refuses a string of blanks.
func NonEmpty(v any) string {
	if s, _ := v.(string); strings.TrimSpace(s) == "" {
		return "must not be empty"
	}
	return ""
}

// AbsoluteURL refuses a string that is not an absolute URL; example shows a good one.
func AbsoluteURL(example string) func(any) string {
	return func(v any) string {
		s, _ := v.(string)
		u, err := url.Parse(s)
		if err != nil || u.Scheme == "" || u.Host == "" {
			return "must be an absolute URL such as " + example
		}
		return ""
	}
}

// Between refuses a number outside [lo, hi].
func Between(lo, hi float64) func(any) string {
	return func(v any) string {
		if f, _ := v.(float64); f < lo || f > hi {
			return fmt.Sprintf("must be a number between %v and %v, got %v", lo, hi, f)
		}
		return ""
	}
}

// WholeBetween refuses a number that is not a whole number within [lo, hi].
func WholeBetween(lo, hi int) func(any) string {
	return func(v any) string {
		if f, _ := v.(float64); f != math.Trunc(f) || f < float64(lo) || f > float64(hi) {
			return fmt.Sprintf("must be a whole number between %d and %d, got %v", lo, hi, f)
		}
		return ""
	}
}
