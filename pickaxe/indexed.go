package pickaxe

import (
	"github.com/bcindex/bcindex/exact"
	"github.com/bcindex/bcindex/store"
)

// IndexCandidates returns the Candidates the index in indexDir gives for
// opts' pattern, from its blobs' trigram postings, and a function that
// releases the index. Without an index, or for a pattern the index cannot
// plan (GNU's \< and \>), every blob is a candidate: the answer is the same,
// only slower. model is the embedder ID the index is opened with ("" when
// vectors are off).
func IndexCandidates(indexDir, model string, opts Options) (Candidates, func()) {
	none := func() {}
	m, err := exact.Compile([]string{opts.Pattern.Text}, exact.Options{Fixed: !opts.Regex, IgnoreCase: opts.IgnoreCase})
	if err != nil {
		return AllBlobs, none
	}
	snap, err := store.OpenSnapshot(indexDir, model)
	if err != nil {
		return AllBlobs, none
	}
	if opts.Grep && !opts.Text {
		// -G passes binary files over: they need not be read.
		return Candidates(snap.MayContain(m.Query())), func() { snap.Close() }
	}
	return Candidates(snap.MayHold(m.Query())), func() { snap.Close() }
}
