// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package parallel

import (
	"math/rand/v2"
	"sync"
)

// Source is a rand.Source that forwards to a caller's source until Detach,
// and from then on draws from a private generator. A call run under Await
// that draws from the caller's source through a Source stops touching it
// once the caller, returning on a cancellation, detaches it: the abandoned
// call's draws, whose results are dropped, no longer race with the
// caller's later use of its source. Until Detach the stream is the caller's,
// draw for draw.
type Source struct {
	mu  sync.Mutex
	src rand.Source
}

// NewSource returns a Source forwarding to src.
func NewSource(src rand.Source) *Source { return &Source{src: src} }

// Uint64 returns the next value of the source forwarded to.
func (s *Source) Uint64() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.src.Uint64()
}

// Detach stops forwarding to the caller's source.
func (s *Source) Detach() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.src = rand.NewPCG(0, 0)
}
