package embed

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"
)

// DimCache keeps the vector lengths learned by probing, keyed by provider,
// endpoint and model, so that a model is asked once.
type DimCache interface {
	Dim(key string) (int, bool)
	SetDim(key string, dim int) error
}

// probeTimeout bounds the one request that learns a model's vector length.
const probeTimeout = 30 * time.Second

// probeText is the tiny input of that request.
const probeText = "dimension probe"

// probeDim learns the vector length of a model that neither the
// configuration nor the table of well-known models gives: from the cache, or
// else by embedding one short text, once, and caching the answer.
func (r *Remote) probeDim(cache DimCache) (int, error) {
	key := r.provider + " " + r.endpoint + " " + r.model
	if cache != nil {
		if d, ok := cache.Dim(key); ok && d > 0 {
			return d, nil
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), probeTimeout)
	defer cancel()
	// No retries: a dead endpoint should say so now, not after backoff.
	saved := r.api.Retry
	r.api.Retry.Attempts = 1
	defer func() { r.api.Retry = saved }()
	var vecs [][]float32
	var err error
	if r.provider == ProviderOllama {
		vecs, err = r.ollamaBatch(ctx, []string{probeText})
	} else {
		vecs, err = r.openAIBatch(ctx, []string{probeText})
	}
	if err == nil && (len(vecs) != 1 || len(vecs[0]) == 0) {
		err = fmt.Errorf("the answer held %d embeddings, want one non-empty", len(vecs))
	}
	if err != nil {
		return 0, r.probeError(err)
	}
	d := len(vecs[0])
	if cache != nil {
		if err := cache.SetDim(key, d); err != nil {
			return 0, fmt.Errorf("remember the vector length of %s model %q: %w", r.provider, r.model, err)
		}
	}
	return d, nil
}

// probeError says what failed and what to check next.
func (r *Remote) probeError(err error) error {
	next := fmt.Sprintf("check that %s answers (is the server running and the URL right? `git config bcindex.endpoint`), and that it serves an embedding model named %q (`git config bcindex.model`)", r.endpoint, r.model)
	switch {
	case errors.Is(err, ErrAuth):
		next = fmt.Sprintf("check the API key in %s", EnvAPIKey)
		if r.provider == ProviderOpenAI {
			next += " or " + EnvOpenAIAPIKey
		}
	case errors.Is(err, ErrQuota):
		next = "the provider's quota is exhausted; try again once it is restored"
	}
	return fmt.Errorf("ask %s model %q at %s for its vector length: %w; %s; or set `git config bcindex.dimensions N` to skip the probe",
		r.provider, r.model, r.endpoint, err, next)
}

// useProbedDim sets the dimension learned by probing (and the ID with it).
func (r *Remote) useProbedDim(d int) {
	r.dim = d
	r.id = r.provider + ":" + r.model + ":" + strconv.Itoa(d)
}
