// Package grep answers exact searches: every line matching a literal or a
// regular expression in the revisions asked, the same lines as git grep -I.
// Candidates come from the segments' trigram postings and are verified
// against the blobs' bytes; blobs the index does not cover are read and
// verified too, so the answer is complete.
package grep
