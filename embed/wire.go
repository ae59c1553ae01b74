// The providers' wire formats: OpenAI's /v1/embeddings (float or base64
// embeddings) and Ollama's /api/embed.

package embed

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
)

// openAIRequest is the body of POST /embeddings.
type openAIRequest struct {
	Model          string   `json:"model"`
	Input          []string `json:"input"`
	EncodingFormat string   `json:"encoding_format"`
	Dimensions     int      `json:"dimensions,omitempty"`
}

// openAIResponse is its answer; each embedding is a float array or, with
// encoding_format "base64", little-endian float32s in base64.
type openAIResponse struct {
	Data []struct {
		Index     *int            `json:"index"`
		Embedding json.RawMessage `json:"embedding"`
	} `json:"data"`
}

func (r *Remote) openAIBatch(ctx context.Context, inputs []string) ([][]float32, error) {
	req := openAIRequest{Model: r.model, Input: inputs, EncodingFormat: "base64"}
	if r.sendDims {
		req.Dimensions = r.dim
	}
	if r.floatOnly.Load() {
		req.EncodingFormat = "float"
	}
	body, err := r.post(ctx, "/embeddings", req)
	var he *httpError
	if req.EncodingFormat == "base64" && errors.As(err, &he) && (he.status == http.StatusBadRequest || he.status == http.StatusUnprocessableEntity) {
		// Some OpenAI-compatible servers know only floats: ask once more
		// for them, and keep doing so if that works.
		req.EncodingFormat = "float"
		if body, err = r.post(ctx, "/embeddings", req); err == nil {
			r.floatOnly.Store(true)
		}
	}
	if err != nil {
		return nil, err
	}
	var resp openAIResponse
	if err := json.Unmarshal(body, &resp); err != nil {
		return nil, fmt.Errorf("decode response of %s/embeddings: %w", r.endpoint, err)
	}
	if len(resp.Data) != len(inputs) {
		return nil, fmt.Errorf("%s returned %d embeddings for %d inputs", r.provider, len(resp.Data), len(inputs))
	}
	out := make([][]float32, len(inputs))
	for k, d := range resp.Data {
		i := k
		if d.Index != nil {
			i = *d.Index
		}
		if i < 0 || i >= len(out) || out[i] != nil {
			return nil, fmt.Errorf("%s returned embedding index %d for %d inputs (out of range or repeated)", r.provider, i, len(inputs))
		}
		v, err := decodeEmbedding(d.Embedding)
		if err != nil {
			return nil, fmt.Errorf("decode embedding %d of %s/embeddings: %w", i, r.endpoint, err)
		}
		out[i] = v
	}
	return out, nil
}

// decodeEmbedding reads a float array or a base64 string of little-endian
// float32s.
func decodeEmbedding(raw json.RawMessage) ([]float32, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, err
		}
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			return nil, fmt.Errorf("base64: %w", err)
		}
		if len(b)%4 != 0 {
			return nil, fmt.Errorf("base64 embedding has %d bytes, not a whole number of float32s", len(b))
		}
		v := make([]float32, len(b)/4)
		for i := range v {
			v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
		}
		return v, nil
	}
	var v []float32
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, err
	}
	return v, nil
}

// ollamaRequest is the body of Ollama's POST /api/embed.
type ollamaRequest struct {
	Model      string   `json:"model"`
	Input      []string `json:"input"`
	Dimensions int      `json:"dimensions,omitempty"`
}

type ollamaResponse struct {
	Embeddings [][]float32 `json:"embeddings"`
}

func (r *Remote) ollamaBatch(ctx context.Context, inputs []string) ([][]float32, error) {
	req := ollamaRequest{Model: r.model, Input: inputs}
	if r.sendDims {
		req.Dimensions = r.dim
	}
	body, err := r.post(ctx, "/api/embed", req)
	if err != nil {
		return nil, err
	}
	var resp ollamaResponse
	if err := json.Unmarshal(body, &resp); err != nil {
		return nil, fmt.Errorf("decode response of %s/api/embed: %w", r.endpoint, err)
	}
	return resp.Embeddings, nil
}
