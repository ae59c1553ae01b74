package embed

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// tinyVocab is a WordPiece vocabulary in tokenizer.json's model.vocab.
var tinyVocab = []string{"[PAD]", "[UNK]", "[CLS]", "[SEP]", "parse", "pars", "##er", "##s", "the",
	"config", "##file", "file", "read", "(", ")", ".", "_", "http", "request", "func", "中", "{", "}", ":"}

const tinyDim = 4

// tinyQ and tinyScale define the table: row r = tinyQ(r) * tinyScale(r),
// values exact in F32, F16 and I8-with-scales.
func tinyQ(r, d int) int8     { return int8((r*7+d*3)%9 - 4) }
func tinyScale(r int) float32 { return 0.25 * float32(1+r%2) }

func tinyRow(r int) []float32 {
	v := make([]float32, tinyDim)
	for d := range v {
		v[d] = float32(tinyQ(r, d)) * tinyScale(r)
	}
	return v
}

type stTensor struct {
	name, dtype string
	shape       []int
	data        []byte
}

// writeSafetensors writes tensors in the safetensors format: u64 header
// length, JSON header (padded with spaces to 8 bytes), data.
func writeSafetensors(t *testing.T, path string, tensors []stTensor) {
	t.Helper()
	hdr := map[string]any{"__metadata__": map[string]string{"format": "pt"}}
	var data []byte
	for _, x := range tensors {
		hdr[x.name] = map[string]any{"dtype": x.dtype, "shape": x.shape, "data_offsets": []int{len(data), len(data) + len(x.data)}}
		data = append(data, x.data...)
	}
	h, _ := json.Marshal(hdr)
	for len(h)%8 != 0 {
		h = append(h, ' ')
	}
	out := binary.LittleEndian.AppendUint64(nil, uint64(len(h)))
	out = append(append(out, h...), data...)
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
}

func tableTensor(dtype string) stTensor {
	rows := len(tinyVocab)
	var b []byte
	for r := range rows {
		for d, x := range tinyRow(r) {
			switch dtype {
			case "F32":
				b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
			case "F16":
				b = binary.LittleEndian.AppendUint16(b, floatToHalf(x))
			case "I8":
				b = append(b, byte(tinyQ(r, d)))
			}
		}
	}
	return stTensor{"embeddings", dtype, []int{rows, tinyDim}, b}
}

// floatToHalf converts values that are exact in binary16 (tests only).
func floatToHalf(f float32) uint16 {
	bits := math.Float32bits(f)
	sign := uint16(bits>>16) & 0x8000
	if f == 0 {
		return sign
	}
	exp := int((bits>>23)&0xff) - 127 + 15
	return sign | uint16(exp)<<10 | uint16((bits>>13)&0x3ff)
}

func f32Tensor(name string, v []float32, shape ...int) stTensor {
	var b []byte
	for _, x := range v {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
	}
	return stTensor{name, "F32", shape, b}
}

