// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package objstore

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/feature/ec2/imds"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/smithy-go"
	smithyhttp "github.com/aws/smithy-go/transport/http"

	"github.com/sublinear/pearson/internal/redact"
)

// s3Client is the S3 client of a Store.
type s3Client struct {
	st      *Store
	c       *s3.Client
	noCreds bool // no credentials were found: requests are unsigned
	anon    bool // requests are unsigned
}

// s3client returns the store's S3 client, made at the first use.
func (st *Store) s3client() (*s3Client, error) {
	st.s3once.Do(func() { st.s3, st.s3err = newS3Client(st) })
	return st.s3, st.s3err
}

// newS3Client loads the configuration the way AWS tools do
// (config.LoadDefaultConfig) and makes the client.
func newS3Client(st *Store) (*s3Client, error) {
	opts := []func(*config.LoadOptions) error{
		config.WithRetryer(func() aws.Retryer {
			return retry.NewStandard(func(o *retry.StandardOptions) {
				o.MaxAttempts = st.retries + 1
				// A timeout is not retried: it waited as long as asked.
				o.Retryables = append([]retry.IsErrorRetryable{retry.IsErrorRetryableFunc(func(err error) aws.Ternary {
					if isTimeout(err) {
						return aws.FalseTernary
					}
					return aws.UnknownTernary
				})}, o.Retryables...)
			})
		}),
	}
	if !imdsWanted() {
		// Off AWS, the instance metadata service is a probe of
		// 169.254.169.254 that waits, then warns, before the message
		// that no credentials were found.
		opts = append(opts, config.WithEC2IMDSClientEnableState(imds.ClientDisabled))
	}
	if st.set.Endpoint != "" {
		opts = append(opts, config.WithBaseEndpoint(st.set.Endpoint))
	}
	cfg, err := config.LoadDefaultConfig(st.ctx, opts...)
	if err != nil {
		return nil, err
	}
	if cfg.Region == "" {
		cfg.Region = "us-east-1" // S3-compatible servers take any; AWS redirects
	}
	sc := &s3Client{st: st, anon: st.set.Anonymous}
	if v, _ := strconv.ParseBool(os.Getenv("AWS_NO_SIGN_REQUEST")); v {
		sc.anon = true
	}
	if !sc.anon {
		ctx, cancel := context.WithTimeout(st.ctx, 5*time.Second)
		_, err := cfg.Credentials.Retrieve(ctx)
		cancel()
		if err != nil {
			sc.noCreds, sc.anon = true, true
		}
	}
	if sc.anon {
		cfg.Credentials = aws.AnonymousCredentials{}
	}
	sc.c = s3.NewFromConfig(cfg, func(o *s3.Options) {
		o.HTTPClient = st.httpc
		if o.BaseEndpoint != nil && *o.BaseEndpoint != "" {
			o.UsePathStyle = true // an S3-compatible server
		}
		o.ResponseChecksumValidation = aws.ResponseChecksumValidationWhenRequired
		o.DisableLogOutputChecksumValidationSkipped = true
	})
	return sc, nil
}

// imdsWanted reports whether the credentials may come from the EC2
// instance metadata service: when AWS_EC2_METADATA_DISABLED is false, or
// AWS_EC2_METADATA_SERVICE_ENDPOINT names it (see the package
// documentation).
func imdsWanted() bool {
	if v, err := strconv.ParseBool(os.Getenv("AWS_EC2_METADATA_DISABLED")); err == nil {
		return !v
	}
	return os.Getenv("AWS_EC2_METADATA_SERVICE_ENDPOINT") != ""
}

// parseS3 splits s3://bucket/key.
func parseS3(url string) (bucket, key string, err error) {
	rest := url[len("s3://"):]
	bucket, key, _ = strings.Cut(rest, "/")
	if bucket == "" {
		return "", "", &Error{URL: url, Op: "parsing", Kind: ErrBadURL, Hint: "give s3://bucket/key or s3://bucket/prefix/"}
	}
	return bucket, key, nil
}

