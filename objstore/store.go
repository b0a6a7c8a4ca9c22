// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package objstore

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sublinear/pearson/internal/isnil"
	"github.com/sublinear/pearson/internal/redact"
)

// Settings says how a Store reaches its servers. The zero value is ready
// to use.
type Settings struct {
	// Endpoint, when not empty, is the URL of an S3-compatible server
	// (http://127.0.0.1:7070), addressed path-style; empty means
	// AWS_ENDPOINT_URL, or AWS itself.
	Endpoint string
	// Anonymous asks for unsigned S3 requests (a public bucket), as does
	// AWS_NO_SIGN_REQUEST=true; they are unsigned anyway when no
	// credentials are found.
	Anonymous bool
	// MaxInFlight is the most requests in flight at once. Zero means
	// DefaultInFlight; at most 256.
	MaxInFlight int
	// CacheBytes bounds the bytes kept by the objects of the store. Zero
	// means DefaultCacheBytes.
	CacheBytes int64
	// Retries is how many times a failed request is retried (throttling,
	// a server error, a dropped connection). Zero means DefaultRetries;
	// negative, none.
	Retries int
	// HTTPClient, when not nil, makes the requests (its Transport is
	// used by the S3 client too), under the timeouts below. Nil means a
	// client of its own.
	HTTPClient *http.Client
	// ConnectTimeout bounds the wait for a connection (TCP and TLS) to
	// the server. Zero means DefaultConnectTimeout; negative, no bound.
	ConnectTimeout time.Duration
	// Timeout bounds the wait for an answer: for its headers once the
	// request is sent, and then for its body, which fails when it comes
	// slower than MinRate over a span of Timeout (a server that stalls or
	// trickles). Zero means DefaultTimeout; negative, no bound. A request
	// that times out is not retried: the error says how long it waited.
	Timeout time.Duration
	// TimeoutAdvice is what the message of a timeout advises, such as
	// "set --timeout to wait longer"; empty means a word on the fields
	// above.
	TimeoutAdvice string
}

// The defaults of Settings.
const (
	DefaultInFlight   = 32
	DefaultCacheBytes = 256 << 20
	DefaultRetries    = 4
)

// Stats counts what a Store has done.
type Stats struct {
	Requests int64 // requests made, listings, HEADs and retries included
	Bytes    int64 // bytes of object data received
	InFlight int64 // requests in flight now
}

// Store reads objects from S3-compatible stores and HTTP(S) servers. Its
// methods may be called from several goroutines at once.
type Store struct {
	ctx        context.Context
	set        Settings
	sem        chan struct{}
	cacheBytes int64
	retries    int
	httpc      *http.Client

	s3once sync.Once
	s3     *s3Client
	s3err  error

	requests, bytes, inFlight atomic.Int64
	pending                   atomic.Int64 // fetches started, not done
}

// New returns a Store whose requests are made under ctx: cancelling it
// stops every request at once, and every later read fails.
//
// A nil ctx is a programmer's error: it panics, in the caller's goroutine.
func New(ctx context.Context, s Settings) *Store {
	isnil.Context(ctx, "objstore.New")
	st := &Store{ctx: ctx, set: s, httpc: s.HTTPClient}
	n := s.MaxInFlight
	if n <= 0 {
		n = DefaultInFlight
	}
	st.sem = make(chan struct{}, min(n, 256))
	st.cacheBytes = s.CacheBytes
	if st.cacheBytes <= 0 {
		st.cacheBytes = DefaultCacheBytes
	}
	st.retries = s.Retries
	switch {
	case st.retries == 0:
		st.retries = DefaultRetries
	case st.retries < 0:
		st.retries = 0
	}
	st.httpc = client(s)
	return st
}

// client returns the HTTP client of a Store with settings s: s.HTTPClient,
// or one of its own, with its transport under the timeouts of s.
func client(s Settings) *http.Client {
	connect, wait := s.ConnectTimeout, s.Timeout
	if connect == 0 {
		connect = DefaultConnectTimeout
	}
	if wait == 0 {
		wait = DefaultTimeout
	}
	c := &http.Client{}
	var base http.RoundTripper
	if s.HTTPClient != nil {
		*c = *s.HTTPClient
		base = c.Transport
		if base == nil {
			base = http.DefaultTransport
		}
	}
	c.Transport = newTransport(base, connect, wait)
	return c
}

