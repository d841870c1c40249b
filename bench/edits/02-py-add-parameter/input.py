#!/usr/bin/env python3
"""Summarise the access logs of a small web service.

Reads every ``*.log`` file under a directory (plain or gzip-compressed),
parses lines in the service's own format and prints the busiest paths,
the status-code mix and the slowest requests.  Meant for the on-call
engineer who wants a quick picture without loading anything into a
dashboard.

Line format (one request per line, fields separated by single spaces)::

    2024-03-07T12:01:44Z GET /api/orders 200 37ms client=10.1.4.22
"""

import argparse
import gzip
import sys
from collections import Counter
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path


@dataclass
class Request:
    when: datetime
    method: str
    path: str
    status: int
    millis: int
    client: str


class ParseError(ValueError):
    pass


def parse_line(line):
    parts = line.rstrip("\n").split(" ")
    if len(parts) != 6:
        raise ParseError(f"expected 6 fields, got {len(parts)}")
    stamp, method, path, status, duration, client = parts
    if not duration.endswith("ms"):
        raise ParseError(f"duration without unit: {duration!r}")
    if not client.startswith("client="):
        raise ParseError(f"missing client field: {client!r}")
    try:
        when = datetime.strptime(stamp, "%Y-%m-%dT%H:%M:%SZ")
        return Request(
            when=when,
            method=method,
            path=path,
            status=int(status),
            millis=int(duration[:-2]),
            client=client[len("client="):],
        )
    except ValueError as exc:
        raise ParseError(str(exc)) from exc


def open_log(path):
    # Rotated logs are compressed by logrotate; the live one is not.
    if path.suffix == ".gz":
        return gzip.open(path, "rt")
    return open(path, "r")


def read_log_lines(path):
    with open_log(path) as handle:
        for number, line in enumerate(handle, start=1):
            if line.strip():
                yield number, line


def load_requests(path, strict=False):
    requests = []
    bad = 0
    for number, line in read_log_lines(path):
        try:
            requests.append(parse_line(line))
        except ParseError as exc:
            if strict:
                raise ParseError(f"{path}:{number}: {exc}") from exc
            bad += 1
    return requests, bad


def find_logs(directory):
    found = sorted(directory.glob("*.log")) + sorted(directory.glob("*.log.gz"))
    return [p for p in found if p.is_file()]


def summarize_dir(directory, strict=False):
    all_requests = []
    skipped = 0
    for path in find_logs(directory):
        requests, bad = load_requests(path, strict=strict)
        all_requests.extend(requests)
        skipped += bad
    return all_requests, skipped


def top_paths(requests, limit):
    counts = Counter(r.path for r in requests)
    return counts.most_common(limit)


def status_mix(requests):
    buckets = Counter(f"{r.status // 100}xx" for r in requests)
    total = sum(buckets.values()) or 1
    return {bucket: count / total for bucket, count in sorted(buckets.items())}


def slowest(requests, limit):
    return sorted(requests, key=lambda r: r.millis, reverse=True)[:limit]


def print_report(requests, skipped, limit, out=sys.stdout):
    if not requests:
        print("no requests found", file=out)
        return
    first = min(r.when for r in requests)
    last = max(r.when for r in requests)
    print(f"{len(requests)} requests from {first} to {last}", file=out)
    if skipped:
        print(f"({skipped} unparsable lines skipped)", file=out)

    print("\nbusiest paths:", file=out)
    for path, count in top_paths(requests, limit):
        print(f"  {count:8d}  {path}", file=out)

    print("\nstatus codes:", file=out)
    for bucket, share in status_mix(requests).items():
        print(f"  {bucket}  {share:6.1%}", file=out)

    print("\nslowest requests:", file=out)
    for r in slowest(requests, limit):
        print(f"  {r.millis:6d}ms  {r.method} {r.path}  ({r.when})", file=out)


def build_parser():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory", type=Path, help="directory holding *.log files")
    parser.add_argument(
        "--limit", type=int, default=10, help="rows per section (default: 10)"
    )
    parser.add_argument(
        "--strict",
        action="store_true",
        help="stop at the first line that does not parse",
    )
    return parser


def main(argv=None):
    args = build_parser().parse_args(argv)
    if not args.directory.is_dir():
        print(f"error: not a directory: {args.directory}", file=sys.stderr)
        return 2
    if args.limit < 1:
        print("error: --limit must be at least 1", file=sys.stderr)
        return 2
    try:
        requests, skipped = summarize_dir(args.directory, strict=args.strict)
    except ParseError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"error: cannot read logs: {exc}", file=sys.stderr)
        return 1
    print_report(requests, skipped, args.limit)
    return 0


if __name__ == "__main__":
    sys.exit(main())
