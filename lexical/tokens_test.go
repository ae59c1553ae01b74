package lexical

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestTokens(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string
	}{
		{"empty", "", nil},
		{"spaces", " \t\n ", nil},
		{"lower", "hello", []string{"hello"}},
		{"camel", "parseJson", []string{"parse", "json", "parsejson"}},
		{"pascal", "ParseJson", []string{"parse", "json", "parsejson"}},
		{"acronym first", "HTTPServer", []string{"http", "server", "httpserver"}},
		{"acronym last", "parseJSON", []string{"parse", "json", "parsejson"}},
		{"acronym middle", "newHTTPClient", []string{"new", "http", "client", "newhttpclient"}},
		{"acronym only", "HTTP", []string{"http"}},
		{"two-letter acronym", "IOError", []string{"io", "error", "ioerror"}},
		{"plural acronym", "URLs", []string{"urls"}},
		{"plural acronym camel", "userIDs", []string{"user", "ids", "userids"}},
		{"acronym lone lower", "IPv6", []string{"ipv", "6", "ipv6"}},
		{"digits", "parseJSON2Yaml", []string{"parse", "json", "2", "yaml", "parsejson2yaml"}},
		{"trailing digits", "utf8", []string{"utf", "8", "utf8"}},
		{"int64", "int64", []string{"int", "64", "int64"}},
		{"acronym digits", "HTTP2Server", []string{"http", "2", "server", "http2server"}},
		{"number", "404 8080 0", []string{"404", "8080", "0"}},
		{"hex", "0x1F", []string{"0", "1", "0x1f"}},
		{"one letter dropped", "v2 k8s x", []string{"2", "v2", "8", "k8s"}},
		{"snake", "parse_json_file", []string{"parse", "json", "file", "parse_json_file"}},
		{"screaming snake", "MAX_BUFFER_SIZE", []string{"max", "buffer", "size", "max_buffer_size"}},
		{"snake camel", "get_HTTPHeader", []string{"get", "http", "header", "get_httpheader"}},
		{"dunder", "__init__", []string{"init"}},
		{"dunder two", "__class_getitem__", []string{"class", "getitem", "class_getitem"}},
		{"underscore only", "_ __ ___", nil},
		{"kebab", "max-width", []string{"max", "width", "max-width"}},
		{"kebab cli", "git-bcindex", []string{"git", "bcindex", "git-bcindex"}},
		{"minus digit", "n-1", []string{"1"}},
		{"minus spaced", "len - off", []string{"len", "off"}},
		{"arrow", "ptr->next", []string{"ptr", "next"}},
		{"flag", "--dry-run", []string{"dry", "run", "dry-run"}},
		{"double hyphen", "foo--bar", []string{"foo", "bar"}},
		{"trailing hyphen", "foo- bar-", []string{"foo", "bar"}},
		{"stop words", "The name of the thing is in it", []string{"name", "thing"}},
		{"all stop words", "the a an of to and or is in for with on by be this that it as at", nil},
		{"stop sub-token", "isValid toString", []string{"valid", "isvalid", "string", "tostring"}},
		{"stop word case", "THE And", nil},
		{"not stop words", "then andy isa", []string{"then", "andy", "isa"}},
		{"go code", `func (s *Server) ListenAndServe() error { return http.ErrServerClosed }`,
			[]string{"func", "server", "listen", "serve", "listenandserve", "error", "return", "http", "err", "server", "closed", "errserverclosed"}},
		{"punctuation", `a[i]+=b->c;/*x*/ if(!x&&y||z){}`, []string{"if"}},
		{"selector", "os.ReadFile(filepath.Join(dir, \"go.mod\"))",
			[]string{"os", "read", "file", "readfile", "filepath", "join", "dir", "go", "mod"}},
		{"string escapes", `"\n\tfoo\x00bar"`, []string{"tfoo", "00", "bar", "x00bar"}},
		{"url", "https://example.com/a_b?q=1", []string{"https", "example", "com", "a_b", "1"}},
		{"greek", "ΑλφαΒήτα", []string{"αλφα", "βήτα", "αλφαβήτα"}},
		{"accents", "naïve Café", []string{"naïve", "café"}},
		{"combining mark", "e\u0301te\u0301", []string{"e\u0301te\u0301"}},
		{"sharp s", "Straße", []string{"straße"}},
		{"cyrillic camel", "получитьИмя", []string{"получить", "имя", "получитьимя"}},
		{"han", "日本語", []string{"日本語"}},
		{"han latin", "日本語Text", []string{"日本語", "text", "日本語text"}},
		{"single non-ascii letter", "π 中", []string{"π", "中"}},
		{"kelvin sign", "\u212A", nil},
		{"arabic digits", "x٣٤", []string{"٣٤", "x٣٤"}},
		{"invalid utf8", "\xff\xfeabc\xffDef\xc3", []string{"abc", "def"}},
		{"invalid inside ident", "foo\x80Bar", []string{"foo", "bar"}},
		{"replacement char", "foo\uFFFDbar", []string{"foo", "bar"}},
		{"emoji", "go🚀fast", []string{"go", "fast"}},
		{"long token dropped", strings.Repeat("ab", 40), nil},
		{"long whole dropped", strings.Repeat("Ab", 40), slices.Repeat([]string{"ab"}, 40)},
		{"max length kept", strings.Repeat("x", MaxTokenLen), []string{strings.Repeat("x", MaxTokenLen)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Tokens(tt.in)
			if !slices.Equal(got, tt.want) {
				t.Errorf("Tokens(%q)\n got %q\nwant %q", tt.in, got, tt.want)
			}
			checkTokens(t, tt.in, got)
		})
	}
}

