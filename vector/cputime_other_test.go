//go:build !unix

package vector

import "time"

func processCPU() time.Duration { return 0 }
