//! Prometheus metrics for operators: `GET /metrics` in the text exposition format, served on an
//! address of its own (`kenning serve --metrics-bind`), apart from the API and its tokens, as
//! scrapers inside a deployment's network expect. Counts and histograms go through the
//! [`metrics`] facade to the maintained Prometheus exporter; the library records its own
//! ([`kenning::metrics`]: policy calls, fuel, traps, scan verdicts), this module the HTTP
//! requests, and the gauges read at each scrape (pool use, memories awaiting review).

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::http::header::CONTENT_TYPE;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};

use kenning::Service;
use kenning::error::KenningError;

/// Requests answered, by method, route template and status.
pub const HTTP_REQUESTS: &str = "kenning_http_requests_total";
/// How long a request took to answer, by method and route template, in seconds.
pub const HTTP_DURATION: &str = "kenning_http_request_duration_seconds";
/// Connections of the store's pool, by state (`open`, `idle`, `max`); PostgreSQL only.
pub const POOL_CONNECTIONS: &str = "kenning_store_pool_connections";
/// Memories awaiting review in every subject; PostgreSQL only.
pub const PENDING_REVIEW: &str = "kenning_pending_review_memories";

/// The latency buckets, in seconds: from a cached read to a slow write.
const DURATION_BUCKETS: &[f64] = &[
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
];
/// The fuel buckets: from a scan of a short text to the default budget of 2 billion.
const FUEL_BUCKETS: &[f64] = &[1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 2e9];

/// The process's recorder, installed once.
#[derive(Clone)]
pub struct Metrics {
    handle: PrometheusHandle,
}

impl Metrics {
    /// Installs the Prometheus recorder for the whole process and describes every metric.
    /// Fails if a recorder is installed already.
    pub fn install() -> Result<Metrics, KenningError> {
        let handle = PrometheusBuilder::new()
            .set_buckets_for_metric(Matcher::Full(HTTP_DURATION.into()), DURATION_BUCKETS)
            .and_then(|b| {
                b.set_buckets_for_metric(
                    Matcher::Full(kenning::metrics::POLICY_FUEL.into()),
                    FUEL_BUCKETS,
                )
            })
            .map_err(|e| KenningError::Usage(format!("metrics: {e}")))?
            .install_recorder()
            .map_err(|e| KenningError::Usage(format!("metrics: {e}")))?;
        kenning::metrics::describe();
        metrics::describe_counter!(
            HTTP_REQUESTS,
            "HTTP requests answered, by method, route template and status."
        );
        metrics::describe_histogram!(
            HTTP_DURATION,
            metrics::Unit::Seconds,
            "How long HTTP requests took to answer, by method and route template."
        );
        metrics::describe_gauge!(
            POOL_CONNECTIONS,
            "Connections of the PostgreSQL store's pool, by state (open, idle, max)."
        );
        metrics::describe_gauge!(
            PENDING_REVIEW,
            "Memories awaiting a human's review in every subject (PostgreSQL stores)."
        );
        Ok(Metrics { handle })
    }

    /// The metrics in Prometheus' text format, with the gauges read from `service` now.
    pub fn render(&self, service: &Service) -> String {
        if let Some(pool) = service.pool_use() {
            for (state, value) in [("open", pool.open), ("idle", pool.idle), ("max", pool.max)] {
                metrics::gauge!(POOL_CONNECTIONS, "state" => state).set(f64::from(value));
            }
        }
        match service.pending_review_total() {
            Ok(Some(pending)) => metrics::gauge!(PENDING_REVIEW).set(pending as f64),
            Ok(None) => {}
            Err(error) => {
                tracing::warn!(error = %error, "metrics: the review queue cannot be counted")
            }
        }
        self.handle.run_upkeep();
        self.handle.render()
    }

    /// The router of the metrics address: `GET /metrics`, nothing else.
    pub fn router(self, service: Arc<Service>) -> Router {
        Router::new()
            .route("/metrics", get(scrape))
            .with_state((self, service))
    }
}

/// Records one answered request.
pub fn record_request(method: &str, route: &str, status: u16, took: Duration) {
    let (method, route) = (method.to_owned(), route.to_owned());
    metrics::counter!(HTTP_REQUESTS, "method" => method.clone(), "route" => route.clone(), "status" => status.to_string())
        .increment(1);
    metrics::histogram!(HTTP_DURATION, "method" => method, "route" => route)
        .record(took.as_secs_f64());
}

async fn scrape(State((metrics, service)): State<(Metrics, Arc<Service>)>) -> Response {
    // The gauges may ask the database: off the async threads.
    match tokio::task::spawn_blocking(move || metrics.render(&service)).await {
        Ok(text) => (
            [(CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8")],
            text,
        )
            .into_response(),
        Err(_) => StatusCode::INTERNAL_SERVER_ERROR.into_response(),
    }
}
