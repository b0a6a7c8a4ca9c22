// Copyright ©2026 The pearson Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package objstore reads objects of S3-compatible stores and files behind
// HTTP(S) URLs by byte ranges, so that a sampler reads the few parts of a
// large object that it draws, never the whole object.
//
// A Store lists the objects that a URL names (Store.List):
//
//   - s3://bucket/key is one object; s3://bucket/prefix/ (ending in "/")
//     every object under the prefix, in the lexical order of the keys;
//   - http://host/path and https://host/path are one file, read with
//     Range requests.
//
// An Object is an io.ReaderAt over the bytes of one object, which fetches
// the ranges read with ranged GET requests: at most Settings.MaxInFlight
// requests in flight per Store, each range fetched once and kept in a
// bounded cache (Settings.CacheBytes), a read of bytes not yet fetched
// rounded up to MinFetch bytes. Object.Prefetch starts the fetch of ranges
// known to be needed soon, coalescing those less than CoalesceGap bytes
// apart into one request, so that a sampler that knows its units before it
// reads them pays the latency of the network once per batch of requests,
// not once per request.
//
// S3 requests are made by github.com/aws/aws-sdk-go-v2 (config.LoadDefaultConfig):
// credentials, region and endpoint come from the environment
// (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN, AWS_REGION,
// AWS_PROFILE, AWS_ENDPOINT_URL), the shared config and credentials files
// and their profiles, or the instance's role, as every AWS tool takes them;
// a custom endpoint (Settings.Endpoint or AWS_ENDPOINT_URL) is addressed
// path-style (http://host:port/bucket/key), as S3-compatible servers expect.
// Without credentials, or with Settings.Anonymous or AWS_NO_SIGN_REQUEST,
// requests are not signed (public buckets). The EC2 instance metadata
// service is not asked for credentials unless AWS_EC2_METADATA_DISABLED is
// false or AWS_EC2_METADATA_SERVICE_ENDPOINT is set (on an instance whose
// role gives the credentials), so that a run without credentials off AWS
// does not wait for 169.254.169.254. Throttling and server errors are
// retried with exponential backoff by the SDK's retryer; an HTTP server's
// 429 and 5xx answers, a refused connection, and a body cut short, by this
// package.
//
// Every request, S3's and HTTP's alike, is bounded in time
// (Settings.ConnectTimeout and Settings.Timeout, a minute each by default,
// as the AWS CLI's): the connection, then the answer's headers once the
// request is sent, then its body, which fails when it comes slower than
// MinRate over a span of Timeout. A request that timed out fails with
// ErrTimeout and is not retried.
//
// The name of an object in messages and in Object.URL is its URL without
// its userinfo (user:password@) and query string (a presigned URL's
// X-Amz-Credential and X-Amz-Signature): neither is ever shown.
//
// Every fetch checks that the object is still the one listed: S3 requests
// carry If-Match with the object's ETag, and every answer's ETag (or, when
// the server gives none, its size) is compared with the listed one, so
// that an object replaced between two requests fails with ErrChanged
// instead of mixing the bytes of two versions. A server that answers a
// Range request with the whole object fails with ErrNoRange before its
// body is read.
package objstore
