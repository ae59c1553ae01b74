package main

import (
	"context"
	"fmt"
	"strconv"

	"github.com/bcindex/bcindex/enhance"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/hooks"
)

// hookMaxChunks bounds the chunks one background round summarises, so that
// a slow model never holds the next round's indexing back for long; `git
// bcindex enhance` catches up with the rest.
const hookMaxChunks = 64

// enhanceAfterIndex is the hooks' background summary step: with
// `git config bcindex.enhance.hooks true` each round has the chat model
// summarise the chunks of the blobs it added. Off (and silent) otherwise.
func enhanceAfterIndex(ctx context.Context, repo *gitindex.Repo, head gitindex.Commit, d *gitindex.TreeDiff) (string, error) {
	if !enhanceHooksOn(repo) || len(d.NewBlobs) == 0 {
		return "", nil
	}
	s, err := readSettings(repo)
	if err != nil {
		return "", err
	}
	client, err := chatClient(repo, 0)
	if err != nil {
		return "", err
	}
	items, err := enhance.CollectBlobs(ctx, repo, head.Hash.String(), d.NewBlobs, s.maxFileSize)
	if err != nil {
		return "", err
	}
	st, err := enhance.Run(ctx, client, enhance.Store{IndexDir: repo.IndexDir, LockWait: hooks.LockWait}, items,
		enhance.Options{MaxChunks: hookMaxChunks, Embedder: s.embedder()})
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("enhanced=%d skipped=%d left=%d tokens=%d", st.Enhanced, st.Skipped, st.Chunks-st.Stored-st.ToDo, st.Tokens), nil
}

// enhanceHooksOn reads bcindex.enhance.hooks (default false).
func enhanceHooksOn(repo *gitindex.Repo) bool {
	sub, err := enhanceConfig(repo)
	if err != nil {
		return false
	}
	b, err := strconv.ParseBool(sub.Option("hooks"))
	return err == nil && b
}
