package segment

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sort"
	"strings"

	"github.com/bcindex/bcindex/lexical"
	"github.com/bcindex/bcindex/ngram"
	"github.com/bcindex/bcindex/vector"
	"github.com/go-git/go-git/v5/plumbing"
)

// Append copies the blobs of segment id for which keep is true (nil: all)
// into the writer, with their postings, trigrams and texts as they are and
// their rows with their units' details,
// and appends their vectors of each named vector file (models) to vecs:
// a merge recomputes nothing. The postings follow the merged segment's
// copies: a row that becomes a copy (its content is in a row added
// before) gives its postings up, and the first row kept of a content
// whose first copy is dropped takes that copy's postings over, corrected
// by the tokens of the two rows' names when they differ (a row's terms
// are its name's tokens and its text's, and copies share the text only).
func (w *Writer) Append(indexDir, id string, models []string, keep func(plumbing.Hash) bool, vecs map[string]*VectorRows) error {
	seg, lw, gw := &w.Table, w.Lex, w.Grams
	ct, err := OpenTable(File(indexDir, id, ChunksFile))
	if err != nil {
		return err
	}
	defer ct.Close()
	lex, err := lexical.Open(File(indexDir, id, LexFile))
	if err != nil {
		return err
	}
	defer lex.Close()
	grams, err := ngram.Open(File(indexDir, id, GramsFile))
	if err != nil {
		return err
	}
	defer grams.Close()
	var keepSHA func([20]byte) bool
	if keep != nil {
		keepSHA = func(sha [20]byte) bool { return keep(plumbing.Hash(sha)) }
	}
	if err := gw.Append(grams, func(b int) [20]byte { return ct.BlobSHA(b) }, keepSHA); err != nil {
		return err
	}
	text, err := OpenContent(File(indexDir, id, ContentFile))
	switch {
	case err == nil:
		defer text.Close()
		if err := w.Text.Append(text, func(b int) [20]byte { return ct.BlobSHA(b) }, keepSHA); err != nil {
			return err
		}
	case !errors.Is(err, fs.ErrNotExist):
		return err
	}
	srcVecs := map[string]*vector.Segment{}
	for _, name := range models {
		vs, err := openSegmentVectors(indexDir, id, name, ct)
		if err != nil {
			return err
		}
		defer vs.Close()
		srcVecs[name] = vs
		if vecs[name] == nil {
			vecs[name] = &VectorRows{Dim: vs.Dim()}
		}
	}
	// Blobs in row order, so that old rows map to increasing new rows.
	order := make([]int, ct.Nblobs)
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool {
		fa, _ := ct.BlobRange(order[a])
		fb, _ := ct.BlobRange(order[b])
		return fa < fb
	})
	rowMap := make([]int32, ct.Nrows)
	postMap := make([]int32, ct.Nrows) // a first copy's postings → their row in the writer
	var diff map[int32]lexical.TokenDiff
	for i := range rowMap {
		rowMap[i], postMap[i] = -1, -1
	}
	// Each frame of details is decoded once, and the rows of every unit
	// share its signature and Meta; Encode finds the units again, without
	// those only the dropped blobs referred to.
	frames := make([]*unitFrame, (ct.Nunits+unitsPerFrame-1)/unitsPerFrame)
	for _, b := range order {
		sha := ct.BlobSHA(b)
		if keep != nil && !keep(sha) {
			continue
		}
		first, n := ct.BlobRange(b)
		info := ct.BlobInfo(b)
		base := len(seg.Rows)
		rows := make([]Row, n)
		for i := range rows {
			r := ct.Row(first + i)
			u := ct.unitOf(first + i)
			if u >= ct.Nunits || r.Blob != b {
				return fmt.Errorf("segment %s: row %d: %w", id, first+i, ErrCorrupt)
			}
			f := u / unitsPerFrame
			if frames[f] == nil {
				if frames[f], err = ct.decodeFrame(f); err != nil {
					return fmt.Errorf("segment %s: %w", id, err)
				}
			}
			r.Signature, r.MetaBytes = frames[f].sigs[u%unitsPerFrame], frames[f].metas[u%unitsPerFrame]
			if r.Parent >= 0 {
				r.Parent = r.Parent - first + base
			}
			rows[i] = r
			rowMap[first+i] = int32(base + i)
			fc := -1 // the row's first copy in the writer; -1: no text of its own
			if r.Indexed {
				fc = w.firstCopy(base+i, r.Hash)
			}
			if fc == base+i {
				c := ct.firstCopy(first + i)
				postMap[c] = int32(base + i)
				if c != first+i {
					// The row takes over its first copy's postings, which
					// hold that row's name's tokens.
					if name := ct.Row(c).Name; name != r.Name {
						if diff == nil {
							diff = map[int32]lexical.TokenDiff{}
						}
						diff[int32(base+i)] = lexical.TokenDiff{Plus: lexical.Tokens(r.Name), Minus: lexical.Tokens(name)}
					}
				}
			}
			for name, vs := range srcVecs {
				if !vectorUsed(vecs[name], fc, base+i) {
					vecs[name].Q = append(vecs[name].Q, nil)
					vecs[name].Scales = append(vecs[name].Scales, 0)
					continue
				}
				q, s, err := vs.RowErr(first + i)
				if err != nil {
					return fmt.Errorf("read vectors: %w", err)
				}
				vecs[name].Q = append(vecs[name].Q, q)
				vecs[name].Scales = append(vecs[name].Scales, s)
			}
		}
		seg.AddBlob(sha, info, rows)
	}
	// The postings file ends at the last row with text: rows after it (an
	// empty file, say, last in the segment) have no postings to copy.
	n := min(len(rowMap), lex.Rows())
	return lw.AppendRows(lex, rowMap[:n], postMap[:n], diff)
}

// vectorUsed reports whether the segment will store the vector of the
// writer's row (as StoredVectors keeps them, v holding one vector per row
// added): it has text of its own, and no earlier copy of its content
// (first, its first copy) has a vector. A merge copies no other, which on
// git's history left out most of the vectors a merge of half a million
// rows read (a content repeats across the merged segments).
func vectorUsed(v *VectorRows, first, row int) bool {
	return first >= 0 && (first == row || len(v.Q) != row || v.Q[first] == nil)
}

// VectorFiles lists a segment's vector locators.
func VectorFiles(indexDir, id string) ([]string, error) {
	entries, err := os.ReadDir(Dir(indexDir, id))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "vec-") && strings.HasSuffix(e.Name(), ".loc") {
			out = append(out, e.Name())
		}
	}
	return out, nil
}

// Intersect returns the names of a that b holds too.
func Intersect(a, b []string) []string {
	set := map[string]bool{}
	for _, x := range b {
		set[x] = true
	}
	var out []string
	for _, x := range a {
		if set[x] {
			out = append(out, x)
		}
	}
	return out
}
