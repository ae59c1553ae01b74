package segment

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/pierrec/lz4/v4"
)

// TestStoreTextReuseWritesSameBytes: StoreText reuses its compressor and
// buffer across blobs; whatever it compressed before (a large blob, then
// small ones), each text is stored exactly as a new compressor stores it,
// in a slice of its own that a later call does not overwrite.
func TestStoreTextReuseWritesSameBytes(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var texts [][]byte
	for i := range 40 {
		var b strings.Builder
		lines := 1 + rng.IntN(2000)
		if i%10 == 0 {
			lines = 20000 // fills the hash table and grows the buffer
		}
		for j := range lines {
			fmt.Fprintf(&b, "func f%d_%d(x int) int { return x * %d }\n", i, rng.IntN(50), j%7)
		}
		texts = append(texts, []byte(b.String()))
	}
	fresh := func(content []byte) []byte {
		var c lz4.Compressor
		out := make([]byte, lz4.CompressBlockBound(len(content)))
		n, err := c.CompressBlock(content, out)
		if err != nil || n == 0 || n > len(content)-len(content)/8 {
			return content
		}
		return out[:n]
	}
	var stored [][]byte
	for _, text := range texts {
		stored = append(stored, StoreText(text, nil).Bytes)
	}
	compressed := 0
	for i, text := range texts {
		want := fresh(text)
		if !bytes.Equal(stored[i], want) {
			t.Fatalf("text %d (%d bytes): stored %d bytes, a new compressor %d", i, len(text), len(stored[i]), len(want))
		}
		if len(stored[i]) < len(text) {
			compressed++
			back := make([]byte, len(text))
			if n, err := lz4.UncompressBlock(stored[i], back); err != nil || !bytes.Equal(back[:n], text) {
				t.Fatalf("text %d does not decompress to itself: %v", i, err)
			}
		}
	}
	if compressed < len(texts)/2 {
		t.Fatalf("only %d of %d texts compressed: the test does not exercise the compressor", compressed, len(texts))
	}
}
