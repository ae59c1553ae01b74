package embed

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// tokenIDs appends the token ids of text: BERT-style pre-tokenisation, then
// greedy longest-match-first WordPiece.
func (m *Model2Vec) tokenIDs(dst []int32, text string) []int32 {
	if m.lowercase {
		text = strings.ToLower(text)
	}
	n := 0
	emit := func(id int32) bool {
		if id == m.unk || id < 0 {
			return true
		}
		dst = append(dst, id)
		n++
		return n < m.maxTokens
	}
	word := func(w string) bool {
		if utf8.RuneCountInString(w) > m.maxWordChars {
			return emit(m.unk)
		}
		var pieces []int32
		for start := 0; start < len(w); {
			end, id := len(w), int32(-1)
			for end > start {
				sub := w[start:end]
				if start > 0 {
					sub = m.prefix + sub
				}
				if v, ok := m.vocab[sub]; ok {
					id = v
					break
				}
				_, size := utf8.DecodeLastRuneInString(w[start:end])
				end -= size
			}
			if id < 0 {
				return emit(m.unk) // the whole word is unknown, as in BERT
			}
			pieces = append(pieces, id)
			start = end
		}
		for _, id := range pieces {
			if !emit(id) {
				return false
			}
		}
		return true
	}
	start := -1
	for i, r := range text {
		split, keep := isBertSpace(r) || unicode.IsControl(r) || r == utf8.RuneError, false
		if !split && (isBertPunct(r) || isCJK(r)) {
			split, keep = true, true
		}
		if !split {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			if !word(text[start:i]) {
				return dst
			}
			start = -1
		}
		if keep && !word(text[i:i+utf8.RuneLen(r)]) {
			return dst
		}
	}
	if start >= 0 {
		word(text[start:])
	}
	return dst
}

func isBertSpace(r rune) bool {
	return r == ' ' || r == '\t' || r == '\n' || r == '\r' || unicode.Is(unicode.Zs, r)
}

// isBertPunct is BERT's punctuation: all non-alphanumeric ASCII printable
// characters, and Unicode punctuation.
func isBertPunct(r rune) bool {
	if (r >= 33 && r <= 47) || (r >= 58 && r <= 64) || (r >= 91 && r <= 96) || (r >= 123 && r <= 126) {
		return true
	}
	return unicode.IsPunct(r)
}

// isCJK reports CJK ideographs, which BERT splits one per token.
func isCJK(r rune) bool {
	return (r >= 0x4E00 && r <= 0x9FFF) || (r >= 0x3400 && r <= 0x4DBF) || (r >= 0x20000 && r <= 0x2A6DF) ||
		(r >= 0x2A700 && r <= 0x2B73F) || (r >= 0x2B740 && r <= 0x2B81F) || (r >= 0x2B820 && r <= 0x2CEAF) ||
		(r >= 0xF900 && r <= 0xFAFF) || (r >= 0x2F800 && r <= 0x2FA1F)
}

// tokenizerJSON is the part of a Hugging Face tokenizer.json read here.
type tokenizerJSON struct {
	Normalizer *normalizerJSON `json:"normalizer"`
	Model      struct {
		Type                    string           `json:"type"`
		Vocab                   map[string]int64 `json:"vocab"`
		UnkToken                *string          `json:"unk_token"`
		ContinuingSubwordPrefix *string          `json:"continuing_subword_prefix"`
		MaxInputCharsPerWord    int              `json:"max_input_chars_per_word"`
	} `json:"model"`
}

type normalizerJSON struct {
	Type        string           `json:"type"`
	Lowercase   *bool            `json:"lowercase"`
	Normalizers []normalizerJSON `json:"normalizers"`
}

// lowercases reports whether a normalizer lowercases its input.
func (n *normalizerJSON) lowercases() bool {
	if n == nil {
		return false
	}
	switch n.Type {
	case "BertNormalizer":
		return n.Lowercase == nil || *n.Lowercase
	case "Lowercase":
		return true
	case "Sequence":
		return slices.ContainsFunc(n.Normalizers, func(c normalizerJSON) bool { return c.lowercases() })
	}
	return false
}

func (m *Model2Vec) loadTokenizer(b []byte) error {
	var tj tokenizerJSON
	if err := json.Unmarshal(b, &tj); err != nil {
		return err
	}
	if tj.Model.Type != "" && tj.Model.Type != "WordPiece" {
		return fmt.Errorf("tokenizer model %q is not supported, only WordPiece", tj.Model.Type)
	}
	if len(tj.Model.Vocab) == 0 {
		return errors.New("model.vocab is empty or missing")
	}
	m.vocab = make(map[string]int32, len(tj.Model.Vocab))
	for t, id := range tj.Model.Vocab {
		if id < 0 || id > math.MaxInt32 {
			return fmt.Errorf("token %q has id %d", t, id)
		}
		m.vocab[t] = int32(id)
	}
	unk := "[UNK]"
	if tj.Model.UnkToken != nil {
		unk = *tj.Model.UnkToken
	}
	m.unk = -1
	if id, ok := m.vocab[unk]; ok {
		m.unk = id
	}
	m.prefix = "##"
	if tj.Model.ContinuingSubwordPrefix != nil {
		m.prefix = *tj.Model.ContinuingSubwordPrefix
	}
	m.maxWordChars = 100
	if tj.Model.MaxInputCharsPerWord > 0 {
		m.maxWordChars = tj.Model.MaxInputCharsPerWord
	}
	m.lowercase = tj.Normalizer.lowercases()
	return nil
}