// checkTokens asserts the invariants every token satisfies.
func checkTokens(t *testing.T, in string, toks []string) {
	t.Helper()
	for _, tok := range toks {
		switch {
		case tok == "":
			t.Fatalf("Tokens(%q): empty token", in)
		case !utf8.ValidString(tok):
			t.Fatalf("Tokens(%q): invalid UTF-8 token %q", in, tok)
		case len(tok) > MaxTokenLen:
			t.Fatalf("Tokens(%q): token %q longer than %d", in, tok, MaxTokenLen)
		case len(tok) == 1 && !('0' <= tok[0] && tok[0] <= '9'):
			t.Fatalf("Tokens(%q): one-letter token %q", in, tok)
		case isStopWord([]byte(tok)):
			t.Fatalf("Tokens(%q): stop word %q", in, tok)
		}
		for _, r := range tok {
			if unicode.ToLower(r) != r || r != '_' && r != '-' && !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.IsMark(r) {
				t.Fatalf("Tokens(%q): token %q has rune %q", in, tok, r)
			}
		}
		if strings.Trim(tok, "_-") != tok {
			t.Fatalf("Tokens(%q): token %q has outer joiners", in, tok)
		}
	}
}

// Queries and documents must agree: a document containing an identifier
// produces every token the identifier alone does.
func TestTokensQueryConsistency(t *testing.T) {
	for _, q := range []string{"HTTPServer", "parse_json", "max-width", "utf8", "userIDs", "getHTTPResponseCode"} {
		doc := Tokens("x := " + q + "(y) // " + q)
		for _, tok := range Tokens(q) {
			if !slices.Contains(doc, tok) {
				t.Errorf("query %q token %q missing from document tokens %q", q, tok, doc)
			}
		}
	}
}

func TestTokensNoAliasing(t *testing.T) {
	// Pooled buffers must not leak between calls.
	a := Tokens("alphaBeta gammaDelta")
	want := slices.Clone(a)
	for range 100 {
		Tokens("zzzzzzzzzz yyyyyyyyyy xxxxxxxxxx")
	}
	if !slices.Equal(a, want) {
		t.Fatalf("tokens changed after later calls: %q, want %q", a, want)
	}
}

// TestAppendTokens appends a text's tokens to those of another as Tokens
// returns them, into one slice, leaving the start as it was.
func TestAppendTokens(t *testing.T) {
	name, text := "ServeHTTP", "func (s *Server) ServeHTTP(w ResponseWriter, r *Request) { s.mux.ServeHTTP(w, r) }"
	start := Tokens(name)
	kept := slices.Clone(start)
	got := AppendTokens(start, text)
	if want := append(slices.Clone(start), Tokens(text)...); !slices.Equal(got, want) {
		t.Fatalf("AppendTokens = %q, want %q", got, want)
	}
	if !slices.Equal(start, kept) {
		t.Errorf("the start changed: %q, was %q", start, kept)
	}
	if got := AppendTokens(start, "  \n"); !slices.Equal(got, start) {
		t.Errorf("no tokens: %q, want %q", got, start)
	}
	if n := testing.AllocsPerRun(100, func() { AppendTokens(Tokens(name), text) }); n > 4 {
		t.Errorf("AppendTokens(Tokens(name), text) allocates %v times, want <= 4", n)
	}
}

func TestTokensAllocs(t *testing.T) {
	text := strings.Repeat("func (s *Server) ListenAndServe() error { return s.serveHTTP(w, r) }\n", 20)
	Tokens(text)
	if n := testing.AllocsPerRun(100, func() { Tokens(text) }); n > 2 {
		t.Errorf("Tokens allocates %v times per call, want <= 2", n)
	}
}

func FuzzTokens(f *testing.F) {
	for _, s := range []string{
		"", "HTTPServer", "parseJSON2Yaml", "__init__", "max-width", "a-1", "日本語Text",
		"\xff\xfe", "e\u0301", "ǅungla", "\u212A", "İstanbul", "ⱥȺ", "x٣٤",
		"func main() { fmt.Println(\"héllo, 世界\") }",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		toks := Tokens(s)
		checkTokens(t, s, toks)
		if again := Tokens(s); !slices.Equal(toks, again) {
			t.Fatalf("Tokens(%q) not deterministic: %q then %q", s, toks, again)
		}
	})
}

// goSources returns the Go files of GOROOT/src/net/http.
func goSources(b *testing.B) [][]byte {
	dir := filepath.Join(goroot(), "src", "net", "http")
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	if len(files) == 0 {
		b.Skipf("no Go sources in %s", dir)
	}
	var srcs [][]byte
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			b.Fatal(err)
		}
		srcs = append(srcs, data)
	}
	return srcs
}

func BenchmarkTokens(b *testing.B) {
	srcs := goSources(b)
	texts := make([]string, len(srcs))
	var size int64
	for i, s := range srcs {
		texts[i] = string(s)
		size += int64(len(s))
	}
	b.SetBytes(size)
	b.ReportAllocs()
	b.ResetTimer()
	ntok := 0
	for b.Loop() {
		ntok = 0
		for _, s := range texts {
			ntok += len(Tokens(s))
		}
	}
	b.ReportMetric(float64(ntok), "tokens/op")
}
