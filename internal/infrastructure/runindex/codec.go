package runindex

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
	"strings"
)

// magic opens an index file; its last byte is the format's version, changed when an entry's
// meaning does (an index of another version is rebuilt). The body is binary, not JSON:
// decoding 10,000 JSON entries was most of a list's time.
const magic = "awf-idx\x03"

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// errCorrupt is an index that is truncated, garbled or of another version: it is rebuilt.
var errCorrupt = errors.New("corrupt run index")

// stamp is what a stat tells of a file: an entry is read again when its file's stamp changed.
// A rename gives a new inode, so a record rewritten within one timestamp tick at the same
// size is still seen.
type stamp struct{ Size, MTime, Ino int64 }

// entry is one run directory in the index: what a list shows of its record (times as Unix
// nanoseconds) and the stamps of the files it was read from.
type entry struct {
	ID, Workflow, Status, Current, Error string
	PID, Resumed, Calls                  int64
	Started, Updated, Ended              int64
	Active                               []string
	// Masked is the record's mask set with the values of its secret-named inputs, which a list
	// masks (the inputs themselves are not kept).
	Masked []string
	// Bad is a directory without a readable record (a run starting, or corrupt): it is kept so
	// its record is read once it appears or changes, and never listed.
	Bad bool
	// State, Journal and Activity are the stamps of state.json, journal.jsonl and the activity
	// file when the entry was made; Calls is the activity file's count of tool calls.
	State, Journal, Activity stamp
}

// header is the index's view of the runs directory when its names were last read: while the
// directory's link count still matches, no run directory was added, and a list need not read
// the directory again (docs/guide/serve.md, "Many runs").
type header struct {
	NLink, Dirs int64
}

// encode is the index file of h and entries: magic, header, entries, then a CRC-32C of all
// that came before.
func encode(h header, entries []entry) []byte {
	b := make([]byte, 0, 64+len(entries)*160)
	b = append(b, magic...)
	b = binary.AppendVarint(b, h.NLink)
	b = binary.AppendVarint(b, h.Dirs)
	b = binary.AppendUvarint(b, uint64(len(entries)))
	for i := range entries {
		b = appendEntry(b, &entries[i])
	}
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli))
}

func appendEntry(b []byte, e *entry) []byte {
	for _, s := range [...]string{e.ID, e.Workflow, e.Status, e.Current, e.Error} {
		b = appendString(b, s)
	}
	flags := int64(0)
	if e.Bad {
		flags = 1
	}
	for _, n := range [...]int64{e.PID, e.Resumed, e.Calls, e.Started, e.Updated, e.Ended, flags,
		e.State.Size, e.State.MTime, e.State.Ino, e.Journal.Size, e.Journal.MTime, e.Journal.Ino,
		e.Activity.Size, e.Activity.MTime, e.Activity.Ino} {
		b = binary.AppendVarint(b, n)
	}
	for _, list := range [...][]string{e.Active, e.Masked} {
		b = binary.AppendUvarint(b, uint64(len(list)))
		for _, s := range list {
			b = appendString(b, s)
		}
	}
	return b
}

func appendString(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

// decoder reads an index body; the first fault sets err and every later read returns zero.
type decoder struct {
	s   string // the whole file as one string: every field is a substring of it, one allocation
	off int
	err error
}

// decode parses an index file, refusing (errCorrupt) any that is truncated, garbled, of
// another version or whose counts do not fit in it.
func decode(data []byte) (header, []entry, error) {
	if len(data) < len(magic)+4 || string(data[:len(magic)]) != magic {
		return header{}, nil, errCorrupt
	}
	body := data[:len(data)-4]
	if crc32.Checksum(body, castagnoli) != binary.LittleEndian.Uint32(data[len(body):]) {
		return header{}, nil, errCorrupt
	}
	d := decoder{s: string(body), off: len(magic)}
	h := header{NLink: d.int(), Dirs: d.int()}
	n := d.uint()
	if d.err != nil || n > uint64(len(d.s)-d.off)/minEntry {
		return header{}, nil, errCorrupt
	}
	entries := make([]entry, n)
	seen := make(map[string]struct{}, n)
	for i := range entries {
		d.entry(&entries[i])
		if _, dup := seen[entries[i].ID]; dup { // one name twice would stand for a run not listed
			d.fail()
		}
		seen[entries[i].ID] = struct{}{}
	}
	if d.err != nil || d.off != len(d.s) {
		return header{}, nil, errCorrupt
	}
	return h, entries, nil
}

// minEntry is the fewest bytes an entry takes (a one-byte id, every other field empty): an
// index claiming more entries than fit in it is refused before anything is allocated.
const minEntry = 1 + 1 + 4 + 16 + 2

// validID says whether id can name a directory of the runs directory: a list stats files under
// it, so a planted "../x" must not reach outside.
func validID(id string) bool {
	return id != "" && id[0] != '.' && !strings.ContainsAny(id, "/\\\x00")
}

func (d *decoder) entry(e *entry) {
	e.ID, e.Workflow, e.Status, e.Current, e.Error = d.str(), d.str(), d.str(), d.str(), d.str()
	e.PID, e.Resumed, e.Calls, e.Started, e.Updated, e.Ended = d.int(), d.int(), d.int(), d.int(), d.int(), d.int()
	e.Bad = d.int() == 1
	e.State = stamp{d.int(), d.int(), d.int()}
	e.Journal = stamp{d.int(), d.int(), d.int()}
	e.Activity = stamp{d.int(), d.int(), d.int()}
	e.Active, e.Masked = d.strs(), d.strs()
	if !validID(e.ID) {
		d.fail()
	}
}

func (d *decoder) fail() {
	if d.err == nil {
		d.err = errCorrupt
	}
	d.off = len(d.s)
}

func (d *decoder) uint() uint64 {
	v, n := uvarint(d.s[d.off:])
	if n <= 0 {
		d.fail()
		return 0
	}
	d.off += n
	return v
}

func (d *decoder) int() int64 {
	u := d.uint()
	return int64(u>>1) ^ -int64(u&1) // zig-zag, as binary.AppendVarint writes
}

func (d *decoder) str() string {
	n := d.uint()
	if n > uint64(len(d.s)-d.off) {
		d.fail()
		return ""
	}
	s := d.s[d.off : d.off+int(n)]
	d.off += int(n)
	return s
}

func (d *decoder) strs() []string {
	n := d.uint()
	if n == 0 {
		return nil
	}
	if n > uint64(len(d.s)-d.off) {
		d.fail()
		return nil
	}
	out := make([]string, n)
	for i := range out {
		out[i] = d.str()
	}
	return out
}

// uvarint is binary.Uvarint over a string, so decoding copies nothing.
func uvarint(s string) (uint64, int) {
	var x uint64
	var shift uint
	for i := 0; i < len(s) && i < binary.MaxVarintLen64; i++ {
		c := s[i]
		if c < 0x80 {
			if i == binary.MaxVarintLen64-1 && c > 1 {
				return 0, -1
			}
			return x | uint64(c)<<shift, i + 1
		}
		x |= uint64(c&0x7f) << shift
		shift += 7
	}
	return 0, 0
}
