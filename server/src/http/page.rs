//! The memory browser, served at `/` from the same origin as the API: the page
//! `examples/browser` builds, embedded in the binary by the build script (no files beside it, no
//! CDN). The page signs in with a token and calls the API like any client; it also works offline
//! on an export file, as the static build does.

use axum::http::header::{
    CACHE_CONTROL, CONTENT_SECURITY_POLICY, CONTENT_TYPE, ETAG, IF_NONE_MATCH, REFERRER_POLICY,
    X_CONTENT_TYPE_OPTIONS, X_FRAME_OPTIONS,
};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};

/// The page's files: their path below `/`, their bytes and their ETag (made by the build script).
static ASSETS: &[(&str, &[u8], &str)] = include!(concat!(env!("OUT_DIR"), "/page_assets.rs"));

/// What the page may load and run: only its own files (`'wasm-unsafe-eval'` compiles the policy
/// component; the graph library positions nodes with style attributes), and only this origin
/// to talk to.
const CSP: &str = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; \
    style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'; \
    worker-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; \
    frame-ancestors 'none'";

/// What `/` answers when this binary was built without the page.
const NOT_BUILT: &str = "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
<title>kenning: no page in this build</title></head><body><h1>This kenning was built without its page</h1>\
<p>The API is here (<a href=\"/v1/openapi.json\">/v1/openapi.json</a>). To serve the memory browser, \
build it and then kenning: <code>cd examples/browser &amp;&amp; npm ci &amp;&amp; npm run build</code>, \
then <code>cargo build -p kenning-cli</code>.</p></body></html>";

/// Whether this binary carries the page.
pub fn is_built() -> bool {
    asset("index.html").is_some()
}

fn asset(path: &str) -> Option<(&'static [u8], &'static str)> {
    ASSETS
        .binary_search_by(|(name, _, _)| (*name).cmp(path))
        .ok()
        .map(|at| (ASSETS[at].1, ASSETS[at].2))
}

fn content_type(path: &str) -> &'static str {
    match path.rsplit_once('.').map_or("", |(_, ext)| ext) {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "wasm" => "application/wasm",
        "json" => "application/json",
        "jsonl" => "application/jsonl",
        "png" => "image/png",
        "svg" => "image/svg+xml",
        _ => "application/octet-stream",
    }
}

/// Serves a file of the page for `GET` and `HEAD` outside `/v1/`; `None` for anything else, which
/// the API's own 404 answers.
pub fn serve(method: &Method, uri: &Uri, headers: &HeaderMap) -> Option<Response> {
    if method != Method::GET && method != Method::HEAD {
        return None;
    }
    let path = uri.path();
    if path.starts_with("/v1/") || path == "/v1" {
        return None;
    }
    let name = match path.trim_start_matches('/') {
        "" | "index.html" => "index.html",
        other => other,
    };
    let Some((bytes, tag)) = asset(name) else {
        return (name == "index.html").then(|| {
            page_headers(
                (StatusCode::SERVICE_UNAVAILABLE, NOT_BUILT).into_response(),
                "text/html; charset=utf-8",
            )
        });
    };
    let unchanged = headers
        .get(IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == tag));
    let mut response = if unchanged {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        // (axum leaves the body out of a HEAD answer, keeping its length.)
        (StatusCode::OK, bytes).into_response()
    };
    response = page_headers(response, content_type(name));
    response
        .headers_mut()
        .insert(ETAG, HeaderValue::from_static(tag));
    Some(response)
}

fn page_headers(mut response: Response, kind: &'static str) -> Response {
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static(kind));
    // Revalidated on every load (a 304 when unchanged): a new binary serves its new page at once.
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    headers.insert(CONTENT_SECURITY_POLICY, HeaderValue::from_static(CSP));
    headers.insert(X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    headers.insert(X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers.insert(REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_asset_table_is_sorted_so_lookups_find_every_file() {
        assert!(ASSETS.windows(2).all(|w| w[0].0 < w[1].0));
        for (name, bytes, tag) in ASSETS {
            assert_eq!(asset(name), Some((*bytes, *tag)));
        }
    }

    #[test]
    fn api_paths_and_other_methods_are_never_the_page() {
        let headers = HeaderMap::new();
        let uri = |s: &str| s.parse::<Uri>().unwrap();
        assert!(serve(&Method::GET, &uri("/v1/nothing"), &headers).is_none());
        assert!(serve(&Method::POST, &uri("/"), &headers).is_none());
        assert!(serve(&Method::GET, &uri("/no/such/file.js"), &headers).is_none());
        let root = serve(&Method::GET, &uri("/"), &headers).expect("the root is always answered");
        let expected = if is_built() {
            StatusCode::OK
        } else {
            StatusCode::SERVICE_UNAVAILABLE
        };
        assert_eq!(root.status(), expected);
        assert!(root.headers().contains_key(CONTENT_SECURITY_POLICY));
    }
}
