package enhance

import (
	"bytes"
	"context"
	"fmt"
	"sort"
	"strings"
	"unicode"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/bcindex/bcindex/chunk"
	"github.com/bcindex/bcindex/chunk/vocab"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/store"
)

// Item is one chunk text to summarise, at the first place it was found.
type Item struct {
	Hash      [16]byte // store.ContentHash of the indexed text, as the indexer computes it
	Path      string
	Language  string
	Kind      string
	Name      string
	Signature string
	StartLine int
	EndLine   int
	Text      string
	// Micro chunks are logic blocks inside a definition; Parent is the
	// content hash of that definition, whose summary goes into the prompt.
	Micro      bool
	Parent     [16]byte
	ParentName string

	exported bool
	refs     int // how often the name occurs in the revisions' files
}

// macroKinds are the definitions summarised first, in full.
var macroKinds = map[string]bool{
	vocab.KindFunction: true, vocab.KindMethod: true, vocab.KindClass: true, vocab.KindType: true,
	vocab.KindInterface: true, vocab.KindStruct: true, vocab.KindEnum: true, vocab.KindTrait: true,
	vocab.KindModule: true, vocab.KindImpl: true, vocab.KindConst: true, vocab.KindTable: true,
}

// Collect returns the chunks of revs to summarise, each content once:
// definitions (macro chunks) first, then the logic blocks inside them
// (micro chunks). Within each, exported names come first and then the
// most referenced, so that a budget spent early serves search best.
func Collect(ctx context.Context, repo *gitindex.Repo, revs []string, maxFileSize int64) ([]Item, error) {
	if len(revs) == 0 {
		revs = []string{"HEAD"}
	}
	return collect(ctx, repo, revs, maxFileSize, nil)
}

// CollectBlobs is Collect of rev limited to the files holding blobs, such
// as those a commit added: the hooks summarise new code only. References
// are counted in those files alone.
func CollectBlobs(ctx context.Context, repo *gitindex.Repo, rev string, blobs []plumbing.Hash, maxFileSize int64) ([]Item, error) {
	only := map[plumbing.Hash]bool{}
	for _, b := range blobs {
		only[b] = true
	}
	return collect(ctx, repo, []string{rev}, maxFileSize, only)
}

// collector gathers items, each content once.
type collector struct {
	seenBlob     map[plumbing.Hash]bool
	seen         map[[16]byte]bool
	words        map[string]int
	macro, micro []Item
}

func collect(ctx context.Context, repo *gitindex.Repo, revs []string, maxFileSize int64, only map[plumbing.Hash]bool) ([]Item, error) {
	co := &collector{seenBlob: map[plumbing.Hash]bool{}, seen: map[[16]byte]bool{}, words: map[string]int{}}
	for _, rev := range revs {
		c, err := repo.Resolve(rev)
		if err != nil {
			return nil, err
		}
		l, err := repo.Listing(c.Tree)
		if err != nil {
			return nil, fmt.Errorf("list tree of %s: %w", rev, err)
		}
		for _, e := range l.Entries {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			if e.Skip != gitindex.SkipNone || co.seenBlob[e.Blob] || (only != nil && !only[e.Blob]) {
				continue
			}
			co.seenBlob[e.Blob] = true
			content, size, err := repo.ReadBlobUpTo(e.Blob, maxFileSize)
			if err != nil {
				return nil, fmt.Errorf("read %s at %s: %w", e.Path, rev, err)
			}
			if size > maxFileSize || bytes.IndexByte(content[:min(len(content), 8000)], 0) >= 0 {
				continue
			}
			co.add(e.Path, content)
		}
	}
	for _, items := range [][]Item{co.macro, co.micro} {
		for i := range items {
			items[i].refs = co.words[lastName(items[i].Name)]
		}
	}
	order(co.macro)
	order(co.micro)
	return append(co.macro, co.micro...), nil
}

// add chunks one file as the indexer does and keeps its definitions and
// their blocks.
func (co *collector) add(path string, content []byte) {
	countWords(content, co.words)
	f := chunk.Split(path, content)
	for i, ch := range f.Chunks {
		var parent *chunk.Chunk
		if ch.Parent >= 0 && ch.Parent < len(f.Chunks) {
			parent = &f.Chunks[ch.Parent]
		}
		isMicro := ch.Kind == vocab.KindBlock && parent != nil && macroKinds[parent.Kind]
		if !macroKinds[ch.Kind] && !isMicro {
			continue
		}
		text := vocab.IndexText(content, f, i)
		if strings.TrimSpace(text) == "" {
			continue
		}
		h := store.ContentHash(text)
		if co.seen[h] {
			continue
		}
		co.seen[h] = true
		it := Item{Hash: h, Path: path, Language: f.Language, Kind: ch.Kind, Name: ch.Name, Signature: ch.Signature,
			StartLine: ch.StartLine, EndLine: ch.EndLine, Text: text, exported: exported(ch, f.Language)}
		if isMicro {
			it.Micro, it.ParentName = true, parent.Name
			it.Parent = store.ContentHash(vocab.IndexText(content, f, ch.Parent))
			co.micro = append(co.micro, it)
		} else {
			co.macro = append(co.macro, it)
		}
	}
}

// order puts exported before unexported, then more referenced first; ties
// keep the tree's order.
func order(items []Item) {
	sort.SliceStable(items, func(i, j int) bool {
		a, b := items[i], items[j]
		if a.exported != b.exported {
			return a.exported
		}
		return a.refs > b.refs
	})
}

func exported(c chunk.Chunk, lang string) bool {
	if c.Access != "" {
		return c.Access == "public"
	}
	name := lastName(c.Name)
	if lang == "go" {
		return name != "" && unicode.IsUpper([]rune(name)[0])
	}
	return name != "" && !strings.HasPrefix(name, "_")
}

// lastName is the identifier a qualified name ends with ("T.M" → "M").
func lastName(name string) string {
	return name[strings.LastIndexAny(name, ".:")+1:]
}

// countWords adds the identifiers of content to words: how often a name
// is used stands in for how often it is referenced.
func countWords(content []byte, words map[string]int) {
	start := -1
	for i := 0; i <= len(content); i++ {
		ident := i < len(content) && (content[i] == '_' || content[i] >= 'a' && content[i] <= 'z' ||
			content[i] >= 'A' && content[i] <= 'Z' || content[i] >= '0' && content[i] <= '9' && start >= 0)
		switch {
		case ident && start < 0:
			start = i
		case !ident && start >= 0:
			if i-start >= 2 && i-start <= 64 {
				words[string(content[start:i])]++
			}
			start = -1
		}
	}
}
