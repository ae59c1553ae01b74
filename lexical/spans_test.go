package lexical

import (
	"reflect"
	"testing"
)

func TestSpans(t *testing.T) {
	text := "func parseJSON2Yaml(HTTPServer x) // retry_with_backoff"
	var got []string
	for _, s := range Spans(text) {
		if text[s.Start:s.End] == "" {
			t.Fatalf("empty span %+v", s)
		}
		got = append(got, s.Token+"="+text[s.Start:s.End])
	}
	want := []string{
		"func=func",
		"parse=parse", "json=JSON", "2=2", "yaml=Yaml", "parsejson2yaml=parseJSON2Yaml",
		"http=HTTP", "server=Server", "httpserver=HTTPServer",
		"retry=retry", "backoff=backoff", "retry_with_backoff=retry_with_backoff",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Spans:\n got %q\nwant %q", got, want)
	}
}

// TestSpansAgreeWithTokens checks that every span's token is one Tokens
// emits for the same text, so highlighting and search agree.
func TestSpansAgreeWithTokens(t *testing.T) {
	for _, text := range []string{"userIDs URLs IPv6 max-width --flag a-1 x->y", "Größe straße", "中文Name", "__init__"} {
		toks := map[string]bool{}
		for _, tok := range Tokens(text) {
			toks[tok] = true
		}
		for _, s := range Spans(text) {
			if !toks[s.Token] {
				t.Errorf("%q: span token %q not among Tokens %v", text, s.Token, Tokens(text))
			}
		}
	}
}
