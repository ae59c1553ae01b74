package cache

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/bcindex/bcindex/internal/checksum"
)

const magic = "test1\n"

// record is a file in a format with a magic and a trailing CRC-32C, as
// the index's caches are.
func record(payload string) []byte {
	b := append([]byte(magic), payload...)
	return binary.LittleEndian.AppendUint32(b, checksum.Sum(b))
}

var errBad = errors.New("bad record")

func check(b []byte) error {
	if len(b) < len(magic)+4 || string(b[:len(magic)]) != magic ||
		checksum.Sum(b[:len(b)-4]) != binary.LittleEndian.Uint32(b[len(b)-4:]) {
		return errBad
	}
	return nil
}

// TestConcurrentPutsLeaveValidFile: writers racing on one entry, with
// readers reading it meanwhile, leave a file that passes its check, one
// writer's whole content, and no temporary file; every read sees a whole
// file.
func TestConcurrentPutsLeaveValidFile(t *testing.T) {
	d := Dir(t.TempDir())
	const name = "changes/ab/cdef"
	payloads := map[string]bool{}
	var wg sync.WaitGroup
	var mu sync.Mutex
	written := 0
	for w := range 8 {
		payload := strings.Repeat(fmt.Sprintf("writer %d ", w), 20000)
		payloads[string(record(payload))] = true
		wg.Add(2)
		go func() {
			defer wg.Done()
			for range 20 {
				ok, err := d.Put(name, record(payload))
				if err != nil {
					t.Error(err)
					return
				}
				if ok {
					mu.Lock()
					written++
					mu.Unlock()
				}
			}
		}()
		go func() {
			defer wg.Done()
			for range 20 {
				if _, err := d.Get(name, check); err != nil && !errors.Is(err, os.ErrNotExist) {
					t.Errorf("a read during the writes: %v", err)
					return
				}
			}
		}()
	}
	wg.Wait()
	if written == 0 {
		t.Fatal("no Put wrote the entry")
	}
	b, err := d.Get(name, check)
	if err != nil {
		t.Fatalf("after the writes: %v", err)
	}
	if !payloads[string(b)] {
		t.Fatalf("the entry (%d bytes) is no writer's content", len(b))
	}
	entries, err := os.ReadDir(filepath.Dir(d.Path(name)))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".tmp-") {
			t.Errorf("temporary file %s left behind", e.Name())
		}
	}
}

// TestHeldLockSkipsPut: while the entry's lock is held, Put writes nothing
// and reports no error; after the release it writes.
func TestHeldLockSkipsPut(t *testing.T) {
	d := Dir(t.TempDir())
	const name = "changes/side/0123"
	release, ok, err := d.TryLock(name)
	if err != nil || !ok {
		t.Fatalf("TryLock: ok %v, %v", ok, err)
	}
	if _, ok2, err := d.TryLock(name); err != nil || ok2 {
		t.Fatalf("a second TryLock of a held entry: ok %v, %v", ok2, err)
	}
	written, err := d.Put(name, record("x"))
	if err != nil || written {
		t.Fatalf("Put on a held entry: written %v, err %v; want false, nil", written, err)
	}
	if _, err := os.Stat(d.Path(name)); !os.IsNotExist(err) {
		t.Fatalf("the entry exists after a skipped Put (stat: %v)", err)
	}
	if err := release(); err != nil {
		t.Fatal(err)
	}
	if written, err := d.Put(name, record("x")); err != nil || !written {
		t.Fatalf("Put after the release: written %v, err %v", written, err)
	}
	if _, err := d.Get(name, check); err != nil {
		t.Fatal(err)
	}
}

// TestGetChecks: a damaged entry fails the caller's check, a missing one
// is os.ErrNotExist, and names outside the directory are refused.
func TestGetChecks(t *testing.T) {
	d := Dir(t.TempDir())
	b := record("payload")
	b[len(magic)] ^= 0xff
	if err := os.WriteFile(d.Path("e"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Get("e", check); !errors.Is(err, errBad) {
		t.Fatalf("damaged entry: %v, want errBad", err)
	}
	if _, err := d.Get("missing", check); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("missing entry: %v, want os.ErrNotExist", err)
	}
	for _, name := range []string{"../x", "/abs", ""} {
		if _, err := d.Put(name, record("x")); !errors.Is(err, ErrName) {
			t.Errorf("Put(%q): %v, want ErrName", name, err)
		}
		if _, err := d.Get(name, check); !errors.Is(err, ErrName) {
			t.Errorf("Get(%q): %v, want ErrName", name, err)
		}
	}
}