// list returns the objects of url: the object itself, or, for a key
// ending in "/" or one that is no object but a "folder", every object
// under it.
func (c *s3Client) list(st *Store, url string) ([]*Object, error) {
	bucket, key, err := parseS3(url)
	if err != nil {
		return nil, err
	}
	if key != "" && !strings.HasSuffix(key, "/") {
		if err := st.acquire(); err != nil {
			return nil, &Error{URL: url, Op: "reading its size", Kind: ErrNetwork, Err: err}
		}
		h, err := c.c.HeadObject(st.ctx, &s3.HeadObjectInput{Bucket: &bucket, Key: &key})
		st.release()
		if err == nil {
			o := &Object{url: url, size: aws.ToInt64(h.ContentLength), etag: aws.ToString(h.ETag), st: st}
			o.be = &s3Object{c: c, bucket: bucket, key: key, etag: o.etag, size: o.size, url: redact.URL(url)}
			return []*Object{o}, nil
		}
		if kind := c.kind(err); kind != ErrNotFound {
			return nil, c.wrap(url, "reading its size", err)
		}
		objs, lerr := c.listPrefix(st, url, bucket, key+"/")
		if lerr == nil || !errors.Is(lerr, ErrEmptyPrefix) {
			return objs, lerr
		}
		return nil, c.notFound(st, url, bucket, err)
	}
	objs, err := c.listPrefix(st, url, bucket, key)
	if errors.Is(err, ErrEmptyPrefix) {
		return nil, c.notFound(st, url, bucket, err)
	}
	return objs, err
}

// notFound tells a missing bucket from a missing object or prefix.
func (c *s3Client) notFound(st *Store, url, bucket string, err error) error {
	if st.acquire() == nil {
		_, berr := c.c.HeadBucket(st.ctx, &s3.HeadBucketInput{Bucket: &bucket})
		st.release()
		if berr != nil && c.kind(berr) == ErrNotFound {
			return &Error{URL: url, Op: "listing", Kind: ErrNoSuchBucket, Hint: fmt.Sprintf("bucket %q does not exist at this endpoint", bucket)}
		}
	}
	if errors.Is(err, ErrEmptyPrefix) {
		return err
	}
	return &Error{URL: url, Op: "reading its size", Kind: ErrNotFound, Hint: "no object has this key; a prefix ends in /"}
}

// listPrefix lists every object under prefix.
func (c *s3Client) listPrefix(st *Store, url, bucket, prefix string) ([]*Object, error) {
	var objs []*Object
	p := s3.NewListObjectsV2Paginator(c.c, &s3.ListObjectsV2Input{Bucket: &bucket, Prefix: &prefix})
	for p.HasMorePages() {
		if err := st.acquire(); err != nil {
			return nil, &Error{URL: url, Op: "listing", Kind: ErrNetwork, Err: err}
		}
		page, err := p.NextPage(st.ctx)
		st.release()
		if err != nil {
			return nil, c.wrap(url, "listing", err)
		}
		for _, it := range page.Contents {
			k := aws.ToString(it.Key)
			size := aws.ToInt64(it.Size)
			if strings.HasSuffix(k, "/") && size == 0 {
				continue // a folder marker
			}
			u := "s3://" + bucket + "/" + k
			o := &Object{url: u, key: strings.TrimPrefix(k, prefix), size: size, etag: aws.ToString(it.ETag), st: st}
			o.be = &s3Object{c: c, bucket: bucket, key: k, etag: o.etag, size: size, url: u}
			objs = append(objs, o)
		}
	}
	if len(objs) == 0 {
		return nil, &Error{URL: url, Op: "listing", Kind: ErrEmptyPrefix}
	}
	return objs, nil
}

// kind returns the kind of an error of the S3 client.
func (c *s3Client) kind(err error) error {
	var ae smithy.APIError
	if errors.As(err, &ae) {
		switch ae.ErrorCode() {
		case "NoSuchBucket":
			return ErrNoSuchBucket
		case "NoSuchKey", "NotFound":
			return ErrNotFound
		case "AccessDenied", "Forbidden", "InvalidAccessKeyId", "SignatureDoesNotMatch", "InvalidToken", "ExpiredToken", "AllAccessDisabled":
			return c.denied()
		case "PreconditionFailed":
			return ErrChanged
		}
	}
	if isTimeout(err) {
		return ErrTimeout
	}
	var send *smithyhttp.RequestSendError
	if errors.As(err, &send) {
		return ErrNetwork
	}
	var re *awshttp.ResponseError
	if errors.As(err, &re) && re.HTTPStatusCode() != 0 {
		switch re.HTTPStatusCode() {
		case http.StatusNotFound:
			return ErrNotFound
		case http.StatusForbidden, http.StatusUnauthorized:
			return c.denied()
		case http.StatusPreconditionFailed:
			return ErrChanged
		}
		return ErrServer
	}
	return ErrNetwork
}

