"""The playground's files: served from memory, gzipped once for browsers that take it,
revalidated with an ETag (304), under the page's Content-Security-Policy."""

from __future__ import annotations

import pytest

from services.api.routes_playground import CONTENT


@pytest.mark.parametrize(
    ("path", "name"),
    [("/play", "index.html"), ("/play/play.js", "play.js"), ("/play/play.css", "play.css")],
)
def test_files_are_gzipped_for_browsers_that_take_it(client, path, name):
    raw = client.get(path, headers={"Accept-Encoding": "gzip"})
    assert raw.status_code == 200
    assert raw.headers["content-encoding"] == "gzip"
    assert raw.headers["vary"] == "Accept-Encoding"
    assert raw.content == CONTENT[name]  # the client took it apart
    assert int(raw.headers["content-length"]) < len(CONTENT[name]) / 2
    plain = client.get(path, headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers and plain.content == CONTENT[name]
    refused = client.get(path, headers={"Accept-Encoding": "gzip;q=0, br"})
    assert "content-encoding" not in refused.headers
    assert "default-src 'self'" in plain.headers["content-security-policy"]

    again = client.get(path, headers={"If-None-Match": plain.headers["etag"]})
    assert again.status_code == 304 and again.content == b""
    assert client.get(path, headers={"If-None-Match": '"other"'}).status_code == 200
