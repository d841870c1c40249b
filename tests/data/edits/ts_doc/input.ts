export interface Interval {
  start: number;
  end: number;
}

export function isEmpty(a: Interval): boolean {
  return a.end <= a.start;
}

export function length(a: Interval): number {
  return isEmpty(a) ? 0 : a.end - a.start;
}

export function contains(a: Interval, x: number): boolean {
  return a.start <= x && x < a.end;
}

export function overlaps(a: Interval, b: Interval): boolean {
  return a.start < b.end && b.start < a.end;
}

export function intersect(a: Interval, b: Interval): Interval {
  return { start: Math.max(a.start, b.start), end: Math.min(a.end, b.end) };
}

export function hull(a: Interval, b: Interval): Interval {
  return { start: Math.min(a.start, b.start), end: Math.max(a.end, b.end) };
}

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

export function subtract(a: Interval, b: Interval): Interval[] {
  if (!overlaps(a, b)) return [a];
  const out: Interval[] = [];
  if (a.start < b.start) out.push({ start: a.start, end: b.start });
  if (b.end < a.end) out.push({ start: b.end, end: a.end });
  return out;
}

export function totalLength(intervals: Interval[]): number {
  return merge(intervals).reduce((sum, a) => sum + length(a), 0);
}
