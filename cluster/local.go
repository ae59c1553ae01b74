package cluster

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/bcindex/bcindex/chunk/vocab"
	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/indexer"
	"github.com/bcindex/bcindex/lexical"
	"github.com/bcindex/bcindex/segment"
	"github.com/bcindex/bcindex/store"
)

// Local is a Source over a repository's own index in its git dir. It is the
// only part of the package that knows the store's layout.
type Local struct {
	repo *gitindex.Repo
	emb  embed.Embedder
	opts indexer.Options

	mu   sync.Mutex
	snap *store.Snapshot
}

// NewLocal reads repo's index; emb (nil: no vectors) names the model whose
// vectors are published, and opts are used to index what a ref lacks.
func NewLocal(repo *gitindex.Repo, emb embed.Embedder, opts indexer.Options) *Local {
	opts.Embedder = emb
	return &Local{repo: repo, emb: emb, opts: opts}
}

// Model implements Source.
func (l *Local) Model() string {
	if l.emb == nil {
		return "none"
	}
	return l.emb.ID()
}

// Prepare implements Source: it indexes the revision's missing blobs and
// opens a snapshot that holds them.
func (l *Local) Prepare(ctx context.Context, rev string) (string, error) {
	c, err := l.repo.Resolve(rev)
	if err != nil {
		return "", err
	}
	if _, err := indexer.NewIndexer(l.repo, l.opts).Index(ctx, []string{c.Hash.String()}, 2*time.Minute); err != nil && !errors.Is(err, store.ErrLocked) {
		return "", fmt.Errorf("index %s before publishing: %w", rev, err)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.snap != nil {
		l.snap.Close()
	}
	model := ""
	if l.emb != nil {
		model = l.emb.ID()
	}
	if l.snap, err = store.OpenSnapshot(l.repo.IndexDir, model); err != nil {
		return "", fmt.Errorf("open the index: %w", err)
	}
	return c.Hash.String(), nil
}

// Close releases the snapshot.
func (l *Local) Close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.snap != nil {
		l.snap.Close()
		l.snap = nil
	}
}

// Files implements Source.
func (l *Local) Files(ctx context.Context, commit string) ([]File, error) {
	c, err := l.repo.Resolve(commit)
	if err != nil {
		return nil, err
	}
	ls, err := l.repo.CachedListing(c.Tree)
	if err != nil {
		if ls, err = l.repo.Listing(c.Tree); err != nil {
			return nil, fmt.Errorf("list %s: %w", commit, err)
		}
	}
	out := make([]File, 0, len(ls.Entries))
	for _, e := range ls.Entries {
		if e.Skip == gitindex.SkipNone {
			out = append(out, File{Path: e.Path, Blob: e.Blob.String()})
		}
	}
	return out, nil
}

// Chunks implements Source.
func (l *Local) Chunks(ctx context.Context, blob string) ([]Chunk, error) {
	l.mu.Lock()
	snap := l.snap
	l.mu.Unlock()
	if snap == nil {
		return nil, errors.New("chunks read before Prepare")
	}
	sha := plumbing.NewHash(blob)
	loc, ok := snap.FindBlob(sha)
	if !ok {
		return nil, fmt.Errorf("blob %s is not indexed: %w", blob, store.ErrNoIndex)
	}
	if loc.N == 0 {
		return nil, nil // skipped by a content rule (binary, too big, generated)
	}
	rows, first, _, ok := snap.BlobRows(sha)
	if !ok {
		return nil, nil
	}
	content, err := l.repo.ReadBlob(sha)
	if err != nil {
		return nil, fmt.Errorf("read blob %s: %w", blob, err)
	}
	seg := snap.Segments[loc.Seg]
	spans := segment.BlobSpans{First: first, Rows: rows}
	out := make([]Chunk, len(rows))
	for i, c := range rows {
		m := c.Meta()
		row := seg.Row(loc.First + i)
		ch := Chunk{Name: c.Name, Kind: c.Kind, Language: rows[0].Language, Signature: c.Signature, Doc: m.Doc,
			StartLine: c.StartLine, EndLine: c.EndLine, StartByte: c.StartByte, EndByte: c.EndByte, Crumb: crumb(spans, i, m.QualifiedName)}
		if row.Indexed {
			ch.Text = vocab.IndexText(content, spans, i)
			ch.Hash = fmt.Sprintf("%x", row.Hash)
			// As the local BM25 counts them: the name twice.
			ch.Tokens = lexical.AppendTokens(lexical.Tokens(c.Name), ch.Text)
			if seg.Vec != nil {
				q, scale, err := seg.Vec.RowErr(loc.First + i)
				if err != nil {
					return nil, fmt.Errorf("read vectors of blob %s (run publish again): %w", blob, err)
				}
				if q != nil {
					ch.Vector = make([]float32, len(q))
					for j, x := range q {
						ch.Vector[j] = float32(x) * scale
					}
				}
			}
		}
		out[i] = ch
	}
	return out, nil
}

// crumb names the enclosing definitions of chunk i, outermost first, as
// local search builds its breadcrumb; qualified is chunk i's qualified name.
func crumb(cs segment.BlobSpans, i int, qualified string) string {
	var chain []string
	for p := cs.Span(i).Parent; p >= 0 && p < cs.Len(); p = cs.Span(p).Parent {
		if cs.Rows[p].Kind != vocab.KindFile && cs.Rows[p].Name != "" {
			chain = append(chain, cs.Rows[p].Name)
		}
		if cs.Span(p).Parent >= p {
			break // parents come first; anything else is corrupt
		}
	}
	if len(chain) == 0 && cs.Rows[i].Kind == vocab.KindMethod {
		if recv, ok := strings.CutSuffix(qualified, "."+cs.Rows[i].Name); ok && recv != "" {
			chain = append(chain, recv)
		}
	}
	for a, b := 0, len(chain)-1; a < b; a, b = a+1, b-1 {
		chain[a], chain[b] = chain[b], chain[a]
	}
	return strings.Join(chain, " › ")
}
