package embed

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestBuiltinModelFile loads a model file in the built-in format (as
// `bcindex-train adapt` writes) through bcindex.model: its own ID, so its
// vectors are never mixed with the shipped model's.
func TestBuiltinModelFile(t *testing.T) {
	base, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	vocab, tables := base.Tables()
	hdr := StaticHeader{ID: BuiltinID + "+repo-test", Dim: base.Dim(), Buckets: base.hdr.Buckets, MaxTokens: base.hdr.MaxTokens}
	var buf bytes.Buffer
	if err := EncodeStatic(&buf, hdr, vocab, tables); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "adapted.bin")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	e, err := New(Config{Model: path})
	if err != nil {
		t.Fatal(err)
	}
	if e.ID() != hdr.ID {
		t.Fatalf("ID = %q, want %q", e.ID(), hdr.ID)
	}
	if _, err := New(Config{Model: filepath.Join(t.TempDir(), "missing.bin")}); err == nil {
		t.Fatal("a missing model file was accepted")
	}
}
