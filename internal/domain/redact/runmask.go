package redact

import (
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
)

// AddInputs masks the values of the workflow inputs whose names mark them secret (IsSecretName:
// api_key, db_password), each under the label "input NAME": what a run masks, and what its
// report masks again when it renders the run. A value of any type counts: a string, a number as
// it prints (12345678), every item of an array and every value of an object in it.
func (r *Redactor) AddInputs(inputs map[string]any) {
	for name, v := range inputs {
		if IsSecretName(name) {
			r.addAll("input "+name, leaves(v, nil))
		}
	}
}

// addAll masks values under label, numbered when there are several (an AddValue label holds
// one value).
func (r *Redactor) addAll(label string, values []string) {
	for i, v := range values {
		if i == 0 {
			r.AddValue(label, v)
		} else {
			r.AddValue(label+" #"+strconv.Itoa(i+1), v)
		}
	}
}

// AddGiven masks the raw text given for secret-named inputs (`--input db_password=…`) before
// it is checked, so an error quoting a value that does not fit its type is masked like the
// value itself.
func (r *Redactor) AddGiven(given map[string][]string) {
	for name, raws := range given {
		if !IsSecretName(name) {
			continue
		}
		var values []string
		for _, raw := range raws {
			values = append(values, raw, strings.TrimSpace(raw))
		}
		r.addAll("input "+name, values)
	}
}

// SecretInputValues lists, as text, the values AddInputs masks for inputs; a reader of an old
// run's record uses it when the record kept no mask set.
func SecretInputValues(inputs map[string]any) []string {
	var out []string
	for name, v := range inputs {
		if IsSecretName(name) {
			out = leaves(v, out)
		}
	}
	return out
}

// leaves appends the texts of v's scalar leaves: strings as they are, numbers as they print in
// a command or JSON, items of lists and values of objects recursively. Booleans and nil are no
// secrets.
func leaves(v any, out []string) []string {
	switch x := v.(type) {
	case nil, bool:
		return out
	case string:
		return append(out, x)
	case json.Number:
		return append(out, x.String())
	case float64:
		return append(out, strconv.FormatFloat(x, 'f', -1, 64))
	case float32:
		return append(out, strconv.FormatFloat(float64(x), 'f', -1, 32))
	case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		return append(out, formatInt(x))
	case map[string]any:
		for _, e := range x {
			out = leaves(e, out)
		}
		return out
	case []any:
		for _, e := range x {
			out = leaves(e, out)
		}
		return out
	}
	// Named list and map types (an array input's InputList) and other slices.
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Slice, reflect.Array:
		for i := 0; i < rv.Len(); i++ {
			out = leaves(rv.Index(i).Interface(), out)
		}
	case reflect.Map:
		for it := rv.MapRange(); it.Next(); {
			out = leaves(it.Value().Interface(), out)
		}
	case reflect.String:
		out = append(out, rv.String())
	}
	return out
}

// formatInt prints an integer of any Go integer type in decimal.
func formatInt(v any) string {
	rv := reflect.ValueOf(v)
	if rv.CanInt() {
		return strconv.FormatInt(rv.Int(), 10)
	}
	return strconv.FormatUint(rv.Uint(), 10)
}

// AddMasks masks values kept from an earlier masking pass, under no name: the mask set a run
// keeps in its record (Found), which status, history, report and resume add so that what the
// run masked stays masked whether or not its variables are still set.
func (r *Redactor) AddMasks(values ...string) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	added := false
	for _, v := range values {
		if len(v) >= MinRun && !r.kept[v] {
			r.kept[v] = true
			added = true
		}
	}
	if added {
		r.rebuild()
	}
}

// Found returns the texts of s that String masks (each masked run as it stands in s), in
// order; shorter than MinRun ones are left out, since only shapes mask those and the shapes
// find them again. A run keeps what Found returns for the text of its record, which holds
// those texts already: the set names no secret the record did not hold.
func (r *Redactor) Found(s string) []string {
	if r == nil || s == "" {
		return nil
	}
	var out []string
	for _, sp := range r.find(s) {
		if sp.end-sp.start >= MinRun {
			out = append(out, s[sp.start:sp.end])
		}
	}
	return out
}

// FoundIn is Found over every string of a decoded JSON value (or any tree Value takes), map
// keys included, appended to out.
func (r *Redactor) FoundIn(v any, out []string) []string {
	if r == nil {
		return out
	}
	switch x := v.(type) {
	case string:
		return append(out, r.Found(x)...)
	case map[string]any:
		for k, e := range x {
			out = append(out, r.Found(k)...)
			out = r.FoundIn(e, out)
		}
		return out
	case []any:
		for _, e := range x {
			out = r.FoundIn(e, out)
		}
		return out
	}
	for _, s := range leaves(v, nil) {
		out = append(out, r.Found(s)...)
	}
	return out
}
