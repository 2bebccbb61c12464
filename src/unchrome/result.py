"""The extraction result: content in three renderings plus page metadata."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass(frozen=True)
class Media:
    """An image, link, video or audio found in the main content (URL made absolute)."""

    url: str
    text: str = ""  # alt text for images, anchor text for links
    title: str = ""


@dataclass
class Result:
    url: str | None = None
    title: str | None = None
    site_name: str | None = None
    author: str | None = None
    date: str | None = None  # ISO 8601
    description: str | None = None
    language: str | None = None
    image: str | None = None  # hero image, absolute URL
    canonical_url: str | None = None
    kind: str = "article"  # "article" | "feed" | "social"
    markdown: str = ""
    text: str = ""
    html: str = ""  # sanitized main-content HTML
    has_body: bool = False
    images: list[Media] = field(default_factory=list)
    links: list[Media] = field(default_factory=list)
    videos: list[Media] = field(default_factory=list)
    audios: list[Media] = field(default_factory=list)
    word_count: int = 0
    reading_time: int = 0  # minutes, at least 1 when there is a body
    processing_time: float = 0.0  # seconds
    truncated: bool = False
    encoding: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def to_json(self, *, indent: int | None = None) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=indent)
