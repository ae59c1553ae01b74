package segment

import (
	"bytes"
	"encoding/binary"
	"sort"

	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/internal/checksum"
)

// TableWriter accumulates rows for one segment, blob by blob.
type TableWriter struct {
	Blobs []segBlob
	Rows  []Row
}

type segBlob struct {
	sha         [20]byte
	first, n    int
	info        BlobInfo
	originalIdx int
}

// BlobInfo is what a segment records about a blob besides its rows.
type BlobInfo struct {
	Size         int64
	Skip         string // content skip reason
	SyntaxErrors int
	Fallback     bool
}

// AddBlob adds one blob's rows, their parents numbered from the rows
// added before, with their signatures and Meta.
func (w *TableWriter) AddBlob(sha [20]byte, info BlobInfo, rows []Row) {
	w.Blobs = append(w.Blobs, segBlob{sha: sha, first: len(w.Rows), n: len(rows), info: info, originalIdx: len(w.Blobs)})
	w.Rows = append(w.Rows, rows...)
}

// BlobIndex returns a lookup of each added blob's index in the encoded
// blob table, which is sorted by SHA.
func (w *TableWriter) BlobIndex() func(sha [20]byte) (int, bool) {
	shas := make([][20]byte, len(w.Blobs))
	for i, b := range w.Blobs {
		shas[i] = b.sha
	}
	sort.Slice(shas, func(i, j int) bool { return bytes.Compare(shas[i][:], shas[j][:]) < 0 })
	return func(sha [20]byte) (int, bool) {
		i := sort.Search(len(shas), func(i int) bool { return bytes.Compare(shas[i][:], sha[:]) >= 0 })
		return i, i < len(shas) && shas[i] == sha
	}
}

// unitKey is everything that rows sharing a unit agree on.
type unitKey struct {
	hash                  [16]byte
	kind, lang, name, sig string
	meta                  string
	lines, bytes          uint32
	syntaxError, indexed  bool
}

func rowUnitKey(r *Row) unitKey {
	return unitKey{hash: r.Hash, kind: r.Kind, lang: r.Language, name: Clip(r.Name, 1<<16-1), sig: r.Signature,
		meta: string(r.MetaBytes), lines: uint32(r.EndLine - r.StartLine), bytes: uint32(r.EndByte - r.StartByte),
		syntaxError: r.SyntaxError, indexed: r.Indexed}
}

// units numbers the distinct units of rows in the order of their first
// row: it returns each row's unit and each unit's first row.
func units(rows []Row) (unitOf []uint32, firsts []int) {
	unitOf = make([]uint32, len(rows))
	ids := make(map[unitKey]uint32)
	for r := range rows {
		k := rowUnitKey(&rows[r])
		u, ok := ids[k]
		if !ok {
			u = uint32(len(firsts))
			ids[k] = u
			firsts = append(firsts, r)
		}
		unitOf[r] = u
	}
	return unitOf, firsts
}

