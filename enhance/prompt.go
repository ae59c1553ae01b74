package enhance

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/bcindex/bcindex/internal/httpapi"
	"github.com/bcindex/bcindex/llm"
)

// PromptVersion names the prompts and answer format below; it is part of
// every stored summary's key, so changing them means raising it, after
// which chunks are summarised anew (older summaries stay until gc).
const PromptVersion = 1

// Summary is what the model writes about one chunk.
type Summary struct {
	Summary  string   `json:"summary"`
	Keywords []string `json:"keywords,omitempty"`
	Purpose  string   `json:"purpose,omitempty"`
}

// Record is a stored summary: generated text, never the author's.
type Record struct {
	Summary
	Model     string `json:"model"`
	Prompt    int    `json:"prompt"`
	Generated bool   `json:"generated"` // always true: shown as generated, never as a doc comment
}

// maxChunkText bounds one chunk's text in a prompt; longer ones are cut
// (the summary of a huge function from its first part beats none).
const maxChunkText = 6000

const systemPrompt = `You summarise source code for a code search index. Answer with one JSON object only, no prose, in the form
{"chunks":[{"id":1,"summary":"...","keywords":["..."],"purpose":"..."}]}
with one entry per chunk you are given, by its id.`

const macroAsk = `For each definition: "summary" is 2-3 sentences on what the code does and why, in plain words a developer would search with; "keywords" are 8-12 search terms (concepts, not just identifiers); "purpose" is a short phrase (e.g. "retry a request with backoff").`

const microAsk = `Each chunk is a block inside a larger definition, whose summary is given. For each block: "summary" is one sentence on the block's role in that definition; "keywords" 3-6 search terms; "purpose" a short phrase.`

// prompt builds the request for a batch of items of one kind (all macro or
// all micro); parents holds the summaries of the micro chunks' parents.
func prompt(items []Item, parents map[[16]byte]Summary) []llm.Message {
	var b strings.Builder
	if items[0].Micro {
		b.WriteString(microAsk)
	} else {
		b.WriteString(macroAsk)
	}
	b.WriteString("\n")
	for i, it := range items {
		fmt.Fprintf(&b, "\n### id %d: %s %s in %s (%s, lines %d-%d)\n", i+1, it.Kind, it.Name, it.Path, it.Language, it.StartLine, it.EndLine)
		if it.Micro {
			if p, ok := parents[it.Parent]; ok {
				fmt.Fprintf(&b, "Inside %s, which: %s\n", it.ParentName, p.Summary)
			} else {
				fmt.Fprintf(&b, "Inside %s.\n", it.ParentName)
			}
		}
		text := it.Text
		if len(text) > maxChunkText {
			text = httpapi.TruncateUTF8(text, maxChunkText) + "\n[…cut]"
		}
		b.WriteString("```\n" + text + "\n```\n")
	}
	return []llm.Message{{Role: llm.RoleSystem, Content: systemPrompt}, {Role: llm.RoleUser, Content: b.String()}}
}

// answer is the JSON the prompts ask for.
type answer struct {
	Chunks []struct {
		ID int `json:"id"`
		Summary
	} `json:"chunks"`
}

// parse reads a reply for items: the summaries that are valid by index,
// and whether the reply as a whole was malformed.
func parse(r llm.Reply, items []Item) (map[int]Summary, error) {
	var a answer
	if err := llm.DecodeJSON(r, &a, nil); err != nil {
		return nil, err
	}
	out := map[int]Summary{}
	for _, c := range a.Chunks {
		if c.ID < 1 || c.ID > len(items) {
			continue
		}
		if s, ok := clean(c.Summary, items[c.ID-1].Micro); ok {
			out[c.ID-1] = s
		}
	}
	return out, nil
}

// clean validates one summary: a sentence or more of text, a purpose and
// keywords for a definition; keywords are trimmed and deduplicated.
func clean(s Summary, micro bool) (Summary, bool) {
	s.Summary, s.Purpose = strings.TrimSpace(s.Summary), strings.TrimSpace(s.Purpose)
	if len(s.Summary) < 10 || len(s.Summary) > 1200 || len(s.Purpose) > 200 {
		return s, false
	}
	var kw []string
	seen := map[string]bool{}
	for _, k := range s.Keywords {
		k = strings.TrimSpace(k)
		if k != "" && len(k) <= 60 && !seen[strings.ToLower(k)] {
			seen[strings.ToLower(k)] = true
			kw = append(kw, k)
		}
	}
	s.Keywords = kw[:min(len(kw), 16)]
	if !micro && (s.Purpose == "" || len(s.Keywords) < 3) {
		return s, false
	}
	return s, true
}

// encodeRecord is the stored value of a summary.
func encodeRecord(s Summary, model string) []byte {
	b, _ := json.Marshal(Record{Summary: s, Model: model, Prompt: PromptVersion, Generated: true})
	return b
}
