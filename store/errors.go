package store

import (
	"errors"

	"github.com/bcindex/bcindex/segment"
)

// ErrCorrupt is returned when the store cannot be read.
var ErrCorrupt = segment.ErrCorrupt

// ErrLocked is returned when another indexer holds the index lock.
var ErrLocked = errors.New("another git-bcindex indexer is running")
