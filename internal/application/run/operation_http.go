package run

import (
	"bytes"
	"errors"
	"maps"
	"sort"
	"strings"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/urlsafe"
	"github.com/awf-dev/awf/internal/domain/workflow"
)

// httpRequest is the built-in operation whose url and headers are rendered for their place.
const httpRequest = "http.request"

// operationInputs renders an operation state's inputs as data. For http.request the url is
// rendered part by part (renderURL) and no header may hold a line break, so that a value can
// neither send the request elsewhere nor add a header (docs/decisions/0027-values-out-of-band.md).
func operationInputs(st *workflow.State, name string, given map[string]any, scope Scope) (map[string]any, error) {
	rest := given
	if name == httpRequest {
		rest = maps.Clone(given)
		delete(rest, "url")
	}
	in, err := renderInputs(st, "inputs", rest, scope)
	if err != nil {
		return nil, err
	}
	inputs, _ := in.(map[string]any)
	if inputs == nil {
		inputs = map[string]any{}
	}
	if name != httpRequest {
		return inputs, nil
	}
	if text, ok := given["url"].(string); ok {
		if inputs["url"], err = renderURL(st.Name+".inputs.url", text, scope, st.ValueAt("inputs.url")); err != nil {
			return nil, err
		}
	} else if v, ok := given["url"]; ok {
		inputs["url"] = v // not text: the operation says what it needs
	}
	return inputs, checkHeaders(st, inputs["headers"])
}

// renderURL fills an http.request url template with each value escaped for the URL part it
// lands in, and refuses a rendered URL whose scheme, host or port is not the template's.
func renderURL(name, text string, scope Scope, pos fault.Position) (string, error) {
	if !strings.Contains(text, "{{") {
		return text, nil
	}
	data := scope.Data()
	t, err := parseTemplate(name, text, scope, data, pos)
	if err != nil {
		return "", err
	}
	plan, err := urlsafe.Prepare(t, text)
	if err != nil {
		return "", fault.Wrap(err, fault.UserTemplateURLPlace, "template in %s puts a value where it would choose where the request goes", name).At(pos).
			WithHint("write the scheme and host in the template; mark a value you trust {{raw …}}")
	}
	var b bytes.Buffer
	if err := t.Execute(&b, data); err != nil {
		return "", execError(err, name, pos)
	}
	if err := plan.Verify(b.String()); err != nil {
		hint := "a value tried to send the request to another host; check where the value comes from"
		if errors.Is(err, urlsafe.ErrDotSegment) {
			hint = "a value of the path is `.` or `..`; check where the value comes from"
		}
		return "", fault.Wrap(err, fault.UserTemplateURLChanged, "the url of %s is refused", name).At(pos).WithHint("%s", hint)
	}
	return b.String(), nil
}

// checkHeaders refuses a header name or value with a line break or a NUL: it would end the
// header and start another (or a body) on the wire.
func checkHeaders(st *workflow.State, v any) error {
	hs, _ := v.(map[string]any)
	names := make([]string, 0, len(hs))
	for k := range hs {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		s, _ := hs[k].(string)
		if strings.ContainsAny(k, "\r\n\x00") || strings.ContainsAny(s, "\r\n\x00") {
			return fault.New(fault.UserOperationHeaderValue, "header %q of state %q holds a line break or NUL, which would add a header of its own", clip(k), st.Name).
				At(st.ValueAt("inputs.headers." + k)).
				WithHint("check where the value comes from; send multi-line data in the body instead")
		}
	}
	return nil
}