func (w *TableWriter) Encode() []byte {
	sorted := append([]segBlob(nil), w.Blobs...)
	sort.Slice(sorted, func(i, j int) bool { return bytes.Compare(sorted[i].sha[:], sorted[j].sha[:]) < 0 })
	blobIdx := make([]int, len(w.Blobs))
	for i, b := range sorted {
		blobIdx[b.originalIdx] = i
	}
	unitOf, firsts := units(w.Rows)
	nrows, nunits := len(w.Rows), len(firsts)
	nframes := (nunits + unitsPerFrame - 1) / unitsPerFrame
	wide, spans := wideRows(w.Rows), w.spans(blobIdx)
	// The fixed-size sections are written in place after the header.
	hashesAt := headerSize
	copiesAt := hashesAt + nunits*hashSize
	refsAt := copiesAt + nunits*copySize
	rowsAt := refsAt + nrows*refSize
	wideAt := rowsAt + nrows*rowSize
	spansAt := wideAt + len(wide)*wideSize
	unitsAt := spansAt + len(spans)*spanSize
	unamesAt := unitsAt + nunits*unitSize
	blobsAt := unamesAt + nunits*unameSize
	framesAt := blobsAt + len(sorted)*blobSize
	out := make([]byte, framesAt+nframes*frameSize)
	le := binary.LittleEndian
	for r := range w.Rows {
		row := &w.Rows[r]
		rec := out[rowsAt+r*rowSize : rowsAt+(r+1)*rowSize]
		le.PutUint32(rec[0:], uint32(row.StartByte))
		line, parent := narrow(r, row)
		le.PutUint16(rec[4:], line)
		le.PutUint16(rec[6:], parent)
		le.PutUint32(out[refsAt+r*refSize:], unitOf[r])
	}
	for k, r := range wide {
		rec := out[wideAt+k*wideSize:]
		le.PutUint32(rec[0:], uint32(r))
		le.PutUint32(rec[4:], uint32(w.Rows[r].StartLine))
		le.PutUint32(rec[8:], uint32(int32(w.Rows[r].Parent)))
	}
	for k, s := range spans {
		le.PutUint32(out[spansAt+k*spanSize:], s[0])
		le.PutUint32(out[spansAt+k*spanSize+4:], s[1])
	}
	unitCopies(out[copiesAt:refsAt], w.Rows, firsts)
	kinds, langs := newDict(), newDict()
	var names, details bytes.Buffer
	nameAt := map[string]uint32{}
	var raw []byte
	for u, r := range firsts {
		row := &w.Rows[r]
		copy(out[hashesAt+u*hashSize:], row.Hash[:])
		rec := out[unitsAt+u*unitSize : unitsAt+(u+1)*unitSize]
		rec[0] = kinds.id(row.Kind)
		rec[1] = langs.id(row.Language)
		if row.SyntaxError {
			rec[2] |= flagSyntaxError
		}
		le.PutUint32(rec[4:], uint32(row.EndLine-row.StartLine))
		le.PutUint32(rec[8:], uint32(row.EndByte-row.StartByte))
		name := Clip(row.Name, 1<<16-1)
		at, ok := nameAt[name]
		if !ok {
			at = uint32(names.Len())
			nameAt[name] = at
			names.WriteString(name)
		}
		le.PutUint32(out[unamesAt+u*unameSize:], at)
		le.PutUint16(out[unamesAt+u*unameSize+4:], uint16(len(name)))
		raw = binary.AppendUvarint(raw, uint64(len(row.Signature)))
		raw = append(raw, row.Signature...)
		raw = binary.AppendUvarint(raw, uint64(len(row.MetaBytes)))
		raw = append(raw, row.MetaBytes...)
		if (u+1)%unitsPerFrame == 0 || u == nunits-1 {
			frame := detailCodec.encoder().EncodeAll(raw, nil)
			f := out[framesAt+(u/unitsPerFrame)*frameSize:]
			le.PutUint32(f[0:], uint32(details.Len()))
			le.PutUint32(f[4:], uint32(len(frame)))
			details.Write(frame)
			raw = raw[:0]
		}
	}
	for i, b := range sorted {
		rec := out[blobsAt+i*blobSize : blobsAt+(i+1)*blobSize]
		copy(rec[:20], b.sha[:])
		le.PutUint32(rec[20:], uint32(b.first))
		le.PutUint32(rec[24:], uint32(b.n))
		le.PutUint32(rec[28:], uint32(min(b.info.Size, 1<<32-1)))
		rec[32] = gitindex.SkipCode(b.info.Skip)
		le.PutUint16(rec[33:], uint16(min(b.info.SyntaxErrors, 1<<16-1)))
		if b.info.Fallback {
			rec[35] = 1
		}
	}
	var dict bytes.Buffer
	kinds.write(&dict)
	langs.write(&dict)

	copy(out, segMagic)
	le.PutUint32(out[8:], uint32(len(sorted)))
	le.PutUint32(out[12:], uint32(nrows))
	le.PutUint32(out[16:], uint32(dict.Len()))
	le.PutUint32(out[20:], uint32(names.Len()))
	le.PutUint32(out[24:], uint32(details.Len()))
	le.PutUint32(out[32:], uint32(nunits))
	le.PutUint32(out[36:], uint32(len(wide)))
	le.PutUint32(out[40:], uint32(len(spans)))
	out = append(out, dict.Bytes()...)
	out = append(out, names.Bytes()...)
	out = append(out, details.Bytes()...)
	le.PutUint32(out[28:], checksum.Sum(out[headerSize:]))
	le.PutUint32(out[60:], checksum.Sum(out[:60]))
	return out
}

// narrow returns row r's start line and parent as its 8-byte record holds
// them: the parent as how many rows before r it is (0: none), or wideMark
// for both when either does not fit.
func narrow(r int, row *Row) (line, parent uint16) {
	if row.StartLine < 0 || row.StartLine >= wideMark {
		return wideMark, wideMark
	}
	if row.Parent < 0 {
		return uint16(row.StartLine), 0
	}
	if d := r - row.Parent; d > 0 && d < wideMark {
		return uint16(row.StartLine), uint16(d)
	}
	return wideMark, wideMark
}

// wideRows lists the rows whose start line or parent the 8-byte record
// cannot hold.
func wideRows(rows []Row) []int {
	var out []int
	for r := range rows {
		if line, _ := narrow(r, &rows[r]); line == wideMark {
			out = append(out, r)
		}
	}
	return out
}

// spans lists the first row and the sorted blob index of each blob with
// rows, in row order (AddBlob adds blobs in row order).
func (w *TableWriter) spans(blobIdx []int) [][2]uint32 {
	var out [][2]uint32
	for bi, b := range w.Blobs {
		if b.n > 0 {
			out = append(out, [2]uint32{uint32(b.first), uint32(blobIdx[bi])})
		}
	}
	return out
}

// unitCopies fills the copies section: each unit's rows have the copies
// entry of its first row (the same content hash, name and text or none
// give the same entry), but for a unit with text and no content hash,
// whose rows are each their own first copy.
func unitCopies(out []byte, rows []Row, firsts []int) {
	column := make([]byte, copySize*len(rows))
	copiesColumn(column, rows)
	for u, r := range firsts {
		c := binary.LittleEndian.Uint32(column[copySize*r:])
		if rows[r].Indexed && rows[r].Hash == ([16]byte{}) {
			c = selfCopy
		}
		binary.LittleEndian.PutUint32(out[copySize*u:], c)
	}
}

// copiesColumn fills a copies column: for each row, the first row with
// the same content hash, with the renamedCopy bit when the row's name
// (as the table stores it) is not its first copy's, or noText for a row
// without text of its own.
func copiesColumn(out []byte, rows []Row) {
	first := make(map[[16]byte]uint32, len(rows))
	for r, row := range rows {
		c := uint32(r)
		switch {
		case !row.Indexed:
			c = noText
		case row.Hash != [16]byte{}:
			if f, ok := first[row.Hash]; ok {
				c = f
				if Clip(row.Name, 1<<16-1) != Clip(rows[f].Name, 1<<16-1) {
					c |= renamedCopy
				}
			} else {
				first[row.Hash] = c
			}
		}
		binary.LittleEndian.PutUint32(out[copySize*r:], c)
	}
}
