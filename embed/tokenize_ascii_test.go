package embed

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// refTokens is Tokens rune by rune, as it was before ASCII words were
// split byte by byte.
func refTokens(text string) []string {
	var dst []string
	buf := new([]byte)
	start := -1
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if start < 0 {
				start = i
			}
		} else if start >= 0 {
			dst = splitWord(dst, buf, text[start:i])
			start = -1
		}
		i += size
	}
	if start >= 0 {
		dst = splitWord(dst, buf, text[start:])
	}
	return dst
}

// TestTokensASCIIPath: Tokens, which splits ASCII words byte by byte,
// gives the rune-by-rune sub-tokens on real sources, on mixed scripts and
// on random strings of letters, digits, capitals and separators.
func TestTokensASCIIPath(t *testing.T) {
	texts := []string{"", "HTTPServer utf8 fooBar_baz IPv6 URLs x2y ÀlaCarte naïveHTTP 東京Tower ǅemal ABCdef",
		strings.Repeat("a", 41) + " " + strings.Repeat("B", 40) + " parseHTTP2Request", "A1b2C3dE\xffF"}
	paths, _ := filepath.Glob(filepath.Join(runtime.GOROOT(), "src", "unicode", "*", "*.go"))
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		texts = append(texts, string(b))
	}
	rng := rand.New(rand.NewPCG(7, 8))
	alphabet := []rune("aZbY09_ -.éÉß東ǅ\u0301xX")
	for range 5000 {
		rs := make([]rune, rng.IntN(60))
		for i := range rs {
			rs[i] = alphabet[rng.IntN(len(alphabet))]
		}
		texts = append(texts, string(rs))
	}
	for _, text := range texts {
		if got, want := Tokens(text), refTokens(text); !slices.Equal(got, want) {
			t.Fatalf("Tokens(%q) = %q, rune by rune %q", text[:min(len(text), 80)], got, want)
		}
	}
	if len(paths) == 0 {
		t.Fatal("no sources read")
	}
}