// Stats returns what the store has done so far.
func (st *Store) Stats() Stats {
	if st == nil {
		return Stats{}
	}
	return Stats{Requests: st.requests.Load(), Bytes: st.bytes.Load(), InFlight: st.inFlight.Load()}
}

// IsURL reports whether path is a URL that a Store reads (s3://, http://,
// https://) rather than a local path.
func IsURL(path string) bool {
	for _, p := range []string{"s3://", "http://", "https://"} {
		if len(path) > len(p) && strings.EqualFold(path[:len(p)], p) {
			return true
		}
	}
	return false
}

// List returns the objects that url names: one object, or every object
// under an s3:// prefix ending in "/", in the lexical order of their keys;
// see the package documentation. An empty prefix fails with
// ErrEmptyPrefix.
func (st *Store) List(url string) ([]*Object, error) {
	if st == nil {
		return nil, errors.New("objstore: List on a nil *Store")
	}
	switch {
	case hasPrefixFold(url, "s3://"):
		c, err := st.s3client()
		if err != nil {
			return nil, &Error{URL: redact.URL(url), Op: "setting up the S3 client", Kind: ErrNoCredentials, Err: err}
		}
		objs, err := c.list(st, url)
		for _, o := range objs {
			o.url = redact.URL(o.url)
		}
		var e *Error
		if errors.As(err, &e) {
			e.URL = redact.URL(e.URL)
		}
		return objs, err
	case hasPrefixFold(url, "http://"), hasPrefixFold(url, "https://"):
		return st.headHTTP(url)
	}
	return nil, &Error{URL: redact.URL(url), Op: "parsing", Kind: ErrBadURL, Hint: "give s3://bucket/key, s3://bucket/prefix/, or an http(s):// URL"}
}

func hasPrefixFold(s, p string) bool { return len(s) >= len(p) && strings.EqualFold(s[:len(p)], p) }

// acquire waits for a free request slot; release frees it.
func (st *Store) acquire() error {
	select {
	case st.sem <- struct{}{}:
		st.inFlight.Add(1)
		st.requests.Add(1)
		return nil
	case <-st.ctx.Done():
		return st.ctx.Err()
	}
}

func (st *Store) release() {
	st.inFlight.Add(-1)
	<-st.sem
}

// fetch returns the bytes [off, off+n) of o, retrying a failure that may
// pass (see retryable) with exponential backoff.
func (st *Store) fetch(o *Object, off, n int64) ([]byte, error) {
	op := fmt.Sprintf("reading bytes %d-%d", off, off+n-1)
	var err error
	for attempt := 0; ; attempt++ {
		if err := st.acquire(); err != nil {
			return nil, &Error{URL: o.url, Op: op, Kind: ErrNetwork, Err: err}
		}
		var b []byte
		b, err = o.be.get(st.ctx, off, n)
		st.release()
		if err == nil {
			st.bytes.Add(int64(len(b)))
			return b, nil
		}
		if !retryable(err) || attempt >= st.retries || st.ctx.Err() != nil {
			break
		}
		if e := st.backoff(attempt, err); e != nil {
			err = e
			break
		}
	}
	var oe *Error
	if errors.As(err, &oe) {
		if oe.URL == "" {
			oe.URL = o.url
		}
		if oe.Op == "" {
			oe.Op = op
		}
		return nil, oe
	}
	if st.ctx.Err() != nil {
		return nil, &Error{URL: o.url, Op: op, Kind: ErrNetwork, Err: st.ctx.Err()}
	}
	return nil, &Error{URL: o.url, Op: op, Kind: ErrNetwork, Err: err}
}

// retryError marks a failure worth retrying: throttling, a server error, a
// connection that dropped. after, when positive, is how long the server
// asked to wait.
type retryError struct {
	err   error
	after time.Duration
}

func (e *retryError) Error() string { return e.err.Error() }
func (e *retryError) Unwrap() error { return e.err }

func retryable(err error) bool {
	var re *retryError
	return errors.As(err, &re)
}

// backoff waits before retry attempt+1: 100 ms doubled each time, or what
// the server asked for (at most 10 s), unless the context ends first.
func (st *Store) backoff(attempt int, err error) error {
	d := 100 * time.Millisecond << attempt
	var re *retryError
	if errors.As(err, &re) && re.after > 0 {
		d = min(re.after, 10*time.Second)
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-st.ctx.Done():
		return st.ctx.Err()
	}
}
