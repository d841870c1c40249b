#!/usr/bin/env python3
"""Expense report: totals per category and per month from a bank CSV export."""

import argparse
import csv
import sys
from collections import defaultdict
from dataclasses import dataclass
from datetime import date
from decimal import Decimal, InvalidOperation

COLUMNS = ("date", "category", "amount", "note")


@dataclass(frozen=True)
class Expense:
    day: date
    category: str
    amount: Decimal
    note: str


class RowError(ValueError):
    """A CSV row that cannot be turned into an Expense."""


def parse_row(row):
    """Build an Expense from a csv.DictReader row, or raise RowError."""
    missing = [name for name in COLUMNS[:3] if not (row.get(name) or "").strip()]
    if missing:
        raise RowError(f"missing {', '.join(missing)}")
    try:
        day = date.fromisoformat(row["date"].strip())
    except ValueError:
        raise RowError(f"bad date {row['date']!r}") from None
    try:
        amount = Decimal(row["amount"].strip())
    except InvalidOperation:
        raise RowError(f"bad amount {row['amount']!r}") from None
    if not amount.is_finite():
        raise RowError(f"bad amount {row['amount']!r}")
    return Expense(day, row["category"].strip(), amount, (row.get("note") or "").strip())


def read_expenses(handle, strict):
    """Yield the expenses in an open CSV file, reporting bad rows on stderr.

    Line numbers count the header as line 1, as a spreadsheet would.
    """
    reader = csv.DictReader(handle)
    absent = [name for name in COLUMNS[:3] if name not in (reader.fieldnames or [])]
    if absent:
        raise RowError(f"header lacks column(s): {', '.join(absent)}")
    for row in reader:
        try:
            yield parse_row(row)
        except RowError as exc:
            if strict:
                raise RowError(f"line {reader.line_num}: {exc}") from None
            print(f"warning: line {reader.line_num}: {exc}; skipped", file=sys.stderr)


def totals_by(expenses, key):
    """Sum amounts per key(expense); returns a dict."""
    totals = defaultdict(Decimal)
    for expense in expenses:
        totals[key(expense)] += expense.amount
    return dict(totals)


def format_money(amount):
    return f"{amount:,.2f}"


def print_report(expenses, out=sys.stdout):
    if not expenses:
        print("no expenses", file=out)
        return
    grand_total = sum((e.amount for e in expenses), Decimal(0))

    by_category = totals_by(expenses, lambda e: e.category)
    width = max(len("category"), *(len(name) for name in by_category))
    print(f"{'category':<{width}}  {'total':>14}  {'share':>7}", file=out)
    # Largest first; ties by name so the output is stable.
    for name, total in sorted(by_category.items(), key=lambda kv: (-kv[1], kv[0])):
        share = f"{total / grand_total:.1%}" if grand_total else "-"
        print(f"{name:<{width}}  {format_money(total):>14}  {share:>7}", file=out)
    print(f"{'total':<{width}}  {format_money(grand_total):>14}", file=out)

    print(file=out)
    by_month = totals_by(expenses, lambda e: e.day.strftime("%Y-%m"))
    print(f"{'month':<7}  {'total':>14}", file=out)
    for month, total in sorted(by_month.items()):
        print(f"{month:<7}  {format_money(total):>14}", file=out)


def build_parser():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("file", nargs="?", help="CSV file (default: standard input)")
    parser.add_argument("--category", help="report only this category")
    parser.add_argument(
        "--strict", action="store_true", help="stop at the first row that does not parse"
    )
    return parser


def main(argv=None):
    args = build_parser().parse_args(argv)
    try:
        handle = open(args.file, newline="", encoding="utf-8") if args.file else sys.stdin
    except OSError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    try:
        with handle:
            expenses = list(read_expenses(handle, args.strict))
    except RowError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        print(f"error: cannot read {args.file or 'standard input'}: {exc}", file=sys.stderr)
        return 1
    if args.category is not None:
        expenses = [e for e in expenses if e.category == args.category]
    print_report(expenses)
    return 0


if __name__ == "__main__":
    sys.exit(main())
