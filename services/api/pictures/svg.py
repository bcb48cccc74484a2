"""A tiny SVG builder: elements as escaped strings, nothing else.

Every attribute value and every piece of text goes through `xml.sax.saxutils`, and
characters XML 1.0 cannot carry (most control characters, lone surrogates) are dropped
first, because seat names are user input. Styling uses presentation attributes only
(no `style`), so the picture renders under a strict Content-Security-Policy when it is
put inline in a page.
"""

from __future__ import annotations

import re
import textwrap
import unicodedata
from collections.abc import Callable
from xml.sax.saxutils import escape, quoteattr

SVG_NS = "http://www.w3.org/2000/svg"
FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif"

_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")

Number = int | float


def clean(text: object) -> str:
    """`text` as a string XML can hold (escaping comes later)."""
    return _NOT_XML.sub("", str(text))


def short(text: str, limit: int) -> str:
    """At most `limit` characters, with an ellipsis when cut."""
    text = clean(text)
    return text if len(text) <= limit else text[: max(limit - 1, 1)] + "…"


_NARROW = set("fijlrtI.,:;'!|()[] ")
_WIDE = set("mwMW@%")
_RTL = re.compile(
    "[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff\U00010800-\U00010fff\U0001e800-\U0001efff\u202a-\u202e\u2066-\u2069\u200f\u061c]"
)


def _em(char: str) -> float:
    """A character's width in ems, roughly, in a bold sans-serif (erring wide)."""
    if char in _NARROW:
        return 0.34
    if char in _WIDE:
        return 1.1
    if ord(char) >= 0x1100 and unicodedata.east_asian_width(char) in "WF":
        return 1.15  # CJK, emoji
    if unicodedata.combining(char) or unicodedata.category(char) in ("Mn", "Me", "Cf"):
        return 0.0
    return 0.8 if char.isupper() else 0.68


def text_width(text: str, size: Number) -> float:
    """An estimate of `text`'s width at `size` (no fonts to measure with on a server)."""
    return sum(_em(char) for char in text) * size


def fit(text: str, width: Number, size: Number) -> str:
    """`text` cut (with an ellipsis) to about `width` at `size`, so it does not run into
    what is drawn beside it."""
    text = clean(text)
    if text_width(text, size) <= width:
        return text
    while text and text_width(text + "…", size) > width:
        text = text[:-1]
    return text + "…"


def isolated(name: str) -> str:
    """A name that holds right-to-left text (or bidi controls) between FIRST STRONG
    ISOLATE and POP DIRECTIONAL ISOLATE, so it cannot reorder the text around it."""
    return f"\u2068{name}\u2069" if _RTL.search(name) else name


def _number(value: Number) -> str:
    if isinstance(value, float):
        return f"{value:.2f}".rstrip("0").rstrip(".")
    return str(value)


def _attrs(attrs: dict[str, object]) -> str:
    parts = []
    for name, value in attrs.items():
        if value is None or value is False:
            continue
        key = name.rstrip("_").replace("_", "-")
        shown = _number(value) if isinstance(value, int | float) else clean(value)
        parts.append(f" {key}={quoteattr(shown)}")
    return "".join(parts)


class Svg:
    """An SVG document built element by element, top to bottom."""

    def __init__(self, width: Number, title: str) -> None:
        self.width = width
        self.title = title
        self._parts: list[str] = []

    def mark(self) -> int:
        """Where the next element goes; `behind` draws there later (a panel under text
        whose height is known only once the text is laid out)."""
        return len(self._parts)

    def behind(self, mark: int, draw: Callable[[Svg], None]) -> None:
        under = Svg(self.width, "")
        draw(under)
        self._parts[mark:mark] = under._parts

    def raw_element(self, tag: str, attrs: dict[str, object], content: str = "") -> None:
        """An element whose `content` is already escaped markup (or empty)."""
        if content:
            self._parts.append(f"<{tag}{_attrs(attrs)}>{content}</{tag}>")
        else:
            self._parts.append(f"<{tag}{_attrs(attrs)}/>")

    def rect(self, x: Number, y: Number, w: Number | str, h: Number | str, **attrs: object) -> None:
        self.raw_element("rect", {"x": x, "y": y, "width": w, "height": h, **attrs})

    def circle(self, cx: Number, cy: Number, r: Number, **attrs: object) -> None:
        self.raw_element("circle", {"cx": cx, "cy": cy, "r": r, **attrs})

    def line(self, x1: Number, y1: Number, x2: Number, y2: Number, **attrs: object) -> None:
        self.raw_element("line", {"x1": x1, "y1": y1, "x2": x2, "y2": y2, **attrs})

    def polygon(self, points: list[tuple[Number, Number]], **attrs: object) -> None:
        shown = " ".join(f"{_number(x)},{_number(y)}" for x, y in points)
        self.raw_element("polygon", {"points": shown, **attrs})

    def path(self, d: str, **attrs: object) -> None:
        self.raw_element("path", {"d": d, **attrs})

    def text(self, x: Number, y: Number, text: object, size: Number = 14, **attrs: object) -> None:
        content = escape(clean(text))
        self.raw_element("text", {"x": x, "y": y, "font_size": size, **attrs}, content)

    def paragraph(
        self, x: Number, y: Number, text: str, width_chars: int, size: Number = 13, **attrs: object
    ) -> Number:
        """Wrapped text from (x, y) (first baseline); returns the y below its last line."""
        lines = textwrap.wrap(clean(text), width_chars) or [""]
        leading = size * 1.3
        spans = "".join(
            f"<tspan{_attrs({'x': x, 'dy': 0 if i == 0 else leading})}>"
            f"{escape(line if i == len(lines) - 1 else line + ' ')}</tspan>"
            for i, line in enumerate(lines)
        )
        self.raw_element("text", {"x": x, "y": y, "font_size": size, **attrs}, spans)
        return y + leading * len(lines)

    def render(self, height: Number) -> str:
        """The whole document: scales to its container's width (phone screens included)."""
        head = (
            f'<svg xmlns="{SVG_NS}" viewBox="0 0 {_number(self.width)} {_number(height)}" '
            f'width="100%" preserveAspectRatio="xMidYMin meet" role="img" '
            f"font-family={quoteattr(FONT)}>"
        )
        title = f"<title>{escape(clean(self.title))}</title>"
        return head + title + "".join(self._parts) + "</svg>"
