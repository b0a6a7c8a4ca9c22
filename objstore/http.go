// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package objstore

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	neturl "net/url"
	"strconv"
	"time"

	"github.com/sublinear/pearson/internal/redact"
)

// headHTTP returns the file at an http(s) URL, its size and ETag read by a
// HEAD request, or, when the server does not answer HEAD, by a request
// for its first byte.
func (st *Store) headHTTP(url string) ([]*Object, error) {
	name := redact.URL(url)
	o := &Object{url: name, st: st}
	h := &httpObject{url: url, name: name, st: st}
	o.be = h
	var err error
	for attempt := 0; ; attempt++ {
		err = st.head(o, h)
		if err == nil || !retryable(err) || attempt >= st.retries {
			break
		}
		if e := st.backoff(attempt, err); e != nil {
			err = e
			break
		}
	}
	if err != nil {
		var oe *Error
		if !errors.As(err, &oe) {
			err = &Error{URL: name, Op: "reading its size", Kind: ErrNetwork, Err: err}
		}
		return nil, err
	}
	return []*Object{o}, nil
}

// head reads the size and ETag of o.
func (st *Store) head(o *Object, h *httpObject) error {
	if err := st.acquire(); err != nil {
		return err
	}
	defer st.release()
	req, err := http.NewRequestWithContext(st.ctx, http.MethodHead, h.url, nil)
	if err != nil {
		return &Error{URL: o.url, Op: "parsing", Kind: ErrBadURL, Err: unURL(err)}
	}
	resp, err := st.httpc.Do(req)
	if err != nil {
		return st.netError(o.url, "reading its size", err)
	}
	resp.Body.Close()
	if err := statusError(resp, o.url, "reading its size"); err != nil {
		if resp.StatusCode != http.StatusMethodNotAllowed && resp.StatusCode != http.StatusNotImplemented {
			return err
		}
		return st.firstByte(o, h)
	}
	if resp.ContentLength < 0 || resp.Header.Get("Accept-Ranges") != "bytes" {
		return st.firstByte(o, h)
	}
	o.size, o.etag = resp.ContentLength, resp.Header.Get("ETag")
	h.etag, h.size = o.etag, o.size
	return nil
}

// firstByte reads the size and ETag of o from the answer to a request for
// its first byte (the request slot is held).
func (st *Store) firstByte(o *Object, h *httpObject) error {
	st.requests.Add(1)
	req, err := http.NewRequestWithContext(st.ctx, http.MethodGet, h.url, nil)
	if err != nil {
		return &Error{URL: o.url, Op: "parsing", Kind: ErrBadURL, Err: unURL(err)}
	}
	req.Header.Set("Range", "bytes=0-0")
	resp, err := st.httpc.Do(req)
	if err != nil {
		return st.netError(o.url, "reading its size", err)
	}
	defer resp.Body.Close() // unread: a server ignoring Range is not downloaded
	if resp.StatusCode == http.StatusOK {
		return &Error{URL: o.url, Op: "reading its size", Kind: ErrNoRange,
			Hint: "reading a sample would download the whole file: download it and give its local path, or serve it from a server that supports Range"}
	}
	if err := statusError(resp, o.url, "reading its size"); err != nil {
		return err
	}
	var a, b, total int64
	if _, err := fmt.Sscanf(resp.Header.Get("Content-Range"), "bytes %d-%d/%d", &a, &b, &total); err != nil || total < 0 {
		return &Error{URL: o.url, Op: "reading its size", Kind: ErrServer,
			Err: fmt.Errorf("Content-Range %q does not give the size", resp.Header.Get("Content-Range"))}
	}
	o.size, o.etag = total, resp.Header.Get("ETag")
	h.etag, h.size = o.etag, o.size
	return nil
}

// httpObject fetches the ranges of a file behind an http(s) URL.
type httpObject struct {
	url  string // as requested, secrets included
	name string // as shown (redact.URL)
	st   *Store
	etag string
	size int64
}

func (h *httpObject) get(ctx context.Context, off, n int64) ([]byte, error) {
	rng := fmt.Sprintf("bytes=%d-%d", off, off+n-1)
	op := "reading " + rng
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, h.url, nil)
	if err != nil {
		return nil, &Error{URL: h.name, Op: op, Kind: ErrBadURL, Err: unURL(err)}
	}
	req.Header.Set("Range", rng)
	if h.etag != "" {
		req.Header.Set("If-Match", h.etag)
	}
	resp, err := h.st.httpc.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return nil, &Error{URL: h.name, Op: op, Kind: ErrNetwork, Err: ctx.Err()}
		}
		return nil, h.st.netError(h.name, op, err)
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusOK:
		return nil, &Error{URL: h.name, Op: op, Kind: ErrNoRange,
			Hint: "the server sent the whole file to a range request; it was not read: download it and give its local path"}
	case resp.StatusCode == http.StatusPreconditionFailed:
		return nil, &Error{URL: h.name, Op: op, Kind: ErrChanged, Hint: "its ETag no longer matches: run again"}
	}
	if err := statusError(resp, h.name, op); err != nil {
		return nil, err
	}
	if e := resp.Header.Get("ETag"); h.etag != "" && e != "" && e != h.etag {
		return nil, &Error{URL: h.name, Op: op, Kind: ErrChanged, Hint: fmt.Sprintf("its ETag was %s, now %s: run again", h.etag, e)}
	}
	if err := checkContentRange(resp.Header.Get("Content-Range"), off, n, h.size); err != nil {
		return nil, &Error{URL: h.name, Op: op, Kind: kindOfRange(err), Err: err}
	}
	if resp.ContentLength >= 0 && resp.ContentLength != n {
		return nil, &Error{URL: h.name, Op: op, Kind: ErrServer, Err: fmt.Errorf("the answer holds %d bytes, not %d", resp.ContentLength, n)}
	}
	b, err := h.st.readBody(resp.Body, n)
	if err != nil {
		return nil, err
	}
	return b, nil
}

// statusError returns the error for an answer whose status is not a
// success: retried for 429 and 5xx.
func statusError(resp *http.Response, url, op string) error {
	code := resp.StatusCode
	if code >= 200 && code < 300 {
		return nil
	}
	e := &Error{URL: url, Op: op, Kind: ErrServer, Err: fmt.Errorf("HTTP %s", resp.Status)}
	switch {
	case code == http.StatusNotFound || code == http.StatusGone:
		e.Kind, e.Err = ErrNotFound, nil
	case code == http.StatusUnauthorized || code == http.StatusForbidden:
		e.Kind = ErrAccessDenied
	case code == http.StatusTooManyRequests || code >= 500:
		re := &retryError{err: e}
		if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && s > 0 {
			re.after = time.Duration(s) * time.Second
		}
		return re
	}
	return e
}

// netError returns the error of a request to url (as shown) that got no
// answer: a timeout, not retried; otherwise a network error, retried.
func (st *Store) netError(url, op string, err error) error {
	err = unURL(err)
	if isTimeout(err) {
		return &Error{URL: url, Op: op, Kind: ErrTimeout, Err: st.netCause(err)}
	}
	return &retryError{err: &Error{URL: url, Op: op, Kind: ErrNetwork, Err: st.netCause(err)}}
}

// unURL returns the cause of a *url.Error, whose message holds the URL
// requested with its query string (redact.URL); err itself otherwise.
func unURL(err error) error {
	var ue *neturl.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}
