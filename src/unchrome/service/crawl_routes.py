"""The service's map and crawl endpoints (``unchrome.crawl``), bounded for a server:

    POST /v1/map          {"url", "limit"}            -> {"url", "urls", "problems"}
    POST /v1/crawl        {"url", "max_pages", "max_depth", "format"} -> 202 {"id"}
    GET  /v1/crawl/{id}   -> {"id", "status", "pages", "rows", "error", "stopped"}

They sit behind the same Guard as the other work paths (bearer token, request body
limit, concurrency limit) and fetch through the service's FetchConfig, so through the
same SSRF guard. A map reads at most :attr:`CrawlLimits.map_sitemaps` sitemaps and
returns at most :attr:`CrawlLimits.map_limit` URLs. A crawl is a job in a thread of its
own, at most :attr:`CrawlLimits.max_pages` pages and :attr:`CrawlLimits.jobs` jobs at
once (503 OVERLOADED beyond); its rows (the batch rows of ``unchrome warc``) stay in
memory until :attr:`CrawlLimits.keep_jobs` newer jobs have pushed it out.

Settings from the environment: ``UNCHROME_CRAWL_MAX_PAGES`` (100),
``UNCHROME_CRAWL_JOBS`` (2), ``UNCHROME_CRAWL_DELAY`` (seconds between two requests to a
site without Crawl-delay, 1).
"""

from __future__ import annotations

import os
import threading
import uuid
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

import anyio
from fastapi import APIRouter
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from unchrome.errors import InvalidInput, Overloaded, UnchromeError
from unchrome.service.models import ErrorResponse, plain_error
from unchrome.service.settings import ServiceSettings
from unchrome.site.crawler import Crawler, CrawlOptions
from unchrome.site.discover import Found, guard_start, map_site
from unchrome.site.politeness import DEFAULT_DELAY, Politeness
from unchrome.site.state import open_state
from unchrome.site.urls import normalize, site_of


@dataclass(frozen=True)
class CrawlLimits:
    max_pages: int = 100  # pages of one crawl job
    jobs: int = 2  # crawl jobs running at once
    keep_jobs: int = 50  # finished jobs kept for GET
    map_limit: int = 1000  # URLs one /v1/map returns
    map_sitemaps: int = 10  # sitemaps one /v1/map reads
    delay: float = DEFAULT_DELAY

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> CrawlLimits:
        env = os.environ if environ is None else environ
        try:
            return cls(
                max_pages=int(env.get("UNCHROME_CRAWL_MAX_PAGES") or cls.max_pages),
                jobs=int(env.get("UNCHROME_CRAWL_JOBS") or cls.jobs),
                delay=float(env.get("UNCHROME_CRAWL_DELAY") or cls.delay),
            )
        except ValueError as exc:
            raise InvalidInput(f"UNCHROME_CRAWL_*: {exc}") from None


class MapRequest(BaseModel):
    url: str = Field(description="the site's start page, http(s)", max_length=8192)
    limit: int = Field(100, ge=1, description="at most this many URLs (the service caps it)")


class MapResponse(BaseModel):
    url: str
    urls: list[str] = Field(description="the site's page URLs, normalised, each once")
    problems: list[str] = Field(description="what discovery could not read, and why")


class CrawlRequest(BaseModel):
    url: str = Field(description="the site's start page, http(s)", max_length=8192)
    max_pages: int = Field(20, ge=1, description="rows of the job (the service caps it)")
    max_depth: int = Field(2, ge=0, le=10, description="link hops from the start page")
    format: Literal["both", "markdown", "text"] = Field(
        "markdown", description="the content columns each row fills"
    )


class CrawlJobCreated(BaseModel):
    id: str
    status: str
    status_url: str


class CrawlJobStatus(BaseModel):
    id: str
    url: str
    status: Literal["running", "done", "failed"]
    pages: int = Field(description="rows so far")
    rows: list[dict[str, Any]] = Field(
        description="one per page: the batch rows of unchrome warc (url, status, title, ...)"
    )
    error: dict[str, Any] | None = Field(None, description="why the job failed, if it did")
    stopped: str | None = Field(None, description="why the crawl stopped early, if it did")


@dataclass
class Job:
    id: str
    url: str
    site: str
    status: str = "running"
    rows: list[dict[str, Any]] = field(default_factory=list)
    error: dict[str, Any] | None = None
    stopped: str | None = None


