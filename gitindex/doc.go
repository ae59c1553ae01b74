// Package gitindex reads repositories through go-git: it resolves
// revisions, lists trees (flattened and cached by tree SHA, since a tree's
// listing never changes), diffs trees, reads blobs, lists the working tree
// and walks history. Loose objects and the objects of the repository's own
// pack files are read directly (loose.go, pack.go) when they can be;
// anything else goes through go-git.
//
// It knows nothing of chunks, vectors or the store: what it returns is
// derived from git objects alone, so everything above it can key its work
// by blob SHA.
package gitindex
