"""`kenning serve --metrics-bind`'s scrape, read by Prometheus' own Python client parser (the
reference implementation of the text format), after traffic through the API: every family
parses, has its help text and type, and holds the samples that traffic made.

    python metrics_scrape.py API_BASE METRICS_URL TOKEN
"""

import json
import sys
import urllib.error
import urllib.request

from prometheus_client.parser import text_string_to_metric_families


def call(method, url, token=None, body=None):
    request = urllib.request.Request(url, method=method, data=None if body is None else json.dumps(body).encode())
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    if body is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def main():
    base, metrics_url, token = sys.argv[1:4]
    memories = f"{base}subjects/profile:me/memories"
    assert call("POST", memories, token, {"content": "The deploy key is AKIAIOSFODNN7EXAMPLE."}) == 201
    assert call("GET", memories, "not-a-token") == 401
    assert call("GET", f"{base}ready") == 200
    with urllib.request.urlopen(metrics_url, timeout=30) as response:
        assert response.headers["Content-Type"].startswith("text/plain; version=0.0.4")
        text = response.read().decode()
    families = {f.name: f for f in text_string_to_metric_families(text)}
    expected = {
        "kenning_http_requests": "counter",
        "kenning_http_request_duration_seconds": "histogram",
        "kenning_policy_calls": "counter",
        "kenning_policy_fuel_used": "histogram",
        "kenning_scan_verdicts": "counter",
    }
    for name, kind in expected.items():
        assert name in families, f"{name} missing from {sorted(families)}"
        assert families[name].type == kind, (name, families[name].type)
        assert families[name].documentation, f"{name} has no help text"

    def value(family, sample, **labels):
        return sum(s.value for s in families[family].samples if s.name == sample and all(s.labels.get(k) == v for k, v in labels.items()))

    route = "/v1/subjects/{subject}/memories"
    assert value("kenning_http_requests", "kenning_http_requests_total", method="POST", route=route, status="201") >= 1
    assert value("kenning_http_requests", "kenning_http_requests_total", method="GET", route=route, status="401") >= 1
    assert value("kenning_scan_verdicts", "kenning_scan_verdicts_total", verdict="redact") >= 1
    assert value("kenning_policy_calls", "kenning_policy_calls_total", call="scan", outcome="ok") >= 1
    assert value("kenning_http_request_duration_seconds", "kenning_http_request_duration_seconds_count", route=route) >= 1
    buckets = [s for s in families["kenning_http_request_duration_seconds"].samples if s.name.endswith("_bucket") and s.labels.get("route") == route]
    assert buckets and buckets[-1].labels["le"] == "+Inf", buckets
    routes = {s.labels["route"] for s in families["kenning_http_requests"].samples}
    assert all(r.startswith("/v1/") or r == "unmatched" for r in routes), routes
    print(f"metrics: {len(families)} families parsed by prometheus_client; {len(routes)} routes")


if __name__ == "__main__":
    main()
