package embed

import (
	"reflect"
	"testing"
)

func TestTokens(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"fooBar", []string{"foo", "bar"}},
		{"HTTPServer", []string{"http", "server"}},
		{"parse_http_request", []string{"parse", "http", "request"}},
		{"utf8Decode", []string{"utf", "8", "decode"}},
		{"getID()", []string{"get", "id"}},
		{"XMLHttpRequest2", []string{"xml", "http", "request", "2"}},
		{"// Returns the user's name.", []string{"returns", "the", "user", "s", "name"}},
		{"ÄpfelBäume", []string{"äpfel", "bäume"}},
		{"a.b-c", []string{"a", "b", "c"}},
		{"x0123456789012345678901234567890123456789abc y", []string{"y"}}, // too long: dropped
	}
	for _, tt := range tests {
		if got := Tokens(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Tokens(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func FuzzTokens(f *testing.F) {
	f.Add("HTTPServer_fooBar9 \xff ÄÖ")
	f.Fuzz(func(t *testing.T, s string) {
		for _, tok := range Tokens(s) {
			if tok == "" {
				t.Fatalf("empty token from %q", s)
			}
		}
	})
}