// writeTinyModel writes a model2vec directory; tok edits tokenizer.json.
func writeTinyModel(t *testing.T, dir string, tensors []stTensor, tok func(map[string]any)) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	writeSafetensors(t, filepath.Join(dir, "model.safetensors"), tensors)
	vocab := map[string]int{}
	for i, w := range tinyVocab {
		vocab[w] = i
	}
	tj := map[string]any{
		"version":        "1.0",
		"normalizer":     map[string]any{"type": "BertNormalizer", "clean_text": true, "handle_chinese_chars": true, "strip_accents": nil, "lowercase": true},
		"pre_tokenizer":  map[string]any{"type": "BertPreTokenizer"},
		"post_processor": nil,
		"model": map[string]any{"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##",
			"max_input_chars_per_word": 100, "vocab": vocab},
	}
	if tok != nil {
		tok(tj)
	}
	b, _ := json.Marshal(tj)
	if err := os.WriteFile(filepath.Join(dir, "tokenizer.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := `{"model_type": "model2vec", "architectures": ["StaticModel"], "tokenizer_name": "tiny", "apply_pca": 4, "normalize": true, "hidden_dim": 4}`
	if err := os.WriteFile(filepath.Join(dir, "config.json"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func loadTiny(t *testing.T, tensors []stTensor, tok func(map[string]any)) *Model2Vec {
	t.Helper()
	m, err := LoadModel2Vec(writeTinyModel(t, filepath.Join(t.TempDir(), "tiny-model"), tensors, tok))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestModel2VecTokenize(t *testing.T) {
	m := loadTiny(t, []stTensor{tableTensor("F32")}, nil)
	cases := map[string]string{
		"Parse the ConfigFile.":    "parse the config ##file .",
		"parses":                   "parse ##s",
		"parser":                   "", // "parse" then no "##r": the whole word is unknown, and dropped
		"read_config(x)":           "read _ config ( )",
		"func{http:request}":       "func { http : request }",
		"中文 zzz":                   "中",
		"   ":                      "",
		strings.Repeat("a", 200):   "",
		"\tPARSE\u00a0the\nfile\r": "parse the file",
	}
	for in, want := range cases {
		if got := strings.Join(m.Tokens(in), " "); got != want {
			t.Errorf("Tokens(%q) = %q, want %q", in, got, want)
		}
	}
	// Without a lowercasing normalizer, "Parse" is unknown.
	m = loadTiny(t, []stTensor{tableTensor("F32")}, func(tj map[string]any) {
		tj["normalizer"] = map[string]any{"type": "Sequence", "normalizers": []any{map[string]any{"type": "NFC"}}}
	})
	if got := strings.Join(m.Tokens("Parse parse"), " "); got != "parse" {
		t.Errorf("case-sensitive Tokens = %q", got)
	}
	m = loadTiny(t, []stTensor{tableTensor("F32")}, func(tj map[string]any) {
		tj["normalizer"] = map[string]any{"type": "Sequence", "normalizers": []any{map[string]any{"type": "Lowercase"}}}
	})
	if got := strings.Join(m.Tokens("Parse"), " "); got != "parse" {
		t.Errorf("Sequence(Lowercase) Tokens = %q", got)
	}
}

// expectMean is the reference inference: mean of the token rows, unit length.
func expectMean(rows ...int) []float32 {
	v := make([]float32, tinyDim)
	for _, r := range rows {
		for d, x := range tinyRow(r) {
			v[d] += x
		}
	}
	normalize(v)
	return v
}

func idx(tok string) int { return slices.Index(tinyVocab, tok) }

func TestModel2VecInference(t *testing.T) {
	scales := make([]float32, len(tinyVocab))
	for r := range scales {
		scales[r] = tinyScale(r)
	}
	variants := map[string][]stTensor{
		"F32":              {tableTensor("F32")},
		"F16":              {tableTensor("F16")},
		"I8 + row scales":  {tableTensor("I8"), f32Tensor("scales", scales, len(scales))},
		"first 2-D tensor": {{"emb_table", "F32", []int{len(tinyVocab), tinyDim}, tableTensor("F32").data}, f32Tensor("a_vector", []float32{1}, 1)},
	}
	text := "Parse the ConfigFile."
	want := expectMean(idx("parse"), idx("the"), idx("config"), idx("##file"), idx("."))
	for name, tensors := range variants {
		t.Run(name, func(t *testing.T) {
			m := loadTiny(t, tensors, nil)
			if m.Dim() != tinyDim {
				t.Fatalf("Dim %d", m.Dim())
			}
			got, err := m.Embed(context.Background(), []string{text, "zzz"}, RoleQuery)
			if err != nil {
				t.Fatal(err)
			}
			for d := range want {
				if math.Abs(float64(got[0][d]-want[d])) > 1e-6 {
					t.Fatalf("vector %v, want %v", got[0], want)
				}
			}
			if norm(got[1]) != 0 {
				t.Errorf("text without known tokens: %v, want zero", got[1])
			}
			testEmbedder(t, m)
		})
	}
	// I8 with a single global scale: the direction is that of the raw q rows.
	m := loadTiny(t, []stTensor{tableTensor("I8"), f32Tensor("scale", []float32{0.5}, 1)}, nil)
	got, _ := m.Embed(context.Background(), []string{"parse the"}, RoleDocument)
	w := make([]float32, tinyDim)
	for _, r := range []int{idx("parse"), idx("the")} {
		for d := range w {
			w[d] += float32(tinyQ(r, d))
		}
	}
	normalize(w)
	for d := range w {
		if math.Abs(float64(got[0][d]-w[d])) > 1e-6 {
			t.Fatalf("global scale: %v, want %v", got[0], w)
		}
	}
	// Per-token weights.
	weights := make([]float32, len(tinyVocab))
	for i := range weights {
		weights[i] = 1
	}
	weights[idx("the")] = 0
	m = loadTiny(t, []stTensor{tableTensor("F32"), f32Tensor("weights", weights, len(weights))}, nil)
	got, _ = m.Embed(context.Background(), []string{"parse the"}, RoleDocument)
	w = expectMean(idx("parse"))
	for d := range w {
		if math.Abs(float64(got[0][d]-w[d])) > 1e-6 {
			t.Fatalf("weights: %v, want %v", got[0], w)
		}
	}
}

// IDs differ per dimension and per content, and name the model.
func TestModel2VecIDs(t *testing.T) {
	base := t.TempDir()
	a := loadTiny(t, []stTensor{tableTensor("F32")}, nil)
	if !strings.HasPrefix(a.ID(), "model2vec:tiny-model:4:") {
		t.Errorf("ID %q", a.ID())
	}
	// Same files elsewhere: same ID.
	b, err := LoadModel2Vec(writeTinyModel(t, filepath.Join(base, "x", "tiny-model"), []stTensor{tableTensor("F32")}, nil))
	if err != nil {
		t.Fatal(err)
	}
	if a.ID() != b.ID() {
		t.Errorf("same model, IDs %q and %q", a.ID(), b.ID())
	}
	// Other weights: other ID.
	other := tableTensor("F32")
	other.data[0] ^= 1
	c := loadTiny(t, []stTensor{other}, nil)
	// Other dimension: other ID.
	wide := stTensor{"embeddings", "F32", []int{len(tinyVocab) / 2, 2 * tinyDim}, tableTensor("F32").data}
	d := loadTiny(t, []stTensor{wide}, func(tj map[string]any) {
		v := map[string]int{}
		for i, w := range tinyVocab[:len(tinyVocab)/2] {
			v[w] = i
		}
		tj["model"].(map[string]any)["vocab"] = v
	})
	if d.Dim() != 2*tinyDim || !strings.HasPrefix(d.ID(), "model2vec:tiny-model:8:") {
		t.Errorf("wide model: Dim %d, ID %q", d.Dim(), d.ID())
	}
	ids := map[string]bool{a.ID(): true, c.ID(): true, d.ID(): true}
	if len(ids) != 3 {
		t.Errorf("IDs not distinct: %q %q %q", a.ID(), c.ID(), d.ID())
	}
	// Through New, with bcindex.dimensions checked.
	dir := writeTinyModel(t, filepath.Join(base, "potion-tiny"), []stTensor{tableTensor("F16")}, nil)
	e, err := New(Config{Provider: "model2vec", Model: dir})
	if err != nil || !strings.HasPrefix(e.ID(), "model2vec:potion-tiny:4:") {
		t.Fatalf("New: %v, %v", e, err)
	}
	_, err = New(Config{Provider: "model2vec", Model: dir, Dimensions: 8})
	var ce *ConfigError
	if !errors.As(err, &ce) || ce.Key != "bcindex.dimensions" {
		t.Errorf("dimension mismatch: %v", err)
	}
}

func TestModel2VecErrors(t *testing.T) {
	good := []stTensor{tableTensor("F32")}
	cases := []struct {
		name string
		edit func(dir string)
		want string
	}{
		{"no safetensors", func(dir string) { os.Remove(filepath.Join(dir, "model.safetensors")) }, "model.safetensors"},
		{"no tokenizer", func(dir string) { os.Remove(filepath.Join(dir, "tokenizer.json")) }, "tokenizer.json"},
		{"bad config", func(dir string) { os.WriteFile(filepath.Join(dir, "config.json"), []byte("{"), 0o644) }, "config.json"},
		{"truncated safetensors", func(dir string) { os.WriteFile(filepath.Join(dir, "model.safetensors"), []byte{1, 2, 3}, 0o644) }, "too short"},
		{"huge header", func(dir string) {
			os.WriteFile(filepath.Join(dir, "model.safetensors"), binary.LittleEndian.AppendUint64(nil, 1<<40), 0o644)
		}, "header of"},
		{"offsets", func(dir string) {
			x := tableTensor("F32")
			x.data = x.data[:len(x.data)-4]
			writeSafetensors(t, filepath.Join(dir, "model.safetensors"), []stTensor{x})
		}, "data offsets"},
		{"dtype", func(dir string) {
			x := tableTensor("F32")
			x.dtype = "I32"
			writeSafetensors(t, filepath.Join(dir, "model.safetensors"), []stTensor{x})
		}, "dtype I32"},
		{"no table", func(dir string) {
			writeSafetensors(t, filepath.Join(dir, "model.safetensors"), []stTensor{f32Tensor("v", []float32{1}, 1)})
		}, "no 2-D tensor"},
		{"vocab beyond table", func(dir string) {
			x := tableTensor("F32")
			x.shape[0] = 3
			x.data = x.data[:3*tinyDim*4]
			writeSafetensors(t, filepath.Join(dir, "model.safetensors"), []stTensor{x})
		}, "row"},
		{"BPE", func(dir string) {
			os.WriteFile(filepath.Join(dir, "tokenizer.json"), []byte(`{"model":{"type":"BPE","vocab":{"a":0},"merges":[]}}`), 0o644)
		}, "only WordPiece"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := writeTinyModel(t, t.TempDir(), good, nil)
			c.edit(dir)
			_, err := LoadModel2Vec(dir)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("err = %v, want %q", err, c.want)
			}
		})
	}
}

func TestHalfToFloat(t *testing.T) {
	cases := map[uint16]float32{0x0000: 0, 0x3c00: 1, 0xc000: -2, 0x3555: 0.333251953125, 0x0001: 5.960464477539063e-08, 0x7bff: 65504}
	for h, want := range cases {
		if got := halfToFloat(h); got != want {
			t.Errorf("halfToFloat(%#04x) = %v, want %v", h, got, want)
		}
	}
	if !math.IsInf(float64(halfToFloat(0x7c00)), 1) || !math.IsNaN(float64(halfToFloat(0x7e00))) {
		t.Error("Inf/NaN")
	}
}
