package embed

import (
	"context"
	_ "embed"
	"fmt"
	"sync"
	"sync/atomic"
)

// BuiltinID is the ID of the built-in trained model.
const BuiltinID = "bcindex-code-v2"

// builtinModel is the trained table, written by `go run ./cmd/bcindex-train
// all` (see cmd/bcindex-train): int8 rows with per-row scales.
//
//go:embed model/bcindex-code-v2.bin
var builtinModel []byte

var (
	builtinOnce sync.Once
	builtin     *Static
	builtinErr  error
)

// builtinLoaded is set once the built-in model's tables are parsed.
var builtinLoaded atomic.Bool

// BuiltinLoaded reports whether this process parsed the built-in model's
// tables: a command that embeds nothing (grep, log, status) never does.
func BuiltinLoaded() bool { return builtinLoaded.Load() }

// Builtin returns the built-in trained model, parsed once on first use.
func Builtin() (*Static, error) {
	builtinOnce.Do(func() {
		defer builtinLoaded.Store(true)
		builtin, builtinErr = LoadStatic(builtinModel)
		if builtinErr == nil && builtin.ID() != BuiltinID {
			builtinErr = fmt.Errorf("built-in model has ID %q, want %q", builtin.ID(), BuiltinID)
		}
	})
	return builtin, builtinErr
}

// Default returns the built-in offline embedder, the trained model.
//
// The model's ID and dimension come from its header, read at once; its
// tables (the vocabulary map and row scales, ~10 ms to parse) load on the
// first Embed, or in the background from Warm on. A command that only
// reads the ID (status, grep, log) never loads them; one that will embed
// calls Warm and resolves its revision and opens its view while they load.
//
// A binary built with a damaged model (a build defect) never falls back
// to another embedder, whose vectors would be noise under a quality test
// that then turned itself off: Default is then an embedder whose every
// Embed fails and says so.
func Default() Embedder { return defaultOf(builtinModel) }

// defaultOf is Default with the model file's bytes: a damaged header
// makes a brokenBuiltin (damaged tables fail in Builtin).
func defaultOf(model []byte) Embedder {
	hdr, _, err := readStaticHeader(model)
	if err == nil && hdr.ID != BuiltinID {
		err = fmt.Errorf("its header names model %q", hdr.ID)
	}
	if err != nil {
		return brokenBuiltin{fmt.Errorf("embed: the built-in model %s in this git-bcindex is damaged (%v): reinstall git-bcindex, or set bcindex.embedder to a remote provider", BuiltinID, err)}
	}
	return builtinLazy{hdr: hdr}
}

// Warm starts loading e's tables in the background when e is the built-in
// model (Default), so that its first Embed finds them ready; other
// embedders need nothing and are left alone.
func Warm(e Embedder) {
	if _, ok := e.(builtinLazy); ok {
		go Builtin()
	}
}

// brokenBuiltin is the built-in model when it cannot be read: it keeps
// the model's ID (vectors of it are never mixed with another's) and fails
// every Embed with why.
type brokenBuiltin struct{ err error }

func (b brokenBuiltin) ID() string { return BuiltinID }

func (b brokenBuiltin) Dim() int { return 0 }

func (b brokenBuiltin) Embed(context.Context, []string, Role) ([][]float32, error) {
	return nil, b.err
}

// builtinLazy is the built-in model before (and after) its tables load.
type builtinLazy struct{ hdr StaticHeader }

func (b builtinLazy) ID() string { return b.hdr.ID }

func (b builtinLazy) Dim() int { return b.hdr.Dim }

func (b builtinLazy) Embed(ctx context.Context, texts []string, role Role) ([][]float32, error) {
	m, err := Builtin()
	if err != nil {
		return nil, fmt.Errorf("embed: the built-in model %s in this git-bcindex is damaged (%w): reinstall git-bcindex", BuiltinID, err)
	}
	return m.Embed(ctx, texts, role)
}

// ByID returns the built-in embedder with the given ID, for reading vectors
// stored under a model that is not the current default.
func ByID(id string) (Embedder, error) {
	switch id {
	case BuiltinID:
		m, err := Builtin()
		if err != nil {
			return nil, fmt.Errorf("embed: %w", err)
		}
		return m, nil
	case HashID:
		return Hash{}, nil
	}
	return nil, fmt.Errorf("embed: no built-in embedder %q", id)
}
