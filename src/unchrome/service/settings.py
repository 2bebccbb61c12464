"""The service's settings, read from the environment (UNCHROME_*)."""

from __future__ import annotations

import os
from collections.abc import MutableMapping
from dataclasses import dataclass, field

from unchrome.config import Config
from unchrome.errors import (
    InvalidInput,
)
from unchrome.net.fetch_config import DEFAULT_FETCH_CONFIG, FetchConfig, env_items

MiB = 1024 * 1024


@dataclass(frozen=True)
class ServiceSettings:
    api_key: str | None = None  # UNCHROME_API_KEY: bearer token; None = no auth
    max_body_bytes: int = 5 * MiB  # UNCHROME_MAX_BODY_BYTES
    max_concurrency: int = 16  # UNCHROME_MAX_CONCURRENCY: work requests at once
    # UNCHROME_BODY_DEADLINE: seconds a client has to send its whole request body
    body_deadline: float = 30.0
    # UNCHROME_HEADER_DEADLINE: seconds from the connection (or the last response) to
    # the end of the next request's headers
    header_deadline: float = 10.0
    cors_origins: tuple[str, ...] = ()  # UNCHROME_CORS_ORIGINS: comma-separated; off
    fetch_config: FetchConfig = field(default=DEFAULT_FETCH_CONFIG)
    config: Config = field(default_factory=Config)  # UNCHROME_RENDER: its render mode

    def __post_init__(self) -> None:
        for name in ("max_body_bytes", "max_concurrency"):
            value = getattr(self, name)
            if not isinstance(value, int) or value <= 0:
                raise InvalidInput(f"ServiceSettings.{name} must be a positive integer")
        for name in ("body_deadline", "header_deadline"):
            value = getattr(self, name)
            if not isinstance(value, int | float) or isinstance(value, bool) or value <= 0:
                raise InvalidInput(f"ServiceSettings.{name} must be a positive number")

    @classmethod
    def from_env(cls, environ: MutableMapping[str, str] | None = None) -> ServiceSettings:
        """Read ``UNCHROME_*`` variables.

        The fetch settings (``UNCHROME_ALLOW_ADDRESSES``, ``UNCHROME_ALLOW_PORTS``,
        ``UNCHROME_FETCH_DEADLINE``) are FetchConfig.from_env's, which the command line
        reads too: they widen what may be fetched, for an intranet deployment; the
        defaults are public internet only.
        """
        env = os.environ if environ is None else environ

        def number(name: str, default: int) -> int:
            raw = env.get(name, "").strip()
            try:
                return int(raw) if raw else default
            except ValueError:
                raise InvalidInput(f"{name} must be an integer, got {raw!r}") from None

        def seconds(name: str, default: float) -> float:
            raw = env.get(name, "").strip()
            try:
                return float(raw) if raw else default
            except ValueError:
                raise InvalidInput(f"{name} must be seconds, got {raw!r}") from None

        return cls(
            api_key=env.get("UNCHROME_API_KEY") or None,
            max_body_bytes=number("UNCHROME_MAX_BODY_BYTES", cls.max_body_bytes),
            max_concurrency=number("UNCHROME_MAX_CONCURRENCY", cls.max_concurrency),
            body_deadline=seconds("UNCHROME_BODY_DEADLINE", cls.body_deadline),
            header_deadline=seconds("UNCHROME_HEADER_DEADLINE", cls.header_deadline),
            cors_origins=env_items(env, "UNCHROME_CORS_ORIGINS"),
            fetch_config=FetchConfig.from_env(env),
            config=Config(render=env.get("UNCHROME_RENDER", "").strip().lower() or "never"),  # type: ignore[arg-type]
        )
