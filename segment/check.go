package segment

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/bcindex/bcindex/lexical"
	"github.com/bcindex/bcindex/ngram"
	"github.com/bcindex/bcindex/vector"
)

// Check verifies every byte of every file of segment id (checksums and,
// for postings and trigrams, every structure) and returns how many files
// there were.
func Check(indexDir, id string) (int, error) {
	ct, err := OpenTable(File(indexDir, id, ChunksFile))
	if err != nil {
		return 1, err
	}
	defer ct.Close()
	lex, err := lexical.Open(File(indexDir, id, LexFile))
	if err == nil {
		err = lex.Verify()
		lex.Close()
	}
	if err != nil {
		return 2, err
	}
	grams, err := ngram.Open(File(indexDir, id, GramsFile))
	if err != nil {
		return 3, fmt.Errorf("%s: %w", GramsFile, err)
	}
	defer grams.Close()
	if err := grams.Verify(); err != nil {
		return 3, fmt.Errorf("%s: %w", GramsFile, err)
	}
	text, err := OpenContent(File(indexDir, id, ContentFile))
	if err == nil {
		err = text.Verify()
		if err == nil {
			err = samePieces(text, grams)
		}
		text.Close()
	}
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return 4, fmt.Errorf("%s: %w", ContentFile, err)
	}
	vecs, _ := filepath.Glob(File(indexDir, id, "vec-*.loc"))
	for i, p := range vecs {
		l, err := ReadLocator(p)
		if err == nil {
			var v *vector.Segment
			if v, err = vector.OpenRegions(l.Regions(indexDir)); err == nil {
				err = v.Verify()
				if err == nil {
					err = checkLocated(v, l)
				}
				if err == nil {
					err = mapVectors(ct, v, l)
				}
				v.Close()
			}
		}
		if err != nil {
			return 5 + i, fmt.Errorf("%s: %w", filepath.Base(p), err)
		}
	}
	return 4 + len(vecs), nil
}

// samePieces checks that each blob the content file stores in pieces is
// indexed in as many pieces by the trigram file, whose documents select
// the pieces a search decodes.
func samePieces(text *Content, grams *ngram.Index) error {
	for b := 0; b < text.blobs; b++ {
		n := text.PieceCount(b)
		if n == 0 {
			continue
		}
		if lo, hi := grams.PieceDocs(b); hi-lo != n {
			return fmt.Errorf("blob %d stored in %d pieces, indexed in %d", b, n, hi-lo)
		}
	}
	return nil
}
