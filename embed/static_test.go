package embed

import (
	"bytes"
	"context"
	"math/rand/v2"
	"strings"
	"testing"
)

// tinyStatic builds a small random model in the real file format.
func tinyStatic(t testing.TB, tables int) *Static {
	t.Helper()
	vocab := []string{"parse", "http", "request", "read", "config", "file", "json", "return"}
	hdr := StaticHeader{ID: "tiny-v1", Dim: 16, Buckets: 8, MaxTokens: 64}
	rows := len(vocab) + hdr.Buckets
	rng := rand.New(rand.NewPCG(1, 2))
	var ts []StaticTable
	for k := 0; k < tables; k++ {
		tb := StaticTable{Weight: make([]float32, rows), Rows: make([][]float32, rows)}
		for r := range tb.Rows {
			tb.Weight[r] = 1 + float32(r%3)
			tb.Rows[r] = make([]float32, hdr.Dim)
			for j := range tb.Rows[r] {
				tb.Rows[r][j] = float32(rng.NormFloat64())
			}
		}
		ts = append(ts, tb)
	}
	var buf bytes.Buffer
	if err := EncodeStatic(&buf, hdr, vocab, ts); err != nil {
		t.Fatal(err)
	}
	m, err := LoadStatic(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestStatic(t *testing.T) {
	for _, n := range []int{1, 2} {
		m := tinyStatic(t, n)
		testEmbedder(t, m)
		if m.Row("parse") != 0 || m.Row("unknownword") < 8 || m.Row("unknownword") >= 16 {
			t.Errorf("Row: parse %d, unknownword %d", m.Row("parse"), m.Row("unknownword"))
		}
		ctx := context.Background()
		d, _ := m.Embed(ctx, []string{"parseHTTPRequest"}, RoleDocument)
		q, _ := m.Embed(ctx, []string{"parseHTTPRequest"}, RoleQuery)
		same := cosine(d[0], q[0]) > 0.9999
		if same != (n == 1) {
			t.Errorf("%d tables: query and document vectors equal = %v", n, same)
		}
	}
}

func TestLoadStaticErrors(t *testing.T) {
	m := tinyStatic(t, 1)
	_ = m
	var buf bytes.Buffer
	vocab := []string{"a"}
	hdr := StaticHeader{ID: "x", Dim: 2, Buckets: 1}
	tb := StaticTable{Weight: []float32{1, 1}, Rows: [][]float32{{1, 0}, {0, 1}}}
	if err := EncodeStatic(&buf, hdr, vocab, []StaticTable{tb}); err != nil {
		t.Fatal(err)
	}
	good := buf.Bytes()
	for _, bad := range [][]byte{nil, []byte("BCEMBED0xxxx"), good[:len(good)-1], append(append([]byte{}, good...), 0)} {
		if _, err := LoadStatic(bad); err == nil || !strings.Contains(err.Error(), "load static model") {
			t.Errorf("LoadStatic(%d bytes): err = %v", len(bad), err)
		}
	}
	if err := EncodeStatic(&buf, hdr, []string{"a\nb"}, []StaticTable{tb}); err == nil {
		t.Error("EncodeStatic accepted a token with a newline")
	}
}

func TestStaticTablesRoundTrip(t *testing.T) {
	m := tinyStatic(t, 2)
	vocab, tables := m.Tables()
	var buf bytes.Buffer
	if err := EncodeStatic(&buf, m.Header(), vocab, tables); err != nil {
		t.Fatal(err)
	}
	m2, err := LoadStatic(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	a, _ := m.Embed(ctx, []string{"parse http request config"}, RoleQuery)
	b, _ := m2.Embed(ctx, []string{"parse http request config"}, RoleQuery)
	if c := cosine(a[0], b[0]); c < 0.9999 {
		t.Errorf("round trip changed the vector: cosine %v", c)
	}
}
