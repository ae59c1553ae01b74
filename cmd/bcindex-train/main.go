// Command bcindex-train builds the corpus, trains and evaluates the built-in
// static code model of package embed.
//
// Reproduce the shipped model (from the repository root):
//
//	go run ./cmd/bcindex-train all
//
// which runs, in order:
//
//	fetch   download every package of sources.txt into the cache (-pin
//	        rewrites "latest" versions in sources.txt to the resolved ones)
//	mine    chunk the sources and write (doc first sentence, code) pairs
//	train   train the embedding table on the train split and write
//	        embed/model/bcindex-code-v3.bin (the next model: the built-in
//	        one, embed.BuiltinID, is only replaced on purpose)
//	eval    report MRR@10 and recall@10 of BM25, the vector arm and their
//	        RRF fusion on the held-out eval split
//	suite   write the search quality suite (search/suite_test.go): the
//	        suite-dev and suite-test packages of sources.txt, docs kept and
//	        stripped, with their queries, under -out DIR
//	adapt   fine-tune the model on one repository's doc/code pairs
//	        (-repo DIR -out FILE; -measure compares on held-out halves)
//
// The cache (default $HOME/.cache/bcindex-train) holds the downloaded third-
// party sources; nothing of it is committed.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"

	"github.com/bcindex/bcindex/train"
)

func main() { os.Exit(run()) }

type options struct {
	sources string
	cache   string
	out     string
	pin     bool
	cfg     train.Config
	model   string
	hash    bool
	maxQ    int
	repo    string
	measure bool
	langs   string
}

// langSet is the -langs flag as a set.
func (o options) langSet() map[string]bool {
	m := map[string]bool{}
	for _, l := range strings.Split(o.langs, ",") {
		if l = strings.TrimSpace(l); l != "" {
			m[l] = true
		}
	}
	return m
}

func run() int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()

	home, _ := os.UserCacheDir()
	var o options
	fs := flag.NewFlagSet("bcindex-train", flag.ContinueOnError)
	fs.StringVar(&o.sources, "sources", "cmd/bcindex-train/sources.txt", "pinned corpus list")
	fs.StringVar(&o.cache, "cache", filepath.Join(home, "bcindex-train"), "download and pairs cache")
	fs.StringVar(&o.out, "out", "embed/model/bcindex-code-v3.bin", "trained model file")
	fs.BoolVar(&o.pin, "pin", false, "fetch: write resolved versions back into -sources")
	fs.StringVar(&o.model, "model", "", "eval: model file (default: the built-in model)")
	fs.BoolVar(&o.hash, "hash", false, "eval: also Evaluate the hash-v1 embedder")
	fs.IntVar(&o.maxQ, "maxq", 0, "eval: at most this many queries per package (0: all)")
	fs.StringVar(&o.repo, "repo", "", "adapt: directory of the repository to adapt to")
	// The shipped model's languages.
	fs.StringVar(&o.langs, "langs", "go,python,javascript,java,rust,ruby,php,c,cpp,csharp,kotlin,scala,swift,lua,elixir,shell", "mine: languages mined")
	fs.BoolVar(&o.measure, "measure", false, "adapt: adapt on half the repository's pairs and compare on the other half")
	o.cfg.Flags(fs)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: bcindex-train fetch|mine|train|eval|adapt|suite|all [flags]\n")
		fs.PrintDefaults()
	}
	if len(os.Args) < 2 {
		fs.Usage()
		return 2
	}
	cmd := os.Args[1]
	if err := fs.Parse(os.Args[2:]); err != nil {
		return 2
	}
	var err error
	switch cmd {
	case "fetch":
		err = runFetch(ctx, o)
	case "mine":
		err = runMine(ctx, o)
	case "train":
		err = runTrain(ctx, o)
	case "eval":
		err = runEval(ctx, o)
	case "adapt":
		err = runAdapt(ctx, o)
	case "suite":
		err = runSuite(ctx, o)
	case "all":
		// Evaluate the table just written, not the one compiled in.
		o.model = o.out
		for _, f := range []func(context.Context, options) error{runFetch, runMine, runTrain, runEval} {
			if err = f(ctx, o); err != nil {
				break
			}
		}
	default:
		fs.Usage()
		return 2
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		if errors.Is(err, context.Canceled) {
			return 130
		}
		return 1
	}
	return 0
}

func logf(format string, args ...any) { fmt.Fprintf(os.Stderr, format+"\n", args...) }

func runFetch(ctx context.Context, o options) error {
	srcs, err := readSources(o.sources)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(o.cache, 0o755); err != nil {
		return fmt.Errorf("fetch: %w", err)
	}
	_, ferr := fetch(ctx, o.cache, srcs, logf)
	if o.pin {
		if err := pinSources(o.sources, srcs); err != nil {
			return err
		}
	}
	return ferr
}
