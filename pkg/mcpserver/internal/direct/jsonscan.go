package direct

// This file holds the small JSON helpers of the direct tools/call path (direct.go): walking the
// members of an object already known to be valid JSON without decoding it (strings are written by
// pkg/jsonstr).

// eachMember calls fn with the raw key (between its quotes) and the raw value of every member of
// the JSON object data, in order, and reports whether data was an object whose keys are all
// plain (no escapes) and fn accepted every member. data must be valid JSON (classify checked the
// whole line); anything unexpected makes it return false, which only sends the call the SDK's
// way.
func eachMember(data []byte, fn func(key, value []byte) bool) bool {
	i := skipSpace(data, 0)
	if i >= len(data) || data[i] != '{' {
		return false
	}
	i = skipSpace(data, i+1)
	if i < len(data) && data[i] == '}' {
		return skipSpace(data, i+1) == len(data)
	}
	for i < len(data) {
		if data[i] != '"' {
			return false
		}
		end := i + 1
		for end < len(data) && data[end] != '"' {
			if data[end] == '\\' {
				return false // an escaped key: leave it to the SDK's decoder
			}
			end++
		}
		if end >= len(data) {
			return false
		}
		key := data[i+1 : end]
		i = skipSpace(data, end+1)
		if i >= len(data) || data[i] != ':' {
			return false
		}
		start := skipSpace(data, i+1)
		stop := skipValue(data, start)
		if stop <= start || !fn(key, data[start:stop]) {
			return false
		}
		i = skipSpace(data, stop)
		if i >= len(data) {
			return false
		}
		switch data[i] {
		case ',':
			i = skipSpace(data, i+1)
		case '}':
			return skipSpace(data, i+1) == len(data)
		default:
			return false
		}
	}
	return false
}

func skipSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}

// skipValue returns the index just past the JSON value starting at data[i], or i when there is
// none.
func skipValue(data []byte, i int) int {
	if i >= len(data) {
		return i
	}
	switch data[i] {
	case '"':
		return skipString(data, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(data); j++ {
			switch data[j] {
			case '"':
				j = skipString(data, j) - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return i
	default:
		j := i
		for j < len(data) && !isDelimiter(data[j]) {
			j++
		}
		return j
	}
}

// skipString returns the index just past the string starting at data[i] (a quote).
func skipString(data []byte, i int) int {
	for j := i + 1; j < len(data); j++ {
		switch data[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return len(data)
}

func isDelimiter(c byte) bool {
	return c == ',' || c == '}' || c == ']' || c == ' ' || c == '\t' || c == '\n' || c == '\r'
}

// plainJSONString returns the contents of a JSON string without escapes, or false.
func plainJSONString(raw []byte) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return "", false
	}
	body := raw[1 : len(raw)-1]
	for _, c := range body {
		if c == '\\' || c == '"' || c < 0x20 {
			return "", false
		}
	}
	return string(body), true
}
