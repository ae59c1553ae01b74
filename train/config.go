package train

import "flag"

// Config holds the hyper-parameters; the defaults of Flags made the shipped
// model.
type Config struct {
	ID        string
	Dim       int
	Vocab     int
	Buckets   int
	MinDF     int
	MaxTokens int
	Epochs    int
	Batch     int
	LR        float64
	LRWeight  float64
	Temp      float64
	Separate  bool
	Dropout   float64
	Seed      uint64
	Workers   int
	EvalEvery bool
	// HardNegatives adds to each query's softmax the code, from the same
	// package directory, that shares most of its words without being its
	// answer.
	HardNegatives bool
	// MaxPairs, when positive, is the number of pairs trained on, chosen
	// by Mix; 0 is every pair of the kinds mixed.
	MaxPairs int
	// Mix is each kind's share of the pairs (see ParseMix); LangTemp
	// evens out the languages within a kind (see Mix).
	Mix      string
	LangTemp float64
	// BatchBy, "lang" or "src", fills a batch from one language or one
	// package where it can (see batches); "" mixes them at random.
	BatchBy string
	// Adaptation to one repository.
	AdaptEpochs int
	AdaptLR     float64
	// Logf reports progress; nil is quiet.
	Logf func(format string, args ...any)
}

// Flags registers every hyper-parameter on fs with its default.
func (c *Config) Flags(fs *flag.FlagSet) {
	fs.StringVar(&c.ID, "id", "bcindex-code-v3", "train: model ID (the next one: the built-in model is embed.BuiltinID)")
	fs.IntVar(&c.Dim, "dim", 256, "train: embedding dimension")
	fs.IntVar(&c.Vocab, "vocab", 25000, "train: sub-token vocabulary size (25,000 keeps the model file under 16 MB)")
	fs.IntVar(&c.Buckets, "buckets", 4096, "train: hashed rows for unknown sub-tokens")
	fs.IntVar(&c.MinDF, "mindf", 5, "train: minimum document frequency of a vocabulary sub-token")
	fs.IntVar(&c.MaxTokens, "maxtokens", 512, "train: sub-tokens read from each text")
	fs.IntVar(&c.Epochs, "epochs", 1, "train: passes over the pairs")
	fs.IntVar(&c.Batch, "batch", 512, "train: pairs per batch (the in-batch negatives)")
	fs.Float64Var(&c.LR, "lr", 0.005, "train: Adam learning rate of the table")
	fs.Float64Var(&c.LRWeight, "lrw", 0.01, "train: Adam learning rate of the token weights")
	fs.Float64Var(&c.Temp, "temp", 0.05, "train: softmax temperature")
	fs.BoolVar(&c.Separate, "separate", true, "train: separate query and code tables")
	fs.Float64Var(&c.Dropout, "dropout", 0.3, "train: share of code sub-tokens dropped in each step")
	fs.Uint64Var(&c.Seed, "seed", 1, "train: random seed")
	fs.IntVar(&c.Workers, "workers", 2, "train: goroutines")
	fs.BoolVar(&c.EvalEvery, "evalepoch", false, "train: evaluate after every epoch")
	fs.BoolVar(&c.HardNegatives, "hardneg", false, "train: add a hard negative from the same package to each query")
	fs.IntVar(&c.MaxPairs, "pairs", 0, "train: pairs trained on, chosen by -mix and -langtemp (0: every pair of the kinds mixed)")
	fs.StringVar(&c.Mix, "mix", "doc=1", "train: each pair kind's share, kind=weight,... (kinds: doc, name, path)")
	fs.Float64Var(&c.LangTemp, "langtemp", 1, "train: a language's share of its kind grows as its pair count to this power (1: as mined, 0: even)")
	fs.StringVar(&c.BatchBy, "batchby", "", "train: fill each batch from one language (lang) or package (src) where it can; \"\": at random")
	fs.IntVar(&c.AdaptEpochs, "adaptepochs", 10, "adapt: passes over the repository's pairs")
	fs.Float64Var(&c.AdaptLR, "adaptlr", 0.003, "adapt: Adam learning rate")
}

// DefaultConfig is the configuration of the shipped model.
func DefaultConfig() Config {
	var c Config
	c.Flags(flag.NewFlagSet("defaults", flag.ContinueOnError))
	return c
}

func (c Config) logf(format string, args ...any) {
	if c.Logf != nil {
		c.Logf(format, args...)
	}
}
