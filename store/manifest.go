package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/bcindex/bcindex/internal/checksum"
	"github.com/bcindex/bcindex/segment"
)

// ErrNoIndex is returned when a repository has not been indexed yet.
var ErrNoIndex = errors.New("no index for this repository")

// Manifest lists the live segments. It is replaced atomically, so a reader
// sees a complete set of segments before or after an indexing run.
type Manifest struct {
	Schema   int      `json:"schema"`
	Segments []string `json:"segments"`
	Next     int      `json:"next"` // sequence number of the next segment
	// Sum is the CRC-32C of the Manifest written with Sum zero.
	Sum uint32 `json:"crc32c,omitempty"`
}

// EncodeManifest encodes m with its checksum.
func EncodeManifest(m Manifest) ([]byte, error) {
	m.Sum = 0
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, err
	}
	m.Sum = checksum.Sum(b)
	return json.MarshalIndent(m, "", "  ")
}

func manifestPath(indexDir string) string { return segment.ManifestPath(indexDir) }

func ReadManifest(indexDir string) (*Manifest, error) {
	m, err := DecodeManifest(indexDir)
	if err != nil {
		return nil, err
	}
	if m.Schema != SchemaVersion {
		return nil, fmt.Errorf("%w: the index was written with schema %d, this git-bcindex uses %d", ErrSchema, m.Schema, SchemaVersion)
	}
	return m, nil
}

// DecodeManifest reads the manifest whatever schema wrote it.
func DecodeManifest(indexDir string) (*Manifest, error) {
	b, err := os.ReadFile(manifestPath(indexDir))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, ErrNoIndex
	}
	if err != nil {
		return nil, fmt.Errorf("read index manifest: %w", err)
	}
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("read index manifest: %w: %v", ErrCorrupt, err)
	}
	// Older schemas wrote no checksum; their index is rebuilt anyway.
	if m.Schema == SchemaVersion {
		if again, err := EncodeManifest(m); err != nil || !bytes.Equal(again, bytes.TrimSuffix(b, []byte("\n"))) {
			return nil, fmt.Errorf("read index manifest: %w: checksum mismatch", ErrCorrupt)
		}
	}
	return &m, nil
}
