// Package indexing is what the front ends and the indexer agree on, with
// no parser linked: what a front end is about to read (Request, Parts),
// the function that brings the index up to date for it (Ensure, which the
// command builds from the indexer and hands to the MCP server and the web
// pages), the indexing run's Summary and Progress, and the index's
// coverage of a revision (StatusOf).
package indexing
