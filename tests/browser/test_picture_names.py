"""Seat names a person might type, drawn in the board pictures and laid out by a real
browser (Chromium's text boxes, not an estimate): a long name is cut before it runs into
the score beside it or past the picture's edge, and a right-to-left name is isolated so
it cannot reorder the text around it."""

from __future__ import annotations

import httpx
import pytest

pytestmark = pytest.mark.timeout(120)

NAMES = ["W" * 64, "שלום עולם 123", "M" * 24, "🐉 Zoë 👍🏽"]

# Every text that runs past the right edge, and every pair of texts that overlap.
CLASHES = """() => {
  const texts = [...document.querySelectorAll('svg text')];
  const edge = document.querySelector('svg').viewBox.baseVal.width;
  const boxes = texts.map((t) => t.getBBox());
  const out = [];
  boxes.forEach((a, i) => {
    if (a.x + a.width > edge + 0.5) out.push(`past the edge: ${texts[i].textContent}`);
    boxes.slice(i + 1).forEach((b, k) => {
      const x = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
      const y = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
      const other = texts[i + 1 + k].textContent;
      if (x > 1 && y > 2) out.push(`overlap: ${texts[i].textContent} | ${other}`);
    });
  });
  return out;
}"""


@pytest.mark.parametrize("first", [NAMES[0], "Bartholomew Featherstonehaugh-Wolfeschlegel"])
@pytest.mark.parametrize("game", ["sky-islands", "sky-lanterns"])
def test_long_and_right_to_left_names_keep_their_place(browser, playground_url, game, first):
    created = httpx.post(
        f"{playground_url}/v1/games",
        json={
            "game": game,
            "seed": 4,
            "seats": [{"name": first}] + [{"name": name, "bot": "random"} for name in NAMES[1:]],
        },
        timeout=10,
    ).json()
    token = created["seats"][0]["token"]
    svg = httpx.get(
        f"{playground_url}/v1/games/{created['id']}/board.svg",
        headers={"Authorization": f"Bearer {token}"},
        timeout=10,
    ).text
    assert "\u2068שלום עולם 123\u2069" in svg
    context = browser.new_context()
    try:
        page = context.new_page()
        page.set_content(f"<html><body style='margin:0;width:480px'>{svg}</body></html>")
        assert page.evaluate(CLASHES) == []
    finally:
        context.close()
