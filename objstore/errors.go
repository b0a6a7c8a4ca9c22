// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package objstore

import (
	"errors"
	"fmt"
)

// The kinds of failure of a remote read; the errors returned wrap one of
// them (errors.Is), with the URL and what to do in their message.
var (
	// ErrNoCredentials means a request was refused and no credentials were
	// found to sign it.
	ErrNoCredentials = errors.New("no credentials")
	// ErrAccessDenied means the server refused the credentials given.
	ErrAccessDenied = errors.New("access denied")
	// ErrNoSuchBucket means the bucket does not exist.
	ErrNoSuchBucket = errors.New("no such bucket")
	// ErrNotFound means the object (key or URL) does not exist.
	ErrNotFound = errors.New("no such object")
	// ErrEmptyPrefix means a prefix holds no object.
	ErrEmptyPrefix = errors.New("no object under the prefix")
	// ErrNoRange means the server ignores Range requests: reading a part
	// of the object would download all of it.
	ErrNoRange = errors.New("the server does not support range requests")
	// ErrChanged means the object changed between two requests.
	ErrChanged = errors.New("the object changed while it was read")
	// ErrNetwork means the server could not be reached, or the connection
	// dropped, after the retries.
	ErrNetwork = errors.New("network error")
	// ErrTimeout means the server did not connect, answer, or send its
	// answer's bytes within the timeouts of Settings; it is not retried.
	ErrTimeout = errors.New("timed out")
	// ErrBadURL means a URL that names no object.
	ErrBadURL = errors.New("not a valid object URL")
	// ErrServer means an answer that does not check out (a wrong range,
	// a short body, an error status), after the retries.
	ErrServer = errors.New("bad answer from the server")
)

// Error is a failed remote operation: its URL, what was being done, and its
// kind (one of the Err values above) with the cause.
type Error struct {
	URL  string // without its userinfo and query string, which may be secrets
	Op   string // "listing", "reading bytes 0-99", ...
	Kind error
	Err  error // the cause, may be nil
	Hint string
}

func (e *Error) Error() string {
	s := fmt.Sprintf("%s: %s: %v", e.URL, e.Op, e.Kind)
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	if e.Hint != "" {
		s += " (" + e.Hint + ")"
	}
	return s
}

// Unwrap returns the kind and the cause.
func (e *Error) Unwrap() []error {
	if e.Err == nil {
		return []error{e.Kind}
	}
	return []error{e.Kind, e.Err}
}