func (c *s3Client) denied() error {
	if c.noCreds {
		return ErrNoCredentials
	}
	return ErrAccessDenied
}

// wrap returns the package's error for err, met doing op on url.
func (c *s3Client) wrap(url, op string, err error) error {
	kind := c.kind(err)
	e := &Error{URL: url, Op: op, Kind: kind, Err: err}
	switch kind {
	case ErrNoCredentials:
		e.Err = nil
		e.Hint = "set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE, or write ~/.aws/credentials; the unsigned request was refused"
	case ErrNoSuchBucket, ErrNotFound:
		e.Err = nil
	case ErrAccessDenied:
		var ae smithy.APIError
		if errors.As(err, &ae) {
			e.Err = fmt.Errorf("%s", ae.ErrorCode())
		}
		e.Hint = "the credentials found may not read it: check AWS_PROFILE, the keys and the bucket's policy"
	case ErrChanged:
		e.Err = nil
		e.Hint = "it was replaced while it was read: run again"
	case ErrTimeout, ErrNetwork:
		e.Err = c.st.netCause(unURL(err))
	}
	return e
}

// s3Object fetches the ranges of one S3 object.
type s3Object struct {
	c           *s3Client
	bucket, key string
	etag        string
	size        int64
	url         string
}

func (s *s3Object) get(ctx context.Context, off, n int64) ([]byte, error) {
	rng := fmt.Sprintf("bytes=%d-%d", off, off+n-1)
	in := &s3.GetObjectInput{Bucket: &s.bucket, Key: &s.key, Range: &rng}
	if s.etag != "" {
		in.IfMatch = &s.etag
	}
	out, err := s.c.c.GetObject(ctx, in)
	if err != nil {
		return nil, s.c.wrap(s.url, "reading "+rng, err)
	}
	defer out.Body.Close()
	if e := aws.ToString(out.ETag); s.etag != "" && e != "" && e != s.etag {
		return nil, &Error{URL: s.url, Op: "reading " + rng, Kind: ErrChanged, Hint: fmt.Sprintf("its ETag was %s, now %s: run again", s.etag, e)}
	}
	if err := checkContentRange(aws.ToString(out.ContentRange), off, n, s.size); err != nil {
		return nil, &Error{URL: s.url, Op: "reading " + rng, Kind: kindOfRange(err), Err: err}
	}
	if cl := aws.ToInt64(out.ContentLength); cl != n {
		return nil, &Error{URL: s.url, Op: "reading " + rng, Kind: ErrServer, Err: fmt.Errorf("the answer holds %d bytes, not %d", cl, n)}
	}
	return s.c.st.readBody(out.Body, n)
}

// readBody reads the n bytes of a body; a body cut short is a dropped
// connection, retried; a body that stalled timed out, not retried.
func (st *Store) readBody(r io.Reader, n int64) ([]byte, error) {
	b := make([]byte, n)
	if _, err := io.ReadFull(r, b); err != nil {
		if isTimeout(err) {
			return nil, &Error{Kind: ErrTimeout, Err: st.netCause(err)}
		}
		return nil, &retryError{err: &Error{Kind: ErrNetwork, Err: fmt.Errorf("the connection dropped after part of the answer: %w", err)}}
	}
	return b, nil
}

// errSizeChanged is a Content-Range whose total is not the listed size.
var errSizeChanged = errors.New("the object's size changed")

func kindOfRange(err error) error {
	if errors.Is(err, errSizeChanged) {
		return ErrChanged
	}
	return ErrServer
}

// checkContentRange checks an answer's Content-Range ("bytes a-b/size")
// against the range asked for and the object's size.
func checkContentRange(cr string, off, n, size int64) error {
	if cr == "" {
		return fmt.Errorf("no Content-Range in the answer to a range request")
	}
	var a, b, total int64
	if _, err := fmt.Sscanf(cr, "bytes %d-%d/%d", &a, &b, &total); err != nil {
		return fmt.Errorf("Content-Range %q: %v", cr, err)
	}
	if total != size {
		return fmt.Errorf("%w: Content-Range %q, listed with %d bytes", errSizeChanged, cr, size)
	}
	if a != off || b != off+n-1 {
		return fmt.Errorf("Content-Range %q, asked for bytes %d-%d", cr, off, off+n-1)
	}
	return nil
}