class Jobs:
    """The crawl jobs, running in threads; the newest ``keep`` kept."""

    def __init__(self, limits: CrawlLimits) -> None:
        self.limits = limits
        self.lock = threading.Lock()
        self.by_id: OrderedDict[str, Job] = OrderedDict()

    def running(self) -> int:
        return sum(job.status == "running" for job in self.by_id.values())

    def start(self, req: CrawlRequest, settings: ServiceSettings) -> Job:
        with self.lock:
            if self.running() >= self.limits.jobs:
                raise Overloaded(f"{self.limits.jobs} crawl jobs are running: retry later")
            # One request at a time per host holds across jobs too: one job per site.
            site = site_of(normalize(req.url) or req.url)
            if any(j.site == site and j.status == "running" for j in self.by_id.values()):
                raise Overloaded(f"a crawl of {site} is running: retry when it is done")
            job = Job(uuid.uuid4().hex, req.url, site)
            self.by_id[job.id] = job
            while len(self.by_id) > self.limits.keep_jobs:
                oldest = next((k for k, j in self.by_id.items() if j.status != "running"), None)
                if oldest is None:
                    break
                del self.by_id[oldest]
        thread = threading.Thread(
            target=self._run, args=(job, req, settings), name=f"crawl-{job.id}", daemon=True
        )
        thread.start()
        return job

    def _run(self, job: Job, req: CrawlRequest, settings: ServiceSettings) -> None:
        options = CrawlOptions(
            max_pages=min(req.max_pages, self.limits.max_pages),
            max_depth=req.max_depth,
            fmt=req.format,
        )
        try:
            with open_state(None) as state:
                crawler = Crawler(
                    req.url,
                    state,
                    config=settings.config.with_(render="never"),
                    fetch_config=settings.fetch_config,
                    politeness=Politeness(delay=self.limits.delay),
                    options=options,
                )
                for row in crawler.run():
                    with self.lock:
                        job.rows.append(row)
            job.stopped = crawler.stopped
            job.status = "done"
        except UnchromeError as exc:
            job.error, job.status = exc.to_dict(), "failed"
        except Exception as exc:  # a bug fails its job, never the service
            job.error = {"code": "INTERNAL", "message": type(exc).__name__, "retryable": False}
            job.status = "failed"

    def get(self, job_id: str) -> Job | None:
        with self.lock:
            return self.by_id.get(job_id)


def crawl_router(settings: ServiceSettings, limits: CrawlLimits | None = None) -> APIRouter:
    limits = limits or CrawlLimits.from_env()
    jobs = Jobs(limits)
    router = APIRouter(responses={"default": {"model": ErrorResponse}})

    @router.post("/v1/map", response_model=MapResponse)
    async def map_endpoint(req: MapRequest) -> JSONResponse:
        found = Found()

        def run() -> list[str]:
            return list(
                map_site(
                    req.url,
                    limit=min(req.limit, limits.map_limit),
                    fetch_config=settings.fetch_config,
                    politeness=Politeness(delay=limits.delay),
                    max_sitemaps=limits.map_sitemaps,
                    found=found,
                )
            )

        urls = await anyio.to_thread.run_sync(run)
        return JSONResponse({"url": req.url, "urls": urls, "problems": found.problems})

    @router.post("/v1/crawl", response_model=CrawlJobCreated, status_code=202)
    async def crawl_endpoint(req: CrawlRequest) -> JSONResponse:
        # A URL the guard refuses is the request's error (400 / 403), not a failed job.
        await anyio.to_thread.run_sync(guard_start, req.url, settings.fetch_config)
        job = jobs.start(req, settings)
        body = {"id": job.id, "status": job.status, "status_url": f"/v1/crawl/{job.id}"}
        return JSONResponse(body, 202)

    @router.get("/v1/crawl/{job_id}", response_model=CrawlJobStatus)
    async def crawl_status(job_id: str) -> JSONResponse:
        job = jobs.get(job_id)
        if job is None:
            return plain_error("NOT_FOUND", f"no crawl job {job_id[:64]!r}", 404)
        with jobs.lock:
            rows = list(job.rows)
        return JSONResponse(
            {
                "id": job.id,
                "url": job.url,
                "status": job.status,
                "pages": len(rows),
                "rows": rows,
                "error": job.error,
                "stopped": job.stopped,
            }
        )

    return router
