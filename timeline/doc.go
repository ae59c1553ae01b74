// Package timeline answers `git bcindex log`: it ranks the chunks of the
// union of a revision's indexed first-parent history by the query, through
// the ranking of package search, and follows each of the best through the
// history: when it appeared, changed, moved to another file, was renamed
// and disappeared.
package timeline
