import math
from bisect import bisect_left
from dataclasses import dataclass
from datetime import datetime, timedelta
from statistics import median


@dataclass(frozen=True)
class Point:
    at: datetime
    value: float


class SeriesError(ValueError):
    pass


def check_sorted(points):
    for before, after in zip(points, points[1:]):
        if after.at <= before.at:
            raise SeriesError(f"points out of order at {after.at.isoformat()}")


def floor_time(at, step):
    epoch = datetime(1970, 1, 1, tzinfo=at.tzinfo)
    offset = (at - epoch) // step
    return epoch + offset * step


def resample(points, step, how="mean"):
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
    lines = ["time,value"]
    for p in points:
        lines.append(f"{p.at.strftime(time_format)},{p.value:g}")
    return "\n".join(lines) + "\n"
