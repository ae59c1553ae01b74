package search

// FileHit is one file of a search that ranks files (Options.Files): its
// best chunks, best first, and their lines.
type FileHit struct {
	Path string `json:"path"`
	// Score is its best chunk's.
	Score float64 `json:"score"`
	// Lines are the line spans of Hits, in the same order.
	Lines [][2]int `json:"lines"`
	Hits  []Hit    `json:"hits"`
}

// Chunks of one file a file ranking shows, and how far down the chunk
// ranking it looks for a file's further chunks.
const (
	fileHitChunks = 3
	fileHitDepth  = armDepth
)

// rankFiles groups a chunk ranking by file: the files in the order of
// their best chunk, each with up to fileHitChunks of its chunks among the
// first fileHitDepth, at most k files.
func (v *view) rankFiles(ranked []fused, k int) (files []string, chosen [][]fused) {
	at := map[string]int{}
	for i, f := range ranked {
		if i >= fileHitDepth && len(files) >= k {
			break
		}
		p := v.pathOf(f.seg, f.row)
		j, ok := at[p]
		if !ok {
			if len(files) >= k {
				continue
			}
			j = len(files)
			at[p] = j
			files = append(files, p)
			chosen = append(chosen, nil)
		}
		if len(chosen[j]) < fileHitChunks {
			chosen[j] = append(chosen[j], f)
		}
	}
	return files, chosen
}

// fileHits builds the hits of a file ranking.
func (v *view) fileHits(ranked []fused, opts *Options) ([]FileHit, []Hit, error) {
	files, chosen := v.rankFiles(ranked, opts.K)
	var flat []fused
	for _, c := range chosen {
		flat = append(flat, c...)
	}
	hits, err := v.hits(flat, opts)
	if err != nil {
		return nil, nil, err
	}
	singleRefs(hits)
	out := make([]FileHit, len(files))
	n := 0
	for i, p := range files {
		fh := FileHit{Path: p, Hits: hits[n : n+len(chosen[i])]}
		n += len(chosen[i])
		fh.Score = fh.Hits[0].Score
		for _, h := range fh.Hits {
			fh.Lines = append(fh.Lines, [2]int{h.StartLine, h.EndLine})
		}
		out[i] = fh
	}
	return out, hits, nil
}
