package run

import (
	"fmt"
	"reflect"
)

// strictIndex replaces text/template's index: a key a map does not hold is an error, as
// .inputs.nope is under missingkey=error, instead of "<no value>" pasted into a command. Lists
// and strings take an integer index within bounds.
func strictIndex(item any, keys ...any) (any, error) {
	v := reflect.ValueOf(item)
	for _, k := range keys {
		for v.IsValid() && (v.Kind() == reflect.Interface || v.Kind() == reflect.Pointer) && !v.IsNil() {
			v = v.Elem()
		}
		switch v.Kind() {
		case reflect.Map:
			kv := reflect.ValueOf(k)
			if !kv.IsValid() || !kv.Type().ConvertibleTo(v.Type().Key()) || kv.Kind() != v.Type().Key().Kind() {
				return nil, fmt.Errorf("index: a key of type %T cannot index a map with %s keys", k, v.Type().Key())
			}
			e := v.MapIndex(kv.Convert(v.Type().Key()))
			if !e.IsValid() {
				return nil, fmt.Errorf("index: map has no entry for key %v", k)
			}
			v = e
		case reflect.Slice, reflect.Array, reflect.String:
			i, ok := intOf(k)
			if !ok {
				return nil, fmt.Errorf("index: a list is indexed by an integer, not %T", k)
			}
			if i < 0 || i >= int64(v.Len()) {
				return nil, fmt.Errorf("index: index %d out of range (the value has %d items)", i, v.Len())
			}
			v = v.Index(int(i))
		default:
			return nil, fmt.Errorf("index: cannot index a value of type %s", kindName(v))
		}
	}
	if !v.IsValid() {
		return nil, nil
	}
	return v.Interface(), nil
}

func intOf(k any) (int64, bool) {
	switch n := k.(type) {
	case int:
		return int64(n), true
	case int64:
		return n, true
	case int32:
		return int64(n), true
	}
	return 0, false
}

func kindName(v reflect.Value) string {
	if !v.IsValid() {
		return "nil"
	}
	return v.Type().String()
}
