"""Small helpers for time series of (timestamp, value) points.

Used by the capacity reports: resampling raw samples onto a fixed grid,
filling short gaps, smoothing, turning counters into rates and flagging
outliers. A series is a list of ``Point`` sorted by time, without
duplicate timestamps.
"""

import math
from bisect import bisect_left
from dataclasses import dataclass
from datetime import datetime, timedelta
from statistics import median


@dataclass(frozen=True)
class Point:
    """One sample: the value observed at a moment in time."""

    at: datetime
    value: float


class SeriesError(ValueError):
    """Raised when a series or an argument does not meet a function's requirements."""

    pass


def check_sorted(points):
    """Check that the points are in strictly increasing time order.

    Raises:
        SeriesError: naming the first point that is not later than the one
            before it.
    """
    for before, after in zip(points, points[1:]):
        if after.at <= before.at:
            raise SeriesError(f"points out of order at {after.at.isoformat()}")


def floor_time(at, step):
    """Round a timestamp down to a multiple of ``step`` since the Unix epoch.

    The epoch takes ``at``'s time zone, so aware and naive datetimes both
    work. Returns the start of the bucket that ``at`` falls into.
    """
    epoch = datetime(1970, 1, 1, tzinfo=at.tzinfo)
    offset = (at - epoch) // step
    return epoch + offset * step


def resample(points, step, how="mean"):
    """Aggregate points into fixed buckets of width ``step``.

    Args:
        points: a series sorted by time.
        step: the bucket width, a positive ``timedelta``.
        how: the aggregation within a bucket: "mean", "max", "min", "sum"
            or "last".

    Returns:
        One point per non-empty bucket, stamped with the bucket's start.

    Raises:
        SeriesError: if ``step`` is not positive, ``how`` is unknown or the
            points are out of order.
    """
    if step <= timedelta(0):
        raise SeriesError("step must be positive")
    reducers = {
        "mean": lambda vs: sum(vs) / len(vs),
        "max": max,
        "min": min,
        "sum": sum,
        "last": lambda vs: vs[-1],
    }
    if how not in reducers:
        raise SeriesError(f"unknown aggregation {how!r}")
    check_sorted(points)

    buckets = {}
    for p in points:
        buckets.setdefault(floor_time(p.at, step), []).append(p.value)
    reduce = reducers[how]
    return [Point(at, reduce(values)) for at, values in sorted(buckets.items())]


def fill_gaps(points, step, max_gap):
    """Fill short gaps in a regular series by linear interpolation.

    A gap longer than ``step`` but no longer than ``max_gap`` gets
    interpolated points every ``step``; longer gaps are left alone, since
    inventing data across an outage would hide it.

    Returns:
        A new list; the input points are all kept.
    """
    if not points:
        return []
    filled = [points[0]]
    for p in points[1:]:
        prev = filled[-1]
        gap = p.at - prev.at
        if step < gap <= max_gap:
            n = round(gap / step)
            for i in range(1, n):
                frac = i / n
                filled.append(Point(prev.at + i * step, prev.value + frac * (p.value - prev.value)))
        filled.append(p)
    return filled


def rolling_mean(points, window):
    """Mean of the points within ``window`` before each point.

    The window is ``(t - window, t]``, measured in time rather than in
    points, so irregular series are handled correctly. ``window`` must be
    a positive ``timedelta``.

    Returns:
        One point per input point, at the same time.
    """
    out = []
    total = 0.0
    start = 0
    for end, p in enumerate(points):
        total += p.value
        while points[start].at <= p.at - window:
            total -= points[start].value
            start += 1
        out.append(Point(p.at, total / (end - start + 1)))
    return out


def rate(points):
    """Per-second rate of increase of a monotonic counter.

    Counter resets (a value lower than the one before) are treated as a
    restart from zero.

    Returns:
        One point per pair of neighbours, stamped with the later time; the
        result is one point shorter than the input.
    """
    out = []
    for before, after in zip(points, points[1:]):
        seconds = (after.at - before.at).total_seconds()
        delta = after.value - before.value
        if delta < 0:
            # A counter went backwards: the process restarted and began
            # again from zero, so everything it counted since is new.
            delta = after.value
        out.append(Point(after.at, delta / seconds))
    return out


def value_at(points, at):
    """The series' value at time ``at``, interpolated linearly.

    Returns:
        The exact value when a point lies at ``at``, the interpolation
        between its neighbours otherwise, and None when ``at`` is outside
        the series.
    """
    times = [p.at for p in points]
    i = bisect_left(times, at)
    if i < len(points) and points[i].at == at:
        return points[i].value
    if i == 0 or i == len(points):
        return None
    before, after = points[i - 1], points[i]
    frac = (at - before.at) / (after.at - before.at)
    return before.value + frac * (after.value - before.value)


def percentile(values, q):
    """The ``q``-th percentile of ``values``, interpolating between ranks.

    Args:
        values: numbers in any order.
        q: the percentile, from 0 to 100.

    Raises:
        SeriesError: if ``values`` is empty or ``q`` is out of range.
    """
    if not values:
        raise SeriesError("percentile of an empty series")
    if not 0 <= q <= 100:
        raise SeriesError(f"percentile out of range: {q}")
    ordered = sorted(values)
    rank = q / 100 * (len(ordered) - 1)
    low = math.floor(rank)
    high = math.ceil(rank)
    return ordered[low] + (rank - low) * (ordered[high] - ordered[low])


def detect_spikes(points, threshold=5.0):
    """Find points that lie far from the series' median.

    Distance is measured in robust standard deviations (from the median
    absolute deviation), so a few spikes do not hide each other. Series
    shorter than three points have no spikes.

    Returns:
        The points more than ``threshold`` deviations from the median.
    """
    values = [p.value for p in points]
    if len(values) < 3:
        return []
    center = median(values)
    spread = median(abs(v - center) for v in values)
    if spread == 0:
        return [p for p in points if p.value != center]
    # 1.4826 scales the median absolute deviation to a standard deviation
    # for normally distributed data.
    scale = 1.4826 * spread
    return [p for p in points if abs(p.value - center) / scale > threshold]


def summarize(points):
    """Summary statistics of a series, for the report's header table.

    Returns:
        A dict with count, first and last time, min, max, mean, p50 and
        p95; only ``{"count": 0}`` for an empty series.
    """
    if not points:
        return {"count": 0}
    values = [p.value for p in points]
    return {
        "count": len(values),
        "first": points[0].at,
        "last": points[-1].at,
        "min": min(values),
        "max": max(values),
        "mean": sum(values) / len(values),
        "p50": percentile(values, 50),
        "p95": percentile(values, 95),
    }


def to_csv(points, time_format="%Y-%m-%dT%H:%M:%S"):
    """Render the series as CSV text with a ``time,value`` header.

    Times are formatted with ``time_format`` (strftime); lines end with a
    newline, including the last.
    """
    lines = ["time,value"]
    for p in points:
        lines.append(f"{p.at.strftime(time_format)},{p.value:g}")
    return "\n".join(lines) + "\n"
