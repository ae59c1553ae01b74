package store

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/bcindex/bcindex/segment"
)

// Parts is where a store's disk space goes, by component: allocated bytes
// (as DirSize counts them), read from the files' sizes and the live
// segments' vector locators, never from Badger, so that a reader can ask
// while an indexer runs.
type Parts struct {
	// Vectors are the live segments' vector parts in Badger's value log,
	// as their locators name them, each once however many segments share
	// it; VectorRows the vectors they hold (every model's: one per content
	// no other segment stored when its segment was written).
	Vectors    int64 `json:"vectors"`
	VectorRows int64 `json:"vector_rows"`
	// ValueLog is Badger's value log (db/*.vlog); what it holds beyond
	// Vectors (LogOther) is the parts of merged or dropped segments, dead
	// until the log is rewritten, and in a store written before blob
	// records left their chunks out, the records of 8 KB and more.
	ValueLog int64 `json:"value_log"`
	// Tables are Badger's tables (db/*.sst: keys and blob records);
	// DBOther the rest of db/ (memtables, discard stats, manifest).
	Tables  int64 `json:"badger_tables"`
	DBOther int64 `json:"badger_other"`
	// Chunks, Postings, Trigrams and Content are the live segments'
	// chunks.bin, lex.bin, grams.bin and content.bin; Segments counts
	// them.
	Chunks   int64 `json:"chunks"`
	Postings int64 `json:"postings"`
	Trigrams int64 `json:"trigrams"`
	Content  int64 `json:"content"`
	Segments int   `json:"segments"`
	// DeadSegments are segment directories the manifest does not name
	// (left by a killed run; the next run removes them).
	DeadSegments int64 `json:"dead_segments"`
	// Trees are the cached tree listings, Changes pickaxe's change
	// tables, Other everything else (summaries, locks, logs).
	Trees   int64 `json:"trees"`
	Changes int64 `json:"changes"`
	Other   int64 `json:"other"`
}

// LogOther is how much of the value log is not the live vectors: dead
// parts that a rewrite of the log gives back (and an older store's large
// blob records).
func (p *Parts) LogOther() int64 { return max(0, p.ValueLog-p.Vectors) }

// Total is the store's size, the sum of its parts.
func (p *Parts) Total() int64 {
	return p.ValueLog + p.Tables + p.DBOther + p.Chunks + p.Postings + p.Trigrams + p.Content +
		p.DeadSegments + p.Trees + p.Changes + p.Other
}

// StoreParts measures the store in indexDir by component. A store without
// a manifest counts every segment directory as dead.
func StoreParts(indexDir string) *Parts {
	p := &Parts{}
	live := map[string]bool{}
	if m, err := DecodeManifest(indexDir); err == nil {
		for _, id := range m.Segments {
			live[id] = true
		}
		p.Segments = len(m.Segments)
	}
	segRoot := segment.Root(indexDir)
	filepath.WalkDir(indexDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			return nil
		}
		n := Allocated(fi)
		if rel, err := filepath.Rel(segRoot, path); err == nil && filepath.IsLocal(rel) {
			p.addSegmentFile(filepath.ToSlash(rel), n, live)
			return nil
		}
		rel, _ := filepath.Rel(indexDir, path)
		top, rest, _ := strings.Cut(filepath.ToSlash(rel), "/")
		switch top {
		case "db":
			switch filepath.Ext(rest) {
			case ".vlog":
				p.ValueLog += n
			case ".sst":
				p.Tables += n
			default:
				p.DBOther += n
			}
		case "trees":
			p.Trees += n
		case "changes":
			p.Changes += n
		default:
			p.Other += n
		}
		return nil
	})
	ids := make([]string, 0, len(live))
	for id := range live {
		ids = append(ids, id)
	}
	p.VectorRows, p.Vectors = VectorBytes(indexDir, ids)
	return p
}

// addSegmentFile counts a file under the segments' root (rel is its path
// there).
func (p *Parts) addSegmentFile(rel string, n int64, live map[string]bool) {
	id, file, ok := strings.Cut(rel, "/")
	switch {
	case !ok:
		p.Other += n // the manifest
	case !live[id]:
		p.DeadSegments += n
	case file == segment.ChunksFile:
		p.Chunks += n
	case file == segment.LexFile:
		p.Postings += n
	case file == segment.GramsFile:
		p.Trigrams += n
	case file == segment.ContentFile:
		p.Content += n
	default:
		p.Other += n // locators, verification stamps
	}
}

// VectorBytes is how many rows and bytes of vector parts (every model's,
// without padding) the locators of segments ids name, each part once
// however many segments share it.
func VectorBytes(indexDir string, ids []string) (rows, n int64) {
	EachNamedPart(indexDir, ids, func(_ string, part segment.PartLoc) {
		rows += int64(part.Rows)
		n += part.Len
	})
	return rows, n
}

// EachNamedPart calls each once with every vector part (and the vector
// file it is of) that the locators of segments ids name: their own and
// those they share, however many segments share it. A locator that
// cannot be read names nothing.
func EachNamedPart(indexDir string, ids []string, each func(name string, part segment.PartLoc)) {
	type key struct {
		owner, name string
		part        int
	}
	seen := map[key]bool{}
	for _, id := range ids {
		names, _ := segment.VectorFiles(indexDir, id)
		for _, name := range names {
			l, err := segment.ReadLocator(segment.File(indexDir, id, name))
			if err != nil {
				continue
			}
			for _, part := range l.Parts {
				k := key{part.Owner, name, part.Part}
				if !seen[k] {
					seen[k] = true
					each(name, part)
				}
			}
		}
	}
}

// LogBytes is the disk space of Badger's value log in indexDir.
func LogBytes(indexDir string) int64 {
	names, _ := filepath.Glob(filepath.Join(indexDir, "db", "*.vlog"))
	var n int64
	for _, name := range names {
		if fi, err := os.Stat(name); err == nil {
			n += Allocated(fi)
		}
	}
	return n
}
