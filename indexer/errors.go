package indexer

import (
	"errors"

	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/segment"
	"github.com/bcindex/bcindex/store"
)

// FileError is a file of a revision that has syntax errors.
type FileError struct {
	Path   string `json:"path"`
	Errors int    `json:"errors"` // ERROR and MISSING nodes
	Severe bool   `json:"severe"` // the parse failed and the file was split into line windows
	Detail string `json:"detail,omitempty"`
}

// SyntaxErrors lists the indexed files of rev that have syntax errors, in
// path order. It reads the segments only.
func SyntaxErrors(r *gitindex.Repo, rev string) ([]FileError, error) {
	c, err := r.Resolve(rev)
	if err != nil {
		return nil, err
	}
	snap, err := store.OpenSnapshot(r.IndexDir, "")
	if errors.Is(err, store.ErrNoIndex) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer snap.Close()
	l, err := r.Listing(c.Tree)
	if err != nil {
		return nil, err
	}
	var out []FileError
	for _, e := range l.Entries {
		if e.Skip != gitindex.SkipNone {
			continue
		}
		loc, ok := snap.FindBlob(e.Blob)
		if !ok {
			continue
		}
		seg := snap.Segments[loc.Seg]
		info := seg.Table.BlobInfo(seg.BlobIndex(loc.First, e.Blob))
		if info.SyntaxErrors == 0 {
			continue
		}
		fe := FileError{Path: e.Path, Errors: info.SyntaxErrors, Severe: info.Fallback, Detail: firstErrorDetail(seg, loc)}
		out = append(out, fe)
	}
	return out, nil
}

// firstErrorDetail returns the first syntax-error description among a
// blob's rows (the file chunk carries it when the file fell back to windows).
func firstErrorDetail(seg *segment.Segment, loc store.BlobLoc) string {
	for row := loc.First; row < loc.First+loc.N; row++ {
		if d := seg.RowDetail(row).Meta().ErrorDetail; d != "" {
			return d
		}
	}
	return ""
}
