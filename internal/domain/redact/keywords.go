package redact

import (
	"strings"
	"sync"
)

// keywordIndex tells, in one pass over a text, which rules have a keyword in it: what calling
// strings.Contains for each of the rules' fifty-odd keywords told, at the cost of one bit test
// per byte for text that holds none (a log line, a record's arguments). A keyword is looked up
// by its first two bytes; only positions whose pair starts some keyword are compared.
type keywordIndex struct {
	pairs  [1 << 16 / 64]uint64 // bit p set when some keyword starts with the byte pair p
	byPair map[uint16][]keywordRule
}

// keywordRule is one keyword and the rule (index in rules) it belongs to.
type keywordRule struct {
	keyword string
	rule    int
}

// keywords is built on first use, like the rules' expressions.
var keywords = sync.OnceValue(func() *keywordIndex {
	x := &keywordIndex{byPair: map[uint16][]keywordRule{}}
	for i, ru := range rules {
		for _, k := range ru.keywords {
			p := uint16(k[0])<<8 | uint16(k[1]) // every keyword has at least two bytes
			x.pairs[p/64] |= 1 << (p % 64)
			x.byPair[p] = append(x.byPair[p], keywordRule{k, i})
		}
	}
	return x
})

// rulesIn returns the set of rules (bit i for rules[i]) with a keyword in s.
func (x *keywordIndex) rulesIn(s string) uint64 {
	var found uint64
	for i := 0; i+1 < len(s); i++ {
		p := uint16(s[i])<<8 | uint16(s[i+1])
		if x.pairs[p/64]&(1<<(p%64)) == 0 {
			continue
		}
		for _, kr := range x.byPair[p] {
			if strings.HasPrefix(s[i:], kr.keyword) {
				found |= 1 << kr.rule
			}
		}
	}
	return found
}
