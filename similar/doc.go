// Package similar answers `git bcindex similar`: the chunks a commit or a
// range added or changed, each used as a query by its stored vector and
// its indexed text through the ranking of package search, against a
// revision. The changed chunks themselves are left out, so what remains is
// code like the change that the change did not touch.
package similar
