package toolset

import (
	"reflect"
	"testing"
)

func TestDefaultIntentIsStrictAndAllowsEveryVariant(t *testing.T) {
	if got := DefaultIntent(); !reflect.DeepEqual(got, Intent{Strict: true}) || got.Allow != nil {
		t.Fatalf("DefaultIntent() = %#v", got)
	}
}
