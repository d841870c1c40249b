/** A half-open range of numbers: start is included, end is not. */
export interface Interval {
  start: number;
  end: number;
}

/** True when the interval holds no number. */
export function isEmpty(a: Interval): boolean {
  return a.end <= a.start;
}

/** The interval's length; 0 when it is empty. */
export function length(a: Interval): number {
  return isEmpty(a) ? 0 : a.end - a.start;
}

/** True when x lies in the interval. */
export function contains(a: Interval, x: number): boolean {
  return a.start <= x && x < a.end;
}

/** True when the two intervals share at least one number. */
export function overlaps(a: Interval, b: Interval): boolean {
  return a.start < b.end && b.start < a.end;
}

/**
 * The numbers in both intervals.
 * The result is empty (end <= start) when they do not overlap.
 */
export function intersect(a: Interval, b: Interval): Interval {
  return { start: Math.max(a.start, b.start), end: Math.min(a.end, b.end) };
}

/** The smallest interval that contains both. */
export function hull(a: Interval, b: Interval): Interval {
  return { start: Math.min(a.start, b.start), end: Math.max(a.end, b.end) };
}

/**
 * Merges overlapping and touching intervals.
 * Empty intervals are dropped; the result is sorted by start.
 * The input array and its intervals are not modified.
 */
export function merge(intervals: Interval[]): Interval[] {
  const sorted = [...intervals].filter((a) => !isEmpty(a)).sort((a, b) => a.start - b.start);
  const out: Interval[] = [];
  for (const a of sorted) {
    const last = out[out.length - 1];
    if (last && a.start <= last.end) {
      last.end = Math.max(last.end, a.end);
    } else {
      out.push({ ...a });
    }
  }
  return out;
}

/** The parts of a that are not in b: zero, one or two intervals. */
export function subtract(a: Interval, b: Interval): Interval[] {
  if (!overlaps(a, b)) return [a];
  const out: Interval[] = [];
  if (a.start < b.start) out.push({ start: a.start, end: b.start });
  if (b.end < a.end) out.push({ start: b.end, end: a.end });
  return out;
}

/** The length of the union of the intervals. */
export function totalLength(intervals: Interval[]): number {
  return merge(intervals).reduce((sum, a) => sum + length(a), 0);
}
