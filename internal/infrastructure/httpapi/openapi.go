package httpapi

import (
	"net/http"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Version is the API's version in the OpenAPI document; cmd/awf sets the binary's.
var Version = "dev"

// OpenAPI builds the OpenAPI 3.1 document from the route table and the request and answer
// types, by reflection: every registered route is in it, and every field of its types.
func OpenAPI() map[string]any {
	schemas := map[string]any{}
	paths := map[string]map[string]any{}
	problem := refOf(reflect.TypeFor[Problem](), schemas)
	for _, rt := range routes() {
		op := map[string]any{"summary": rt.summary, "operationId": operationID(rt)}
		var params []any
		for _, p := range pathParams(rt.path) {
			params = append(params, map[string]any{"name": p, "in": "path", "required": true, "schema": map[string]any{"type": "string"}})
		}
		for _, q := range rt.query {
			params = append(params, map[string]any{"name": q, "in": "query", "required": false, "schema": map[string]any{"type": "string"}})
		}
		if params != nil {
			op["parameters"] = params
		}
		if rt.req != nil {
			op["requestBody"] = map[string]any{"required": false, "content": map[string]any{"application/json": map[string]any{"schema": refOf(reflect.TypeOf(rt.req), schemas)}}}
		}
		ok := map[string]any{"description": http.StatusText(rt.status)}
		switch {
		case rt.resp != nil:
			env := map[string]any{"type": "object", "required": []string{"body"}, "properties": map[string]any{"body": refOf(reflect.TypeOf(rt.resp), schemas)}}
			ok["content"] = map[string]any{"application/json": map[string]any{"schema": env}}
		case rt.media != "":
			ok["content"] = map[string]any{rt.media: map[string]any{"schema": map[string]any{"type": "string"}}}
		}
		pb := map[string]any{"description": "a problem (RFC 9457)", "content": map[string]any{"application/problem+json": map[string]any{"schema": problem}}}
		op["responses"] = map[string]any{strconv.Itoa(rt.status): ok, "default": pb}
		p := specPath(rt.path)
		if paths[p] == nil {
			paths[p] = map[string]any{}
		}
		paths[p][strings.ToLower(rt.method)] = op
	}
	return map[string]any{
		"openapi": "3.1.0",
		"info": map[string]any{"title": "awf", "version": Version,
			"description": "awf serve: the reference awf's API (envelopes {\"body\": …}, RFC 9457 problems), server-sent events of runs, live pages."},
		"paths":      paths,
		"components": map[string]any{"schemas": schemas, "securitySchemes": map[string]any{"bearer": map[string]any{"type": "http", "scheme": "bearer"}}},
		"security":   []any{map[string]any{}, map[string]any{"bearer": []any{}}},
	}
}

var paramRE = regexp.MustCompile(`\{([A-Za-z_]+)\}`)

// pathParams are the {names} of a path pattern.
func pathParams(p string) []string {
	var out []string
	for _, m := range paramRE.FindAllStringSubmatch(p, -1) {
		out = append(out, m[1])
	}
	return out
}

// specPath is a ServeMux pattern as an OpenAPI path ("/{$}" is "/").
func specPath(p string) string { return strings.ReplaceAll(p, "{$}", "") }

func operationID(rt route) string {
	id := strings.ToLower(rt.method)
	for _, part := range strings.Split(specPath(rt.path), "/") {
		part = strings.Trim(part, "{}$")
		part = strings.NewReplacer(".", "", "-", "").Replace(part)
		if part != "" {
			id += strings.ToUpper(part[:1]) + part[1:]
		}
	}
	return id
}

// refOf is the schema of t: a $ref into components for a named struct, inline otherwise.
func refOf(t reflect.Type, schemas map[string]any) map[string]any {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == reflect.TypeFor[time.Time]() {
		return map[string]any{"type": "string", "format": "date-time"}
	}
	switch t.Kind() {
	case reflect.String:
		return map[string]any{"type": "string"}
	case reflect.Bool:
		return map[string]any{"type": "boolean"}
	case reflect.Int, reflect.Int64, reflect.Int32:
		return map[string]any{"type": "integer"}
	case reflect.Float64, reflect.Float32:
		return map[string]any{"type": "number"}
	case reflect.Slice:
		return map[string]any{"type": "array", "items": refOf(t.Elem(), schemas)}
	case reflect.Map:
		return map[string]any{"type": "object", "additionalProperties": refOf(t.Elem(), schemas)}
	case reflect.Interface:
		return map[string]any{}
	case reflect.Struct:
		name := t.Name()
		if _, done := schemas[name]; !done {
			schemas[name] = map[string]any{} // a placeholder against recursion
			schemas[name] = structSchema(t, schemas)
		}
		return map[string]any{"$ref": "#/components/schemas/" + name}
	}
	return map[string]any{}
}

// structSchema is an object schema with one property per JSON field; fields without omitempty
// are required.
func structSchema(t reflect.Type, schemas map[string]any) map[string]any {
	props := map[string]any{}
	required := []string{}
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if !f.IsExported() || tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if name == "" {
			name = f.Name
		}
		props[name] = refOf(f.Type, schemas)
		if !strings.Contains(opts, "omitempty") && f.Type.Kind() != reflect.Pointer {
			required = append(required, name)
		}
	}
	return map[string]any{"type": "object", "properties": props, "required": required}
}

func (s *Server) openAPI(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	writeRaw(w, OpenAPI())
}
