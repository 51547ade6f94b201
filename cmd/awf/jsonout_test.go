package main

import (
	"bytes"
	"encoding/json"
	"testing"
)

func TestWithSchemaVersion(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"a":1}`, `{"schema_version":1,"a":1}`},
		{`{}`, `{"schema_version":1}`},
		{`[{"a":1},{}]`, `[{"schema_version":1,"a":1},{"schema_version":1}]`},
		{`[]`, `[]`},
		{`"text"`, `"text"`},
		{`[1,"x"]`, `[1,"x"]`},
	}
	for _, tt := range tests {
		if got := string(withSchemaVersion([]byte(tt.in))); got != tt.want {
			t.Errorf("withSchemaVersion(%s) = %s, want %s", tt.in, got, tt.want)
		}
	}
	var b bytes.Buffer
	if err := writeJSONDoc(&b, map[string]string{"p": "<x>"}, false); err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil || doc["schema_version"] != 1.0 || doc["p"] != "<x>" || !bytes.Contains(b.Bytes(), []byte("<x>")) {
		t.Fatalf("writeJSONDoc: %s %v", b.String(), err)
	}
}
